/**
 * The texts of the demo library (`npm run cli -- demo`): Spanish titles and descriptions that use
 * the description marks (*negrita*, _cursiva_, ~subrayado~, line breaks), tags, organisations and users.
 */

export const DEMO_ORGANIZATIONS = ['Organización Norte', 'Organización Sur'] as const;

export interface DemoUser {
  user: string;
  nombre: string;
  email: string;
  organizacion: (typeof DEMO_ORGANIZATIONS)[number];
}

export const DEMO_USERS: readonly DemoUser[] = [
  { user: 'ana.garcia', nombre: 'Ana García', email: 'ana.garcia@norte.example', organizacion: 'Organización Norte' },
  { user: 'luis.martinez', nombre: 'Luis Martínez', email: 'luis.martinez@norte.example', organizacion: 'Organización Norte' },
  { user: 'marta.lopez', nombre: 'Marta López', email: 'marta.lopez@sur.example', organizacion: 'Organización Sur' },
  { user: 'jorge.ruiz', nombre: 'Jorge Ruiz', email: 'jorge.ruiz@sur.example', organizacion: 'Organización Sur' },
  { user: 'lucia.fernandez', nombre: 'Lucía Fernández', email: 'lucia.fernandez@sur.example', organizacion: 'Organización Sur' },
];

export const DEMO_TAGS = [
  'Formación',
  'Reunión',
  'Seguridad',
  'Comunicación',
  'Recursos Humanos',
  'Tecnología',
  'Calidad',
  'Innovación',
  'Atención al cliente',
  'Sostenibilidad',
  'Bienvenida',
] as const;
type DemoTag = (typeof DEMO_TAGS)[number];

export interface DemoVideoText {
  titulo: string;
  descripcionCorta: string;
  /** the long description (null: none) */
  descripcion: string | null;
  etiquetas: DemoTag[];
  nombreUsuarioAlta: string;
}

