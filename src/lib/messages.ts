/**
 * Every user-facing Spanish message of docs/REQUIREMENTS.md the app shows, written once.
 * Components and machines look messages up here by the server's problem `type`
 * (or by a named key); no Spanish message is written twice in the app. An area adds
 * the texts of the spec when it first shows them (nothing here waits unused).
 */

import { authMessages, dialogMessages, validationMessages } from './first-screen-messages.ts';

export * from './first-screen-messages.ts';

/**
 * An average score of 0 to 5 as Spanish writes it, to one decimal: '3,5', '4', '0,3'. Written out
 * rather than with Intl.NumberFormat('es'), whose first use loads the locale's data in the middle of
 * the list's first render (about 12 ms at Lighthouse's 4× slowdown) for numbers that never need
 * grouping; the tests check both agree on every tenth from 0 to 5.
 */
export function formatAverage(average: number): string {
  const tenths = Math.round(average * 10);
  const whole = Math.trunc(tenths / 10);
  const tenth = tenths % 10;
  return tenth === 0 ? String(whole) : `${whole},${tenth}`;
}

/**
 * Texts of the video list and detail (R-LIB-1, R-VID-1, R-LIB-3, R-LIB-7): filter
 * chips, the tag filter popover, cards, rating and favourite controls. The quoted texts of the spec
 * are copied as written ('es despues de' has no accent there); the rest are accessible names and
 * labels the spec leaves open.
 */
