import { assign, setup } from 'xstate';
import type { PlaybackContext, PlaybackEvent, PlaybackInput, ReloadParams, SavePositionParams, SeekParams } from './playback.types.ts';

/** While the video plays its position is saved this often. */
export const SAVE_INTERVAL_MS = 5000;
/**
 * A saved position within this many seconds of the end is not resumed: the user had finished the
 * video (or nearly), so it starts again from the beginning.
 */
export const RESUME_END_MARGIN_S = 5;

/** R-VID-16: a network failure is retried this many times, after 1 s, 2 s, 4 s. */
export const MAX_RETRIES = 3;
export const RETRY_BASE_MS = 1000;
/**
 * Playing but without data for this long counts as a network failure (R-VID-16): hls.js, with lower
 * renditions to fall back on, may go on failing without ever reporting a fatal error.
 */
export const STALL_MS = 20_000;

/** Where a load goes back to: the saved position, or where the user was before a reload. */
const resumeAt = ({ context }: { context: PlaybackContext }): SeekParams => ({ seconds: context.resumeAt ?? 0 });

const wholeSeconds = (seconds: number) => Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));

/**
 * Resuming and saving the playback position of one video on the detail page.
 *
 * Once the media's metadata is known, a saved position (`posicion`) above 0 and not within the last
 * `RESUME_END_MARGIN_S` seconds is resumed (`seek`). While the video plays, the position is saved
 * every `saveInterval` (when it moved); on pause it is saved; at the end 0 is saved, so the next
 * opening starts from the beginning; when the page goes away or is hidden ('page.leave') a moved
 * position is saved with a request that outlives the page. 'page.leave' changes no state: React's
 * development double mount and a tab that is hidden and shown again go on playing.
 *
 * Saving is fire-and-forget (`savePosition`, supplied by the app): a failed save changes nothing the
 * user sees, is logged, and the next save sends the position again. `seek` moves the media.
 */