export const DEMO_VIDEOS: readonly DemoVideoText[] = [
  {
    titulo: 'Bienvenida a la organización',
    descripcionCorta: 'Primeros pasos para las nuevas incorporaciones.',
    descripcion: 'Sesión de *bienvenida* para quienes se incorporan este trimestre.\nRepasamos la _historia_ de la organización y los ~valores~ que nos guían.',
    etiquetas: ['Bienvenida', 'Recursos Humanos', 'Formación'],
    nombreUsuarioAlta: 'Equipo de Personas',
  },
  {
    titulo: 'Reunión trimestral de resultados',
    descripcionCorta: 'Resumen de objetivos cumplidos y retos del próximo trimestre.',
    descripcion: 'La dirección presenta los *resultados* del trimestre.\n_Turno de preguntas_ al final de la sesión.',
    etiquetas: ['Reunión', 'Comunicación'],
    nombreUsuarioAlta: 'Dirección',
  },
  {
    titulo: 'Prevención de riesgos en la oficina',
    descripcionCorta: 'Ergonomía, pausas activas y orden en el puesto de trabajo.',
    descripcion: 'Buenas prácticas de *seguridad* en el día a día:\n- postura frente a la pantalla\n- pausas cada hora\n- ~salidas de emergencia~ siempre despejadas',
    etiquetas: ['Seguridad', 'Formación'],
    nombreUsuarioAlta: 'Servicio de Prevención',
  },
  {
    titulo: 'Cómo usar la nueva intranet',
    descripcionCorta: 'Recorrido por las secciones y trucos de búsqueda.',
    descripcion: 'Te enseñamos a encontrar documentos, _reservar salas_ y publicar noticias.\nRecuerda: la búsqueda admite *comillas* para frases exactas.',
    etiquetas: ['Tecnología', 'Formación', 'Comunicación'],
    nombreUsuarioAlta: 'Sistemas',
  },
  {
    titulo: 'Atención telefónica de calidad',
    descripcionCorta: 'Protocolo de saludo, escucha activa y cierre de llamadas.',
    descripcion: null,
    etiquetas: ['Atención al cliente', 'Calidad'],
    nombreUsuarioAlta: 'Equipo de Calidad',
  },
  {
    titulo: 'Plan de sostenibilidad 2027',
    descripcionCorta: 'Borrador interno: medidas de ahorro energético y movilidad.',
    descripcion: '*Borrador* pendiente de aprobación.\nNo compartir fuera del comité de ~sostenibilidad~.',
    etiquetas: ['Sostenibilidad', 'Innovación'],
    nombreUsuarioAlta: 'Comité de Sostenibilidad',
  },
  {
    titulo: 'Taller de comunicación efectiva',
    descripcionCorta: 'Claves para presentaciones breves y correos claros.',
    descripcion: 'Tres ideas para comunicar mejor:\n1. *Empieza por la conclusión*\n2. _Una idea por diapositiva_\n3. ~Revisa antes de enviar~',
    etiquetas: ['Comunicación', 'Formación'],
    nombreUsuarioAlta: 'Equipo de Personas',
  },
  {
    titulo: 'Ciberseguridad: correos sospechosos',
    descripcionCorta: 'Cómo reconocer un intento de suplantación y a quién avisar.',
    descripcion: 'Si un mensaje pide *contraseñas* o pagos urgentes, desconfía.\nReenvíalo a _seguridad@_ y ~no abras~ los adjuntos.',
    etiquetas: ['Seguridad', 'Tecnología'],
    nombreUsuarioAlta: 'Sistemas',
  },
  {
    titulo: 'Jornada de innovación: ideas ganadoras',
    descripcionCorta: 'Presentación de los tres proyectos premiados.',
    descripcion: 'Los equipos ganadores explican su *prototipo* en cinco minutos.\nVota tu favorito en la _intranet_.',
    etiquetas: ['Innovación', 'Reunión'],
    nombreUsuarioAlta: 'Oficina de Innovación',
  },
  {
    titulo: 'Procedimiento de gestión de incidencias',
    descripcionCorta: 'Registro, clasificación y seguimiento de una incidencia.',
    descripcion: 'Toda incidencia se registra en el *gestor* el mismo día.\nPrioridades: _alta_, _media_ y _baja_.',
    etiquetas: ['Calidad', 'Atención al cliente'],
    nombreUsuarioAlta: 'Equipo de Calidad',
  },
  {
    titulo: 'Evacuación del edificio: simulacro',
    descripcionCorta: 'Grabación del simulacro de octubre y lecciones aprendidas.',
    descripcion: 'Tiempo total de evacuación: *4 minutos 10 segundos*.\n~Punto de encuentro~: aparcamiento norte.',
    etiquetas: ['Seguridad'],
    nombreUsuarioAlta: 'Servicio de Prevención',
  },
  {
    titulo: 'Encuesta de clima laboral: resultados',
    descripcionCorta: 'Lo que nos habéis contado y qué vamos a cambiar.',
    descripcion: 'Participación del *78 %*.\nLas tres mejoras más pedidas: _teletrabajo_, _formación_ y ~comunicación interna~.',
    etiquetas: ['Recursos Humanos', 'Comunicación'],
    nombreUsuarioAlta: 'Equipo de Personas',
  },
  {
    titulo: 'Hojas de cálculo: tablas dinámicas',
    descripcionCorta: 'Curso práctico de análisis de datos en veinte minutos.',
    descripcion: null,
    etiquetas: ['Formación', 'Tecnología'],
    nombreUsuarioAlta: 'Sistemas',
  },
  {
    titulo: 'Reunión de coordinación de sedes',
    descripcionCorta: 'Norte y Sur ponen en común el calendario del semestre.',
    descripcion: 'Acuerdos:\n*Calendario único* de formación\n_Reuniones mensuales_ por videoconferencia',
    etiquetas: ['Reunión'],
    nombreUsuarioAlta: 'Dirección',
  },
  {
    titulo: 'Reciclaje y residuos en la oficina',
    descripcionCorta: 'Qué va en cada contenedor y por qué importa.',
    descripcion: 'Papel, envases y orgánico: *tres colores*, tres contenedores.\nLos ~cartuchos de tinta~ se entregan en recepción.',
    etiquetas: ['Sostenibilidad'],
    nombreUsuarioAlta: 'Comité de Sostenibilidad',
  },
  {
    titulo: 'Escucha activa con clientes difíciles',
    descripcionCorta: 'Role-play de situaciones tensas y cómo reconducirlas.',
    descripcion: 'Técnicas: _parafrasear_, *validar la emoción* y proponer un siguiente paso.',
    etiquetas: ['Atención al cliente', 'Formación', 'Comunicación'],
    nombreUsuarioAlta: 'Equipo de Calidad',
  },
  {
    titulo: 'Presentación del nuevo organigrama',
    descripcionCorta: 'Cambios en áreas y responsables a partir de enero.',
    descripcion: 'Versión *preliminar*: puede cambiar antes de su publicación.\nConsultas a _Dirección_.',
    etiquetas: ['Comunicación', 'Recursos Humanos'],
    nombreUsuarioAlta: 'Dirección',
  },
  {
    titulo: 'Auditoría interna de calidad',
    descripcionCorta: 'Qué revisa el auditor y cómo preparar la documentación.',
    descripcion: 'Lista de comprobación:\n*registros al día*\n_procedimientos firmados_\n~evidencias~ accesibles',
    etiquetas: ['Calidad'],
    nombreUsuarioAlta: 'Equipo de Calidad',
  },
  {
    titulo: 'Contraseñas y doble factor',
    descripcionCorta: 'Por qué pedimos un segundo factor y cómo configurarlo.',
    descripcion: 'Usa una aplicación de *autenticación* en el móvil.\nNunca compartas tus _códigos_.',
    etiquetas: ['Seguridad', 'Tecnología', 'Formación'],
    nombreUsuarioAlta: 'Sistemas',
  },
  {
    titulo: 'Mentoría para nuevas incorporaciones',
    descripcionCorta: 'Cómo funciona el programa y cómo apuntarse como mentor.',
    descripcion: 'Cada persona nueva tiene un *mentor* durante sus primeros _tres meses_.',
    etiquetas: ['Bienvenida', 'Recursos Humanos'],
    nombreUsuarioAlta: 'Equipo de Personas',
  },
  {
    titulo: 'Laboratorio de prototipos',
    descripcionCorta: 'Visita guiada al espacio de innovación y sus herramientas.',
    descripcion: null,
    etiquetas: ['Innovación', 'Tecnología'],
    nombreUsuarioAlta: 'Oficina de Innovación',
  },
  {
    titulo: 'Resolución de quejas en menos de 48 horas',
    descripcionCorta: 'El nuevo compromiso de servicio explicado paso a paso.',
    descripcion: 'Objetivo: *respuesta en 48 horas* para el 95 % de las quejas.\n_Seguimiento semanal_ en la reunión de equipo.',
    etiquetas: ['Atención al cliente', 'Calidad'],
    nombreUsuarioAlta: 'Equipo de Calidad',
  },
  {
    titulo: 'Movilidad sostenible al trabajo',
    descripcionCorta: 'Bicicleta, transporte público y coche compartido.',
    descripcion: 'Nuevo *aparcamiento de bicicletas* en ambas sedes.\nApúntate al ~coche compartido~ en la intranet.',
    etiquetas: ['Sostenibilidad', 'Comunicación'],
    nombreUsuarioAlta: 'Comité de Sostenibilidad',
  },
  {
    titulo: 'Cierre del año y agradecimientos',
    descripcionCorta: 'Mensaje de la dirección a todos los equipos.',
    descripcion: '*Gracias* por un año intenso.\nNos vemos en la _celebración_ de enero.',
    etiquetas: ['Reunión', 'Comunicación'],
    nombreUsuarioAlta: 'Dirección',
  },
];