export const libraryMessages = {
  // Tag filter (R-LIB-6, R-TAG-2, R-LIB-7)
  tagChip: 'Etiqueta',
  tagFilterTitle: 'Filtrar por etiquetas',
  tagFilterPlaceholder: 'Introduzca un tag',
  selectedTags: 'Etiquetas seleccionadas',
  noSelectedTags: 'No hay etiquetas seleccionadas',
  noMatchingTags: 'Ninguna etiqueta empieza por ese texto',
  apply: 'Aplicar',
  cancel: authMessages.cancel,
  /** The chip: 'Etiqueta', or up to 3 names then 'y N más'. */
  tagChipLabel: (names: readonly string[], unnamed = 0) => {
    const total = names.length + unnamed;
    if (total === 0) return 'Etiqueta';
    const shown = names.slice(0, 3);
    const rest = total - shown.length;
    if (shown.length === 0) return `${rest} ${rest === 1 ? 'etiqueta' : 'etiquetas'}`;
    return rest > 0 ? `${shown.join(', ')} y ${rest} más` : shown.join(', ');
  },
  clearTagFilter: 'Quitar filtro de etiquetas',
  removeSelectedTag: (nombre: string) => `Quitar ${nombre}`,
  tagStrip: 'Etiquetas',
  scrollTagsBack: 'Ver etiquetas anteriores',
  scrollTagsForward: 'Ver más etiquetas',
  // Upload date filter (R-LIB-9 operators tw, tm, l6m, ty, gt)
  uploadDateChip: 'Fecha de subida',
  uploadDateThisWeek: 'Esta semana',
  uploadDateThisMonth: 'Este mes',
  uploadDateLast6Months: 'Últimos 6 meses',
  uploadDateThisYear: 'Este año',
  uploadDateAfter: 'es despues de',
  uploadDateAfterDay: (date: string) => `es despues de ${date}`,
  chooseDay: 'Elija el día',
  // The month and year buttons of the calendar are named by the month or year they show (WCAG 2.5.3).
  calendar: {
    nextMonth: 'Mes siguiente',
    previousMonth: 'Mes anterior',
    nextYear: 'Año siguiente',
    previousYear: 'Año anterior',
    nextDecade: 'Década siguiente',
    previousDecade: 'Década anterior',
  },
  clearUploadDateFilter: 'Quitar filtro de fecha de subida',
  // Score filter (R-LIB-10: no Apply button)
  scoreChip: 'Puntuación',
  scoreFilterTitle: 'Filtrar por puntuación',
  anyScore: 'Cualquier puntuación',
  scoreAtLeast: (stars: number) => `${stars} ${stars === 1 ? 'estrella' : 'estrellas'} o más`,
  scoreExactly: (stars: number) => `${stars} ${stars === 1 ? 'estrella' : 'estrellas'}`,
  scoreAtMost: (stars: number) => `${stars} ${stars === 1 ? 'estrella' : 'estrellas'} o menos`,
  clearScoreFilter: 'Quitar filtro de puntuación',
  // Search box
  clearSearch: 'Borrar búsqueda',
  // List
  emptyList: 'No existen videos que se ajusten a estos filtros',
  loadingMore: 'Cargando más videos',
  loadingVideo: 'Cargando el video',
  // Card and detail (R-LIB-3)
  notSeen: 'No visto',
  // Administrators (R-LIB-23…26): captions at a glance, and what was said that matches the search.
  noSubtitles: 'Sin subtítulos',
  snippetTime: (time: string) => `en ${time}`,
  snippets: 'Coincidencias en lo que se dice',
  subtitlesChip: 'Subtítulos',
  subtitlesFilterTitle: 'Filtrar por subtítulos',
  withSubtitles: 'Con subtítulos',
  withoutSubtitles: 'Sin subtítulos',
  clearSubtitlesFilter: 'Quitar filtro de subtítulos',
  thumbnailAlt: (titulo: string) => `Miniatura de ${titulo}`,
  play: (titulo: string) => `Reproducir ${titulo}`,
  edit: (titulo: string) => `Editar ${titulo}`,
  remove: (titulo: string) => `Eliminar ${titulo}`,
  favorite: 'Favorito',
  addFavorite: 'Añadir a favoritos',
  removeFavorite: 'Quitar de favoritos',
  duration: (text: string) => `Duración: ${text}`,
  averageRating: (average: number) => `Puntuación media: ${formatAverage(average)} de 5`,
  videoTags: 'Etiquetas del video',
  yourRating: 'Su puntuación',
  noRating: 'Sin puntuación',
  ratingStar: (stars: number) => `${stars} ${stars === 1 ? 'estrella' : 'estrellas'}`,
  uploadedOn: (date: string) => `Subido el ${date}`,
  // Detail page (R-VID-1)
  videoDescription: 'Descripción',
  // Toasts of the rating and the favourite (R-GEN-7, R-VID-2)
  ratingSaved: (stars: number) => `Video puntuado con ${stars} ${stars === 1 ? 'estrella' : 'estrellas'}`,
  ratingFailed: 'Error al guardar la puntuación',
  favoriteAdded: 'Video añadido a favoritos',
  favoriteRemoved: 'Video quitado de favoritos',
  favoriteAddFailed: 'Error al añadir el video a favoritos',
  favoriteRemoveFailed: 'Error al quitar el video de favoritos',
} as const;

/** The video form's messages (R-ADM-2), by the key machines/video-form/video-form.rules.ts answers. */
export const videoFormMessages = {
  required: validationMessages.required,
  tooLong: (max: number) => `* Este campo no puede contener más de ${max} carácteres`,
  tooShort: (min: number) => `* Este campo no puede contener menos de ${min} carácteres`,
  optionalTooShort: (min: number) => `* Si este campo es informado, no puede contener menos de ${min} carácteres`,
} as const;

/** Toasts of the upload wizard and the edit and delete dialogs (R-UPL-5). */
export const videoManagementMessages = {
  created: 'El video se ha creado correctamente',
  createFailed: 'No se ha podido guardar el video',
  modified: 'El video se ha modificado correctamente',
  deleted: 'El video se ha eliminado con éxito',
  deleteFailed: 'Ha ocurrido un error tratando de eliminar el video',
} as const;

const videos = (count: number) => `${count} ${count === 1 ? 'video' : 'videos'}`;

