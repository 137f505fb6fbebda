import { http, server } from './msw.ts';

/** GET /api/videos/7 answers 'Reunión anual' (the detail page's own suite: src/features/videos/video-detail.test.tsx). */
export const serveVideo = () =>
  server.use(
    http.get('/api/videos/{id}', ({ response }) =>
      response(200).json({
        id: 7,
        idExterno: 'asset-7',
        titulo: 'Reunión anual',
        descripcion: null,
        descripcionCorta: 'Resumen',
        duracion: 60,
        puntuacionMedia: 0,
        puntuacion: null,
        favorito: false,
        visto: true,
        fechaAlta: '2026-03-05T12:00:00.000Z',
        urlThumbnail: null,
        urlPreview: null,
        urlHls: null,
        urlStoryboard: null,
        idiomasSubtitulos: [],
        capitulos: [],
        urlVideo: '/api/media/asset-7/video.mp4?expires=1&signature=v',
        etiquetas: [],
        isVisible: true,
        organizacionId: null,
        nombreUsuarioAlta: 'admin',
        posicion: null,
      }),
    ),
  );
