/**
 * The QA model of the video player (the detail page): the media's events as the <video> element
 * reports them, leaving the page, and the saving interval, from a saved position to resume, none,
 * and one too near the end; and, on the video never played (streamed through hls.js), the choices
 * of 'Calidad' with hls.js's answers. Shared by playback.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, type AfterEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { playbackMachine, RESUME_END_MARGIN_S } from './playback.machine.ts';
import type { PlaybackEvent } from './playback.types.ts';

export const VIDEO_ID = 7;
export const DURATION = 600;
/** R-VID-32: hls.js's levels in the model, by index (as the e2e clip's ladder): 240p, 360p, 480p. */
export const LEVEL_HEIGHTS = [240, 360, 480] as const;

export type PlaybackSnapshot = SnapshotFrom<typeof playbackMachine>;
export type PlaybackModelEvent =
  | PlaybackEvent
  | AfterEvent<'saveInterval'>
  | AfterEvent<'retryDelay'>
  | AfterEvent<'stallTimeout'>
  | AfterEvent<'switchTimeout'>;

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
  { type: 'quality.choose', level: 2 },
  { type: 'quality.choose', level: 0 },
  { type: 'quality.choose', level: -1 },
  // hls.js starts on the lowest level (ADR 0106), and reports the chosen one once it plays.
  { type: 'media.levelSwitched', level: 0 },
  { type: 'media.levelSwitched', level: 2 },
];

/**
 * The saved positions the page opens with: one to resume, none, and one too near the end to resume;
 * and an address's `?t=` over a saved position.
 */
export const variants = [
  { name: 'saved at 2:00', description: 'un video visto hasta el minuto 2:00', posicion: 120, resumes: true },
  // R-VID-32: streamed through hls.js, so 'Calidad' is there (the others play the MP4).
  { name: 'never played', description: 'un video adaptativo (HLS) que el usuario no ha visto', posicion: null, resumes: false, adaptive: true },
  {
    name: `saved in the last ${RESUME_END_MARGIN_S} s`,
    description: `un video visto hasta sus últimos ${RESUME_END_MARGIN_S} s`,
    posicion: DURATION - RESUME_END_MARGIN_S + 2,
    resumes: false,
  },
  // R-VID-28: the address's second wins over the saved position, the start (0) included.
  { name: 'opened at ?t=300', description: 'un enlace al minuto 5:00 de un video visto hasta el 2:00', posicion: 120, startAt: 300, resumes: true },
  { name: 'opened at ?t=0', description: 'un enlace al principio de un video visto hasta el 2:00', posicion: 120, startAt: 0, resumes: false },
] as Array<{ name: string; description: string; posicion: number | null; startAt?: number; resumes: boolean; adaptive?: boolean }>;

/** R-VID-32: the quality is tried on the video never played, before any reload (resumeAt null): the saved position plays no part in it. */
const triesQuality = (snapshot: PlaybackSnapshot) => snapshot.context.resumeAt === null;
/** A quality was chosen or reported: from here on only what the quality teaches is tried (a failure, 'Reintentar'). */
const qualityTouched = (snapshot: PlaybackSnapshot) =>
  snapshot.context.quality !== -1 || snapshot.context.playingLevel !== null || snapshot.matches({ ready: { quality: 'switching' } });
const QUALITY_EVENTS = new Set(['quality.choose', 'media.levelSwitched', 'xstate.after.switchTimeout']);
/** What may still happen once the quality was touched: the failure and the reload it leads to. */
const AFTER_QUALITY = new Set([...QUALITY_EVENTS, 'media.error', 'retry', 'media.loaded', 'xstate.after.retryDelay']);

const levelName = (level: number) => (level === -1 ? 'Automática' : `${LEVEL_HEIGHTS[level]}p`);

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

export const playbackModel = defineQaModel({
  name: 'playback',
  title: 'El reproductor de un video (retomar y guardar la posición)',
  machine: playbackMachine,
  events,
  variants: variants.map(({ name, description, posicion, startAt }) => ({ name, description, input: { videoId: VIDEO_ID, posicion, startAt: startAt ?? null } })),
  // The media reports a time only once it moved there; a position it already has is no news.
  // A failure is tried where it teaches something: while loading, reloading and playing (the
  // retries' count, not every position, decides what follows).
  // The quality is chosen while paused (no timer of the media's runs meanwhile) or once it failed.
  filterEvents: (snapshot, event) => {
    if (QUALITY_EVENTS.has(event.type)) {
      if (!triesQuality(snapshot)) return false;
      if (snapshot.matches({ ready: { media: 'paused' } })) return true;
      return event.type === 'quality.choose' && snapshot.matches('failed');
    }
    if (qualityTouched(snapshot) && !AFTER_QUALITY.has(event.type)) return false;
    if (event.type === 'media.error') {
      if (snapshot.matches({ ready: { media: 'playing' } })) return event.network && snapshot.context.attempts === 0;
      if (snapshot.matches({ ready: { media: 'paused' } })) return !event.network && snapshot.context.attempts === 0;
      return snapshot.matches('loading') || snapshot.matches('reloading');
    }
    if (snapshot.context.attempts > 0 && (event.type === 'media.time' || event.type === 'page.leave')) return false;
    return event.type !== 'media.time' || Math.abs(snapshot.context.position - event.position) > 1;
  },
  eventDescriptions: {
    'media.loaded': ({ duration }) => `el video carga sus datos (dura ${clock(duration)})`,
    'media.seeked': 'el video llega a la posición pedida',
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
    'quality.choose': ({ level }) => `el usuario elige «${levelName(level)}» en «Calidad»`,
    'media.levelSwitched': ({ level }) => `hls.js pasa a reproducir ${levelName(level)}`,
    'xstate.after.switchTimeout': 'pasan 10 s sin que hls.js confirme el cambio de calidad',
  } satisfies EventDescriptions<PlaybackModelEvent>,
});