/** The list's selection mode and its batch actions (R-ADM-15 … R-ADM-19). */
export const bulkMessages = {
  select: 'Seleccionar',
  selectVideo: (titulo: string) => `Seleccionar «${titulo}»`,
  bar: 'Videos seleccionados',
  count: (count: number) => `${videos(count)} ${count === 1 ? 'seleccionado' : 'seleccionados'}`,
  selectAll: 'Seleccionar todos',
  clear: 'Quitar selección',
  addTags: 'Añadir etiquetas',
  removeTags: 'Quitar etiquetas',
  visibility: 'Visibilidad',
  visible: 'Visible',
  hidden: 'Oculto',
  remove: 'Eliminar',
  cancel: authMessages.cancel,
  addTagsTitle: (count: number) => `Añadir etiquetas a ${videos(count)}`,
  removeTagsTitle: (count: number) => `Quitar etiquetas de ${videos(count)}`,
  tags: 'Etiquetas',
  add: 'Añadir',
  take: 'Quitar',
  noTags: 'No hay etiquetas',
  deleteTitle: 'Eliminar videos',
  deleteQuestion: (count: number) => `¿Eliminar ${videos(count)}?`,
  deleteWarning: 'Se eliminarán también sus archivos. No se puede deshacer.',
  // The outcome (docs/decisions/0127-batch-video-operations.md): one toast for the whole batch.
  modified: (count: number) => `${videos(count)} ${count === 1 ? 'modificado' : 'modificados'}`,
  deleted: (count: number) => `${videos(count)} ${count === 1 ? 'eliminado' : 'eliminados'}`,
  missing: (count: number) => `${videos(count)} ya no ${count === 1 ? 'existía' : 'existían'}`,
  modifyFailed: 'No se han podido modificar los videos',
  deleteFailed: 'No se han podido eliminar los videos',
  /** Why a batch was refused, by the problem's type; nothing for an unforeseen one. */
  reasons: {
    'validation-error': 'la petición no es válida',
    'too-many-tags': 'algún video tendría más de 50 etiquetas',
    'unknown-tag': 'alguna de las etiquetas ya no existe',
    'unauthorized-role': 'solo los administradores pueden hacerlo',
    'network-error': 'no hay conexión con el servidor',
    timeout: 'el servidor no ha respondido a tiempo',
    'internal-server-error': 'error en el servidor',
  } as Readonly<Record<string, string>>,
  failed: (what: string, reason: string | undefined) => (reason ? `${what}: ${reason}` : what),
} as const;

/** The video form's labels (upload wizard and edit dialog). */
export const videoFormLabels = {
  titulo: 'Título',
  descripcionCorta: 'Descripción corta',
  descripcion: 'Descripción',
  etiquetas: 'Etiquetas',
  isVisible: 'Visible para todos',
  thumbnail: 'Miniatura',
  thumbnailPlaceholder: 'Elegir una imagen',
  thumbnailClear: 'Quitar la miniatura',
  thumbnailNotImage: 'La miniatura debe ser una imagen PNG, JPEG o WebP',
  noTags: 'No hay etiquetas',
} as const;

