/**
 * The QA model of the video player (the detail page): the media's events as the <video> element
 * reports them, leaving the page, and the saving interval, from a saved position to resume, none,
 * and one too near the end. Shared by playback.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, type AfterEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { playbackMachine, RESUME_END_MARGIN_S } from './playback.machine.ts';
import type { PlaybackEvent } from './playback.types.ts';

export const VIDEO_ID = 7;
export const DURATION = 600;

export type PlaybackSnapshot = SnapshotFrom<typeof playbackMachine>;
export type PlaybackModelEvent = PlaybackEvent | AfterEvent<'saveInterval'> | AfterEvent<'retryDelay'> | AfterEvent<'stallTimeout'>;

const events: PlaybackModelEvent[] = [
  { type: 'media.loaded', duration: DURATION },
  { type: 'media.seeked' },
  { type: 'media.play' },
  { type: 'media.time', position: 125.6 },
  { type: 'media.time', position: 300.2 },
  { type: 'media.pause', position: 301.9 },
  { type: 'media.ended' },
  { type: 'page.leave' },
  { type: 'media.waiting' },
  { type: 'media.error', network: true },
  { type: 'media.error', network: false },
  { type: 'retry' },
];

/** The saved positions the page opens with: one to resume, none, and one too near the end to resume. */
export const variants = [
  { name: 'saved at 2:00', description: 'un video visto hasta el minuto 2:00', posicion: 120, resumes: true },
  { name: 'never played', description: 'un video que el usuario no ha visto', posicion: null, resumes: false },
  {
    name: `saved in the last ${RESUME_END_MARGIN_S} s`,
    description: `un video visto hasta sus últimos ${RESUME_END_MARGIN_S} s`,
    posicion: DURATION - RESUME_END_MARGIN_S + 2,
    resumes: false,
  },
];

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

export const playbackModel = defineQaModel({
  name: 'playback',
  title: 'El reproductor de un video (retomar y guardar la posición)',
  machine: playbackMachine,
  events,
  variants: variants.map(({ name, description, posicion }) => ({ name, description, input: { videoId: VIDEO_ID, posicion } })),
  // The media reports a time only once it moved there; a position it already has is no news.
  // A failure is tried where it teaches something: while loading, reloading and playing (the
  // retries' count, not every position, decides what follows).
  filterEvents: (snapshot, event) => {
    if (event.type === 'media.error') {
      if (snapshot.matches({ ready: 'playing' })) return event.network && snapshot.context.attempts === 0;
      if (snapshot.matches({ ready: 'paused' })) return !event.network && snapshot.context.attempts === 0;
      return snapshot.matches('loading') || snapshot.matches('reloading');
    }
    if (snapshot.context.attempts > 0 && (event.type === 'media.time' || event.type === 'page.leave')) return false;
    return event.type !== 'media.time' || Math.abs(snapshot.context.position - event.position) > 1;
  },
  eventDescriptions: {
    'media.loaded': ({ duration }) => `el video carga sus datos (dura ${clock(duration)})`,
    'media.seeked': 'el video llega a la posición guardada',
    'media.play': 'el usuario pulsa reproducir',
    'media.time': ({ position }) => `el video avanza hasta ${clock(position)}`,
    'media.pause': ({ position }) => `el usuario pausa en ${clock(position)}`,
    'media.ended': 'el video llega al final',
    'page.leave': 'el usuario sale de la página (o la oculta)',
    'xstate.after.saveInterval': 'pasa el intervalo de guardado',
    'media.waiting': 'el video se queda sin datos mientras se reproduce',
    'media.error': ({ network }) => (network ? 'la red falla al cargar el video' : 'el video no se puede descodificar'),
    retry: 'el usuario pulsa «Reintentar»',
    'xstate.after.retryDelay': 'pasa la espera antes de reintentar',
    'xstate.after.stallTimeout': 'pasan 20 s sin datos mientras se reproduce',
  } satisfies EventDescriptions<PlaybackModelEvent>,
});
