/**
 * The QA model of a video's own rating and favourite (the detail page, R-VID-1, R-LIB-18): both
 * controls saved independently, every answer of the two writes. Shared by video-opinion.test.tsx
 * and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, failureSentence, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { videoOpinionMachine } from './video-opinion.machine.ts';
import type { Video, VideoOpinionEvent } from './video-opinion.types.ts';

export const VIDEO: Video = {
  id: 7,
  idExterno: 'asset-7',
  titulo: 'Reunión anual',
  descripcion: null,
  descripcionCorta: 'Resumen de la reunión',
  duracion: 600,
  puntuacionMedia: 3,
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
  urlVideo: '/api/media/asset-7/video.mp4?expires=1&signature=s',
  etiquetas: [],
  isVisible: true,
  organizacionId: null,
  nombreUsuarioAlta: 'admin',
  posicion: null,
};
export const answer = (fields: Partial<Video>): Video => ({ ...VIDEO, ...fields });

export type VideoOpinionSnapshot = SnapshotFrom<typeof videoOpinionMachine>;
export type VideoOpinionModelEvent =
  | VideoOpinionEvent
  | DoneEvent<'rateVideo', Video>
  | ErrorEvent<'rateVideo'>
  | DoneEvent<'setFavorite', Video>
  | ErrorEvent<'setFavorite'>;

const NETWORK_ERROR = { status: 0, type: 'network-error' };
export const SERVER_ERROR = { status: 500, type: 'internal-server-error' };

const events: VideoOpinionModelEvent[] = [
  { type: 'opinion.rate', stars: 4 },
  { type: 'opinion.rate', stars: 1 },
  { type: 'opinion.favorite', favorite: true },
  { type: 'opinion.favorite', favorite: false },
  { type: 'xstate.done.actor.rateVideo', output: answer({ puntuacion: 4, puntuacionMedia: 3.5 }) },
  { type: 'xstate.done.actor.rateVideo', output: answer({ puntuacion: 1, puntuacionMedia: 2 }) },
  { type: 'xstate.error.actor.rateVideo', error: SERVER_ERROR },
  { type: 'xstate.done.actor.setFavorite', output: answer({ favorito: true }) },
  { type: 'xstate.done.actor.setFavorite', output: answer({ favorito: false }) },
  // One failure kind per direction, so that each failure text is a listed event the paths must take.
  { type: 'xstate.error.actor.setFavorite', error: NETWORK_ERROR },
  { type: 'xstate.error.actor.setFavorite', error: SERVER_ERROR },
];

export const videoOpinionModel = defineQaModel({
  name: 'video-opinion',
  title: 'La puntuación y el favorito de un video (su página de detalle)',
  machine: videoOpinionMachine,
  events,
  input: { videoId: VIDEO.id, rating: VIDEO.puntuacion, favorite: VIDEO.favorito },
  // The server answers the change that was asked for; the network fails adding, the server removing.
  filterEvents: (snapshot, event) => {
    const { pendingRating, pendingFavorite } = snapshot.context;
    if (event.type === 'xstate.done.actor.rateVideo') return event.output.puntuacion === pendingRating;
    if (event.type === 'xstate.done.actor.setFavorite') return event.output.favorito === pendingFavorite;
    if (event.type === 'xstate.error.actor.setFavorite') return (event.error === NETWORK_ERROR) === (pendingFavorite === true);
    return true;
  },
  eventDescriptions: {
    'opinion.rate': ({ stars }) => `el usuario elige ${stars === 1 ? '1 estrella' : `${stars} estrellas`}`,
    'opinion.favorite': ({ favorite }) => (favorite ? 'el usuario marca el corazón (favorito)' : 'el usuario desmarca el corazón'),
    'xstate.done.actor.rateVideo': ({ output }) => `el servidor guarda la puntuación (${String(output.puntuacion)})`,
    'xstate.error.actor.rateVideo': ({ error }) => `al guardar la puntuación, ${failureSentence(error)}`,
    'xstate.done.actor.setFavorite': ({ output }) => (output.favorito ? 'el servidor añade el video a favoritos' : 'el servidor quita el video de favoritos'),
    'xstate.error.actor.setFavorite': ({ error }) => `al guardar el favorito, ${failureSentence(error)}`,
  } satisfies EventDescriptions<VideoOpinionModelEvent>,
});