/** The upload wizard's texts (R-UPL-1). */
export const uploadMessages = {
  title: 'Subir video',
  stepChoose: 'Elegir archivo',
  stepSession: 'Preparar subida',
  stepUploading: 'Subiendo',
  stepUploaded: 'Subida completada',
  dropzone: 'Arrastre uno o varios videos aquí o haga clic para elegirlos',
  // R-UPL-12…19: several files at once.
  addMore: 'Añadir más videos',
  tooMany: (max: number, left: number) =>
    `Se pueden subir hasta ${max} archivos a la vez: ${left === 1 ? 'se ha dejado fuera 1 archivo' : `se han dejado fuera ${left} archivos`}.`,
  files: 'Archivos',
  statusQueued: 'En cola',
  statusPreparing: 'Preparando…',
  statusUploading: (value: number) => `Subiendo ${value} %`,
  statusProcessing: 'Procesando…',
  statusReady: 'Listo',
  statusSaving: 'Guardando…',
  statusInterrupted: 'Interrumpida',
  statusError: 'Error',
  statusSaved: 'Guardado',
  fileProgress: (name: string) => `Progreso de ${name}`,
  remove: 'Quitar',
  removeLabel: (name: string) => `Quitar ${name}`,
  retryLabel: (name: string) => `Reintentar ${name}`,
  batch: 'Para todos los archivos',
  batchHint: 'Las etiquetas y la visibilidad elegidas aquí valen para cada archivo; cámbielas en un archivo para que solo valgan para él.',
  confirmAll: 'Confirmar todos',
  saveFailed: 'No se ha podido guardar el video',
  savedSoFar: (count: number) => (count === 1 ? 'Ya se ha creado 1 video.' : `Ya se han creado ${count} videos.`),
  created: (count: number) => `${count} videos creados`,
  closeQuestion: '¿Cancelar las subidas en curso?',
  closeDetail: 'Los archivos que aún no se han guardado se descartarán; los videos ya creados se quedan.',
  keepUploading: 'Seguir subiendo',
  discardUploads: 'Cancelar las subidas',
  notAVideo: (name: string) => `El archivo «${name}» no es un video`,
  preparing: 'Preparando la subida…',
  sessionFailed: 'No se ha podido preparar la subida',
  progress: 'Progreso de la subida',
  percent: (value: number) => `${value} %`,
  processing: 'Procesando el video…',
  processingPercent: (value: number) => `Procesando el video… ${value} %`,
  processingProgress: 'Progreso del procesado',
  // R-UPL-8: playback starts at the first quality; the others are made after it.
  qualitiesFollow: 'Podrá verse en cuanto esté lista la primera calidad; las calidades superiores se preparan después, en segundo plano.',
  interrupted: 'La subida se ha interrumpido',
  retry: 'Reintentar',
  invalidVideo: 'El archivo no es un video válido',
  tooLarge: 'El archivo supera el tamaño máximo permitido',
  chooseAnother: 'Elegir otro archivo',
  uploaded: 'El video se ha subido. Revise los datos y pulse Confirmar.',
  saving: 'Guardando el video…',
  confirm: 'Confirmar',
  cancel: 'Cancelar',
} as const;

/** The Subtítulos section of the upload wizard and the edit dialog (R-UPL-9…11, R-ADM-7…9). */
export const subtitleMessages = {
  section: 'Subtítulos',
  hint: 'Un archivo .vtt o .srt por idioma. El idioma se deduce del nombre (charla.en.srt → inglés).',
  add: 'Añadir subtítulos',
  none: 'Este video no tiene subtítulos',
  language: 'Idioma',
  languageOf: (name: string) => `Idioma de ${name}`,
  replace: 'Sustituir',
  replaceLabel: (language: string) => `Sustituir los subtítulos en ${language}`,
  remove: 'Quitar',
  removeLabel: (language: string) => `Quitar los subtítulos en ${language}`,
  removeQuestion: (language: string) => `¿Quitar los subtítulos en ${language}?`,
  cancel: authMessages.cancel,
  notASubtitleFile: (name: string) => `El archivo «${name}» no es un archivo de subtítulos .vtt o .srt`,
  allLanguagesTaken: 'Ya hay un archivo para cada idioma: sustituya o quite uno',
  // The server's refusals (openapi.yaml putSubtitles), by problem type.
  invalid: (detail: string) => `El archivo de subtítulos no es válido: ${detail}`,
  invalidWithoutDetail: 'El archivo de subtítulos no es válido',
  tooLarge: 'El archivo de subtítulos supera el tamaño máximo de 2 MB',
  unsupported: 'El archivo no es un archivo de subtítulos .vtt o .srt',
  badLanguage: 'El idioma elegido no es válido',
  failed: 'No se han podido guardar los subtítulos',
  removeFailed: 'No se han podido quitar los subtítulos',
  loadFailed: 'No se han podido cargar los subtítulos',
  retry: 'Reintentar',
  saving: 'Guardando los subtítulos…',
  removing: 'Quitando los subtítulos…',
  loading: 'Cargando los subtítulos…',
  saved: (language: string) => `Subtítulos en ${language} guardados`,
  removed: (language: string) => `Subtítulos en ${language} quitados`,
  // The wizard after Confirmar (R-UPL-11): the video exists, some files were refused.
  wizardRefused: 'El video se ha creado, pero algunos subtítulos no se han guardado. Sustituya el archivo y pulse «Reintentar», o ciérrelo y corríjalo más tarde en «Editar video».',
  fileFailed: (name: string, language: string, message: string) => `${name} (${language}): ${message}`,
  close: 'Cerrar',
} as const;