export const playbackMachine = setup({
  types: {} as {
    context: PlaybackContext;
    input: PlaybackInput;
    events: PlaybackEvent;
  },
  delays: {
    saveInterval: SAVE_INTERVAL_MS,
    retryDelay: ({ context }) => RETRY_BASE_MS * 2 ** Math.max(0, context.attempts - 1),
    stallTimeout: STALL_MS,
  },
  actions: {
    seek: (_, _params: SeekParams) => {
      throw new Error('seek is supplied by the app with .provide()');
    },
    savePosition: (_, _params: SavePositionParams) => {
      throw new Error('savePosition is supplied by the app with .provide()');
    },
    reload: (_, _params: ReloadParams) => {
      throw new Error('reload is supplied by the app with .provide()');
    },
    rememberSaved: assign({ savedPosition: ({ context }) => wholeSeconds(context.position) }),
    noteDuration: assign({ duration: ({ event }) => (event.type === 'media.loaded' ? event.duration : null) }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
  },
  guards: {
    canResume: ({ context, event }) => {
      if (event.type !== 'media.loaded' || context.resumeAt === null) return false;
      return Number.isFinite(event.duration) && context.resumeAt > 0 && context.resumeAt < event.duration - RESUME_END_MARGIN_S;
    },
    // A reload goes back to where the user was, even in the last seconds (only an opening starts over there).
    canReturn: ({ context, event }) => event.type === 'media.loaded' && context.resumeAt !== null && context.resumeAt > 0,
    positionMoved: ({ context }) => wholeSeconds(context.position) !== (context.savedPosition ?? 0),
    canRetry: ({ context, event }) => event.type === 'media.error' && event.network && context.attempts < MAX_RETRIES,
  },
}).createMachine({
  id: 'playback',
  description: 'The player of the detail page: resumes the saved position and keeps it saved.',
  context: ({ input }) => ({
    videoId: input.videoId,
    resumeAt: input.posicion,
    duration: null,
    position: input.posicion ?? 0,
    savedPosition: input.posicion === null ? null : wholeSeconds(input.posicion),
    attempts: 0,
  }),
  initial: 'loading',
  on: {
    'page.leave': {
      guard: 'positionMoved',
      actions: [
        { type: 'savePosition', params: ({ context }) => ({ id: context.videoId, seconds: wholeSeconds(context.position), leaving: true }) },
        'rememberSaved',
      ],
    },
  },
  states: {
    loading: {
      description: "Waiting for the media's metadata (its duration): the poster shows; nothing to save yet.",
      meta: { qa: 'Cargando el video' },
      on: {
        'media.loaded': [
          {
            guard: 'canResume',
            target: 'resuming',
            actions: ['noteDuration', { type: 'seek', params: resumeAt }],
          },
          { target: 'ready', actions: 'noteDuration' },
        ],
        'media.error': [{ guard: 'canRetry', target: '#playback.retrying', actions: 'countAttempt' }, { target: '#playback.failed' }],
      },
    },
    retrying: {
      description: 'A network error: the media is loaded again after a growing delay (1 s, 2 s, 4 s).',
      meta: { qa: 'Reintentando la carga' },
      after: {
        retryDelay: {
          target: 'reloading',
          actions: [
            assign({ resumeAt: ({ context }) => context.position }),
            { type: 'reload', params: ({ context }) => ({ seconds: context.position }) },
          ],
        },
      },
    },
    reloading: {
      description: 'Loading the media again: once its metadata is known it goes back to where the user was.',
      meta: { qa: 'Recargando el video' },
      on: {
        'media.loaded': [
          {
            guard: 'canReturn',
            target: 'ready',
            actions: ['noteDuration', { type: 'seek', params: resumeAt }],
          },
          { target: 'ready', actions: 'noteDuration' },
        ],
        'media.error': [{ guard: 'canRetry', target: '#playback.retrying', actions: 'countAttempt' }, { target: '#playback.failed' }],
      },
    },
    failed: {
      description: "The media could not be played (retries spent, or not a network error): 'Reintentar' starts again.",
      meta: { qa: 'No se ha podido reproducir' },
      on: {
        retry: {
          target: 'reloading',
          actions: [
            assign({ attempts: 0, resumeAt: ({ context }) => context.position }),
            { type: 'reload', params: ({ context }) => ({ seconds: context.position }) },
          ],
        },
      },
    },
    resuming: {
      description: 'Moving to the saved position: the media reports positions on the way, which are not kept.',
      meta: { qa: 'Yendo a la posición guardada' },
      on: {
        'media.seeked': { target: 'ready' },
        'media.play': { target: 'ready.playing' },
      },
    },
    ready: {
      description: 'The media is where the user wants it: its positions are followed.',
      meta: { qa: 'Video listo' },
      initial: 'paused',
      on: {
        'media.time': { actions: assign({ position: ({ event }) => event.position }) },
        'media.error': [{ guard: 'canRetry', target: '#playback.retrying', actions: 'countAttempt' }, { target: '#playback.failed' }],
        'media.ended': {
          target: '.ended',
          actions: [
            { type: 'savePosition', params: ({ context }) => ({ id: context.videoId, seconds: 0, leaving: false }) },
            assign({ position: 0, savedPosition: 0 }),
          ],
        },
      },
      states: {
        paused: {
          description: 'Not playing (before the first play, or paused by the user).',
          meta: { qa: 'En pausa' },
          on: { 'media.play': { target: 'playing' } },
        },
        buffering: {
          description: 'Playing, but the media waits for data (waiting, stalled): a spinner shows; too long is a network failure.',
          meta: { qa: 'Cargando datos' },
          // Entered from playing only, whose entry spent no attempt: the first retry follows.
          after: { stallTimeout: { target: '#playback.retrying', actions: 'countAttempt' } },
          on: {
            'media.play': { target: 'playing' },
            'media.pause': {
              target: 'paused',
              actions: [
                assign({ position: ({ event }) => event.position }),
                {
                  type: 'savePosition',
                  params: ({ context }) => ({ id: context.videoId, seconds: wholeSeconds(context.position), leaving: false }),
                },
                'rememberSaved',
              ],
            },
          },
        },
        playing: {
          description: 'Playing: the position is saved every saveInterval when it moved.',
          meta: { qa: 'Reproduciendo' },
          after: {
            saveInterval: [
              {
                guard: 'positionMoved',
                target: 'playing',
                reenter: true,
                actions: [
                  {
                    type: 'savePosition',
                    params: ({ context }) => ({ id: context.videoId, seconds: wholeSeconds(context.position), leaving: false }),
                  },
                  'rememberSaved',
                ],
              },
              { target: 'playing', reenter: true },
            ],
          },
          entry: assign({ attempts: 0 }),
          on: {
            'media.waiting': { target: 'buffering' },
            'media.pause': {
              target: 'paused',
              actions: [
                assign({ position: ({ event }) => event.position }),
                {
                  type: 'savePosition',
                  params: ({ context }) => ({ id: context.videoId, seconds: wholeSeconds(context.position), leaving: false }),
                },
                'rememberSaved',
              ],
            },
          },
        },
        ended: {
          description: 'Played to the end: 0 is saved, so the next opening starts from the beginning.',
          meta: { qa: 'Visto hasta el final' },
          on: { 'media.play': { target: 'playing' } },
        },
      },
    },
  },
});