/** Demo videos at these positions (0-based) are hidden: only administrators and users of their organisation see them. */
export const HIDDEN_DEMO_VIDEOS: ReadonlySet<number> = new Set([5, 12, 16]);

/**
 * What is said in a few demo videos (by position) and written in no title or description: a search
 * for "terraza" or "churros" finds the video only through its captions.
 */
export const DEMO_SPOKEN: Readonly<Record<number, string>> = {
  0: 'El café de bienvenida es en la terraza del tercer piso.',
  7: 'Un banco nunca te pedirá el PIN por teléfono.',
  10: 'Durante una evacuación, nunca uses el ascensor.',
  23: 'Habrá churros con chocolate para todos.',
};

/** The English captions of the first demo video (the others have Spanish ones only). */
export const DEMO_ENGLISH_CAPTIONS: readonly string[] = [
  'Hello, this is «Welcome to the organisation».',
  'First steps for new joiners.',
  'A welcome session for those joining this quarter.',
  'We go over the history of the organisation and the values that guide us.',
  'The welcome coffee is on the third-floor terrace.',
];

/** The Spanish captions of a demo video: a greeting, its descriptions line by line (marks left out), what only it says. */
export function demoSpanishCaptions(text: DemoVideoText, index: number): string[] {
  const described = [text.descripcionCorta, ...(text.descripcion?.split('\n') ?? [])].map((line) => line.replace(/[*_~]/g, ''));
  const spoken = DEMO_SPOKEN[index % DEMO_VIDEOS.length];
  return [`Hola, esto es «${text.titulo}».`, ...described, ...(spoken ? [spoken] : [])];
}