/** The edit and delete dialogs of a video (R-ADM-1, R-ADM-3). */
export const videoDialogMessages = {
  editTitle: 'Editar video',
  save: 'Guardar',
  deleteTitle: 'Eliminar video',
  deleteQuestion: (titulo: string) => `¿Seguro que desea eliminar el video «${titulo}»?`,
  delete: 'Eliminar',
  cancel: authMessages.cancel,
} as const;

/** 'Reemplazar archivo' in 'Editar video' (R-ADM-20…23): a new file for the same video. */
export const replaceFileMessages = {
  section: 'Reemplazar archivo',
  hint: 'Suba otro archivo para este video: conserva sus datos, valoraciones, favoritos, visualizaciones, subtítulos y enlaces.',
  choose: 'Elegir un video',
  chooseLabel: 'Elegir el video que reemplaza al actual',
  notAVideo: uploadMessages.notAVideo,
  preparing: uploadMessages.preparing,
  sessionFailed: uploadMessages.sessionFailed,
  progress: uploadMessages.progress,
  percent: uploadMessages.percent,
  processing: 'Procesando…',
  processingPercent: (value: number) => `Procesando… ${value} %`,
  interrupted: uploadMessages.interrupted,
  retry: uploadMessages.retry,
  invalidVideo: uploadMessages.invalidVideo,
  tooLarge: uploadMessages.tooLarge,
  chooseAnother: uploadMessages.chooseAnother,
  ready: 'El nuevo archivo está listo. Hasta que pulse «Reemplazar archivo» se sigue viendo el actual.',
  keepsPlaying: 'El video actual se sigue viendo hasta que el nuevo esté listo.',
  // Closing the dialog stops the section, and an upload nobody confirmed is thrown away.
  closeDiscards: 'Si cierra este diálogo antes de reemplazarlo, la subida se descarta.',
  replace: 'Reemplazar archivo',
  replacing: 'Reemplazando el archivo…',
  cancel: authMessages.cancel,
  // Beside the dialog's own Cancelar: the name says which one it is.
  cancelLabel: `${authMessages.cancel} el reemplazo`,
  replaced: 'Archivo reemplazado',
  replacedNotice: (name: string) => `Archivo reemplazado por «${name}»`,
  // The server's refusals of PUT /api/videos/{id}/archivo.
  conflict: 'Esta subida ya no puede reemplazar el archivo (se ha usado o aún no está lista). Cancele y elija el archivo de nuevo.',
  invalidMedia: 'El servidor no ha podido procesar el archivo: no es un video válido. Cancele y elija otro archivo.',
  gone: 'El video ya no existe.',
  failed: 'No se ha podido reemplazar el archivo. Inténtelo de nuevo.',
} as const;

/**
 * 'Administrar etiquetas' (R-TAG-1, R-TAG-2 tag rules, R-TAG-1 the
 * list's load failure); the spec quotes only the rules' messages and the load failure, the rest
 * follow the video dialogs' wording (R-SEC-5).
 */
