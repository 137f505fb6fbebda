import { assign, setup } from 'xstate';
import type { ApplyQualityParams, PlaybackContext, PlaybackEvent, PlaybackInput, ReloadParams, SavePositionParams, SeekParams } from './playback.types.ts';

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
/**
 * R-VID-32: a quality switch that hls.js has not confirmed (LEVEL_SWITCHED) after this long counts
 * as done: the chosen level stays chosen, hls.js goes on fetching it (docs/decisions/0138-quality-switch-in-the-playback-machine.md).
 */
export const SWITCH_TIMEOUT_MS = 10_000;

/** Where a load goes back to: the saved position, or where the user was before a reload. */
const resumeAt = ({ context }: { context: PlaybackContext }): SeekParams => ({ seconds: context.resumeAt ?? 0 });
const startAt = ({ context }: { context: PlaybackContext }): SeekParams => ({ seconds: context.startAt ?? 0 });

const wholeSeconds = (seconds: number) => Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));

const chosenQuality = ({ context }: { context: PlaybackContext }): ApplyQualityParams => ({ level: context.quality });

/**
 * Resuming and saving the playback position of one video on the detail page.
 *
 * Once the media's metadata is known, the address's start second (`startAt`, `?t=`) is sought when
 * it lies inside the video, and then the saved position is not resumed; otherwise a saved position (`posicion`) above 0 and not within the last
 * `RESUME_END_MARGIN_S` seconds is resumed (`seek`). While the video plays, the position is saved
 * every `saveInterval` (when it moved); on pause it is saved; at the end 0 is saved, so the next
 * opening starts from the beginning; when the page goes away or is hidden ('page.leave') a moved
 * position is saved with a request that outlives the page. 'page.leave' changes no state: React's
 * development double mount and a tab that is hidden and shown again go on playing.
 *
 * Saving is fire-and-forget (`savePosition`, supplied by the app): a failed save changes nothing the
 * user sees, is logged, and the next save sends the position again. `seek` moves the media.
 *
 * R-VID-32: while ready, the quality is a region of its own beside the media's: a choice in
 * 'Calidad' is handed to hls.js (`applyQuality`) and is 'switching' until hls.js says the chosen
 * level plays, or `switchTimeout` passes; 'Automática', or the level already playing, is settled at
 * once. A choice made before the media is ready (or while it failed) is kept and applied on
 * entering ready, as it is again after every reload: hls.js is then a new instance.
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
    switchTimeout: SWITCH_TIMEOUT_MS,
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
    applyQuality: (_, _params: ApplyQualityParams) => {
      throw new Error('applyQuality is supplied by the app with .provide()');
    },
    chooseQuality: assign({ quality: ({ event, context }) => (event.type === 'quality.choose' ? event.level : context.quality) }),
    notePlayingLevel: assign({ playingLevel: ({ event, context }) => (event.type === 'media.levelSwitched' ? event.level : context.playingLevel) }),
    rememberSaved: assign({ savedPosition: ({ context }) => wholeSeconds(context.position) }),
    noteDuration: assign({ duration: ({ event }) => (event.type === 'media.loaded' ? event.duration : null) }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
  },
  guards: {
    // R-VID-28: any second inside the video (a shared moment may be near the end); 0 is the start.
    hasStart: ({ context, event }) =>
      event.type === 'media.loaded' && context.startAt !== null && context.startAt > 0 && Number.isFinite(event.duration) && context.startAt < event.duration,
    startsAtBeginning: ({ context }) => context.startAt === 0,
    canResume: ({ context, event }) => {
      if (event.type !== 'media.loaded' || context.resumeAt === null) return false;
      return Number.isFinite(event.duration) && context.resumeAt > 0 && context.resumeAt < event.duration - RESUME_END_MARGIN_S;
    },
    // A reload goes back to where the user was, even in the last seconds (only an opening starts over there).
    canReturn: ({ context, event }) => event.type === 'media.loaded' && context.resumeAt !== null && context.resumeAt > 0,
    positionMoved: ({ context }) => wholeSeconds(context.position) !== (context.savedPosition ?? 0),
    canRetry: ({ context, event }) => event.type === 'media.error' && event.network && context.attempts < MAX_RETRIES,
    qualityFixed: ({ context }) => context.quality !== -1,
    sameQuality: ({ context, event }) => event.type === 'quality.choose' && event.level === context.quality,
    // Nothing to wait for: hls.js picks by itself, or already plays that level (it would say nothing).
    settlesAtOnce: ({ context, event }) => event.type === 'quality.choose' && (event.level === -1 || event.level === context.playingLevel),
    reachesChoice: ({ context, event }) => event.type === 'media.levelSwitched' && event.level === context.quality,
  },
}).createMachine({
  id: 'playback',
  description: 'The player of the detail page: resumes the saved position and keeps it saved.',
  context: ({ input }) => ({
    videoId: input.videoId,
    resumeAt: input.posicion,
    startAt: input.startAt ?? null,
    duration: null,
    position: input.posicion ?? 0,
    savedPosition: input.posicion === null ? null : wholeSeconds(input.posicion),
    attempts: 0,
    quality: -1,
    playingLevel: null,
  }),
  initial: 'loading',
  on: {
    // Before the media is ready (or once it failed) a choice is only kept: entering ready applies it.
    'quality.choose': { actions: 'chooseQuality' },
    'media.levelSwitched': { actions: 'notePlayingLevel' },
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
            guard: 'hasStart',
            target: 'resuming',
            actions: ['noteDuration', { type: 'seek', params: startAt }, assign({ position: ({ context }) => context.startAt ?? 0, startAt: null })],
          },
          { guard: 'startsAtBeginning', target: 'ready', actions: ['noteDuration', assign({ position: 0, startAt: null })] },
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
            assign({ resumeAt: ({ context }) => context.position, playingLevel: null }),
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
            assign({ attempts: 0, resumeAt: ({ context }) => context.position, playingLevel: null }),
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
        'media.play': { target: 'ready.media.playing' },
      },
    },
    ready: {
      description: 'The media is where the user wants it: its positions are followed, and its quality can be chosen.',
      meta: { qa: 'Video listo' },
      type: 'parallel',
      on: {
        'media.time': { actions: assign({ position: ({ event }) => event.position }) },
        'media.error': [{ guard: 'canRetry', target: '#playback.retrying', actions: 'countAttempt' }, { target: '#playback.failed' }],
      },
      states: {
        media: {
          description: 'What the media does: paused, waiting for data, playing or at its end.',
          meta: { qa: 'Reproducción' },
          initial: 'paused',
          on: {
            // On this region, not on ready: a transition of ready's own would enter the quality region anew.
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
        quality: {
          description: "R-VID-32: the quality chosen in 'Calidad', and whether hls.js is still switching to it.",
          meta: { qa: 'Calidad' },
          initial: 'applying',
          states: {
            applying: {
              description: 'Entering ready: a fixed quality chosen earlier (or before a reload, whose hls.js is new) is applied again.',
              meta: { qa: 'Aplicando la calidad elegida' },
              always: [{ guard: 'qualityFixed', target: 'switching', actions: { type: 'applyQuality', params: chosenQuality } }, { target: 'settled' }],
            },
            settled: {
              description: "The quality shown in 'Calidad' is the one playing (or 'Automática').",
              meta: { qa: 'Calidad establecida' },
              on: {
                'quality.choose': [
                  // The quality already chosen: nothing to hand to hls.js (it would flush its buffer again).
                  { guard: 'sameQuality' },
                  { guard: 'settlesAtOnce', actions: ['chooseQuality', { type: 'applyQuality', params: chosenQuality }] },
                  { target: 'switching', actions: ['chooseQuality', { type: 'applyQuality', params: chosenQuality }] },
                ],
              },
            },
            switching: {
              description: "hls.js is moving to the chosen level: 'Calidad' says 'Cambiando a …' until the level plays, or switchTimeout passes.",
              meta: { qa: 'Cambiando de calidad' },
              after: { switchTimeout: { target: 'settled' } },
              on: {
                'media.levelSwitched': [{ guard: 'reachesChoice', target: 'settled', actions: 'notePlayingLevel' }, { actions: 'notePlayingLevel' }],
                'quality.choose': [
                  { guard: 'sameQuality' },
                  { guard: 'settlesAtOnce', target: 'settled', actions: ['chooseQuality', { type: 'applyQuality', params: chosenQuality }] },
                  { target: 'switching', reenter: true, actions: ['chooseQuality', { type: 'applyQuality', params: chosenQuality }] },
                ],
              },
            },
          },
        },
      },
    },
  },
});