export const tagAdminMessages = {
  listTitle: 'Administrar etiquetas',
  listLoadFailed: 'Error al recuperar la lista de etiquetas',
  loading: 'Cargando las etiquetas…',
  empty: 'No hay etiquetas',
  retry: 'Reintentar',
  create: 'Nueva etiqueta',
  createTitle: 'Nueva etiqueta',
  editTitle: 'Editar etiqueta',
  nombre: 'Nombre',
  editOf: (nombre: string) => `Editar ${nombre}`,
  deleteOf: (nombre: string) => `Eliminar ${nombre}`,
  deleteTitle: 'Eliminar etiqueta',
  deleteQuestion: (nombre: string) => `¿Seguro que desea eliminar la etiqueta «${nombre}»? Se quitará de todos sus videos.`,
  duplicate: 'Ya existe una etiqueta con ese nombre',
  save: 'Guardar',
  delete: 'Eliminar',
  cancel: authMessages.cancel,
  created: 'La etiqueta se ha creado correctamente',
  modified: 'La etiqueta se ha modificado correctamente',
  saveFailed: 'No se ha podido guardar la etiqueta',
  deleted: 'La etiqueta se ha eliminado con éxito',
  deleteFailed: 'Ha ocurrido un error tratando de eliminar la etiqueta',
} as const;

/** 'Administrar usuarios': the user list, roles, invitations (R-USR-1, R-USR-2; R-SEC-5). */
export const userAdminMessages = {
  title: 'Administrar usuarios',
  loadFailed: 'Error al recuperar la lista de usuarios',
  loading: 'Cargando usuarios…',
  usersHeading: 'Usuarios',
  noUsers: 'No hay usuarios',
  roleAdmin: 'Administrador',
  roleUser: 'Usuario',
  blocked: 'Bloqueado',
  organisation: (organizacion: string | null) => `Organización: ${organizacion ?? 'ninguna'}`,
  secondFactor: (state: string) =>
    `Segundo factor: ${state === 'OTP_ACTIVED' ? 'activado' : state === 'OTP_REQUIRED' ? 'pendiente de activar' : 'desactivado'}`,
  lastLogin: (when: string | null) => `Último acceso: ${when ?? 'nunca'}`,
  you: '(usted)',
  promote: 'Hacer administrador',
  downgrade: 'Quitar administrador',
  promoteOf: (nombre: string) => `Hacer administrador a ${nombre}`,
  downgradeOf: (nombre: string) => `Quitar administrador a ${nombre}`,
  promoteTitle: 'Hacer administrador',
  downgradeTitle: 'Quitar administrador',
  promoteQuestion: (nombre: string) => `¿Seguro que desea que «${nombre}» sea administrador?`,
  downgradeQuestion: (nombre: string) => `¿Seguro que desea que «${nombre}» deje de ser administrador y pase a ser usuario?`,
  roleChanged: (nombre: string) => `Se ha cambiado el rol de ${nombre}`,
  roleChangeFailed: 'No se ha podido cambiar el rol',
  selfDemotion: 'No puede quitarse a sí mismo el rol de administrador',
  lastAdmin: 'No se puede quitar el rol al último administrador',
  newUser: 'Nuevo usuario',
  inviteTitle: 'Nuevo usuario',
  email: 'Correo electrónico',
  inviteHelp: 'Se creará una invitación para registrarse con esta dirección.',
  invite: 'Crear invitación',
  inviteFailed: 'No se ha podido crear la invitación',
  invalidEmail: 'La dirección de correo electrónico no es válida',
  linkTitle: 'Enlace de invitación',
  linkFor: (email: string) => `Invitación para ${email}. Envíe este enlace a la persona invitada:`,
  link: 'Enlace de invitación',
  emailed: 'Enviada por correo electrónico',
  emailFailed: 'No se ha podido enviar por correo electrónico: copie el enlace y envíelo usted.',
  expires: (when: string) => `Caduca el ${when}`,
  copy: 'Copiar enlace',
  copied: 'Copiado',
  invitationsHeading: 'Invitaciones pendientes',
  noInvitations: 'No hay invitaciones pendientes',
  invitationsFailed: 'No se ha podido recuperar la lista de invitaciones',
  invitationRole: (rol: string) => (rol === 'admin' ? 'Administrador' : 'Usuario'),
  revoke: 'Revocar',
  revokeOf: (email: string) => `Revocar la invitación de ${email}`,
  revokeTitle: 'Revocar invitación',
  revokeQuestion: (email: string) => `¿Seguro que desea revocar la invitación de ${email}?`,
  revoked: 'La invitación se ha revocado',
  revokeFailed: 'No se ha podido revocar la invitación',
  cancel: authMessages.cancel,
  confirm: 'Confirmar',
} as const;

/**
 * The statistics dashboard (R-STAT-2): a read that failed, on the page and as the
 * export's toast; its refresh button.
 */
export const statisticsMessages = {
  loadFailed: 'Error al obtener los datos',
  reload: dialogMessages.reload,
} as const;

/** The video page's player controls (R-VID-10 … R-VID-19). */
export const playerMessages = {
  play: 'Reproducir',
  pause: 'Pausar',
  seek: 'Posición',
  /** The seek bar's aria-valuetext: "1:23 de 4:56". */
  position: (at: string, total: string) => `${at} de ${total}`,
  volume: 'Volumen',
  mute: 'Silenciar',
  unmute: 'Activar sonido',
  quality: 'Calidad',
  qualityAuto: 'Automática',
  height: (pixels: number) => `${pixels}p`,
  speed: 'Velocidad',
  speedNormal: 'Normal',
  pictureInPicture: 'Imagen en imagen',
  fullscreen: 'Pantalla completa',
  exitFullscreen: 'Salir de pantalla completa',
  shortcuts: 'Atajos de teclado',
  failed: 'No se ha podido reproducir el video',
  retry: 'Reintentar',
  buffering: 'Cargando…',
  shortcutPlay: 'Reproducir o pausar',
  shortcutBack10: 'Retroceder 10 segundos',
  shortcutForward10: 'Avanzar 10 segundos',
  shortcutBack5: 'Retroceder 5 segundos',
  shortcutForward5: 'Avanzar 5 segundos',
  shortcutFullscreen: 'Pantalla completa',
  shortcutMute: 'Silenciar o activar el sonido',
  shortcutCaptions: 'Mostrar u ocultar los subtítulos',
  shortcutHelp: 'Mostrar los atajos de teclado',
  keySpace: 'Espacio',
  /** R-VID-20: the captions menu, and its choice of none. */
  subtitles: 'Subtítulos',
  subtitlesOff: 'Desactivados',
  /** R-VID-26: the seek bar's aria-valuetext inside a chapter: "1:23 de 4:56, Introducción". */
  positionInChapter: (at: string, total: string, chapter: string) => `${at} de ${total}, ${chapter}`,
  /** R-VID-32: while hls.js moves to the chosen height: "Cambiando a 720p" (the status, and the 'Calidad' button's name). */
  qualitySwitching: (pixels: number) => `Cambiando a ${pixels}p`,
  /** Beside the chosen height in the open 'Calidad' menu, meanwhile. */
  qualitySwitchingShort: 'Cambiando…',
} as const;

/** R-VID-22 … R-VID-29: the transcript, the chapters and the shared moment of a video's page. */
export const transcriptMessages = {
  title: 'Transcripción',
  chapters: 'Capítulos',
  language: 'Idioma de la transcripción',
  search: 'Buscar en la transcripción',
  loading: 'Cargando la transcripción…',
  noMatches: (query: string) => `Ninguna frase contiene «${query}»`,
  matches: (count: number) => (count === 1 ? '1 frase' : `${count} frases`),
  downloadVtt: 'Descargar .vtt',
  downloadTxt: 'Descargar .txt',
  /** A timestamp of the description, as a button: "Ir a 12:34". */
  seekTo: (time: string) => `Ir a ${time}`,
  copyLink: 'Copiar enlace en este momento',
  linkCopied: 'Enlace copiado',
  linkNotCopied: 'No se ha podido copiar el enlace',
} as const;
