import { assign, fromPromise, setup } from 'xstate';
import type {
  OpinionChange,
  RateVideoInput,
  SetFavoriteInput,
  Video,
  VideoOpinionContext,
  VideoOpinionEvent,
  VideoOpinionInput,
  VideoOpinionTag,
} from './video-opinion.types.ts';

/** R-VID-2: a rating goes from 1 to 5 stars. */
export const MIN_STARS = 1;
export const MAX_STARS = 5;

/**
 * The user's opinion of one video (R-VID-1, R-LIB-18, R-VID-2): the
 * rating and the favourite, each saved on its own (two regions), so rating never waits for the
 * heart nor the other way round. While a change is saved its control shows the new value and
 * takes no other change (tag 'busy'); the saved video's value then stays, a failure puts the
 * previous one back. Each outcome is told to the user by `notifySaved` / `notifyFailed` (the app
 * shows the R-VID-2 toasts); the writes themselves (`rateVideo`, `setFavorite`, which also update the
 * cached copies) come from the app (src/features/videos/video.actors.ts).
 */
export const videoOpinionMachine = setup({
  types: {} as {
    context: VideoOpinionContext;
    input: VideoOpinionInput;
    events: VideoOpinionEvent;
    tags: VideoOpinionTag;
  },
  actors: {
    rateVideo: fromPromise<Video, RateVideoInput>(async () => {
      throw new Error('rateVideo is supplied by the app with .provide()');
    }),
    setFavorite: fromPromise<Video, SetFavoriteInput>(async () => {
      throw new Error('setFavorite is supplied by the app with .provide()');
    }),
  },
  actions: {
    notifySaved: (_, _change: OpinionChange) => {
      throw new Error('notifySaved is supplied by the app with .provide()');
    },
    notifyFailed: (_, _change: OpinionChange) => {
      throw new Error('notifyFailed is supplied by the app with .provide()');
    },
  },
  guards: {
    isStars: ({ event }) =>
      event.type === 'opinion.rate' && Number.isInteger(event.stars) && event.stars >= MIN_STARS && event.stars <= MAX_STARS,
    isToggle: ({ context, event }) => event.type === 'opinion.favorite' && event.favorite !== context.favorite,
  },
}).createMachine({
  id: 'videoOpinion',
  description: "The signed-in user's rating and favourite of one video, each saved on its own.",
  context: ({ input }) => ({ ...input, pendingRating: null, pendingFavorite: null }),
  type: 'parallel',
  states: {
    rating: {
      description: 'The five stars of the own rating, with the average beside them.',
      meta: { qa: 'Puntuación' },
      initial: 'idle',
      states: {
        idle: {
          description: 'The stars show the saved rating (none lit when not rated yet); picking one saves it.',
          meta: { qa: 'Puntuación guardada' },
          on: {
            'opinion.rate': {
              guard: 'isStars',
              target: 'saving',
              actions: assign({ pendingRating: ({ event }) => event.stars }),
            },
          },
        },
        saving: {
          description: 'PATCH /puntuacion: the stars show the picked rating and cannot be changed.',
          meta: { qa: 'Guardando la puntuación' },
          tags: ['busy', 'savingRating'],
          invoke: {
            id: 'rateVideo',
            src: 'rateVideo',
            input: ({ context }) => ({ id: context.videoId, value: context.pendingRating ?? MIN_STARS }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'notifySaved', params: ({ event }) => ({ change: 'rating', value: event.output.puntuacion ?? MIN_STARS }) },
                assign({ rating: ({ event }) => event.output.puntuacion, pendingRating: null }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'notifyFailed', params: ({ context }) => ({ change: 'rating', value: context.pendingRating ?? MIN_STARS }) },
                assign({ pendingRating: null }),
              ],
            },
          },
        },
      },
    },
    favorite: {
      description: 'The favourite heart.',
      meta: { qa: 'Favorito' },
      initial: 'idle',
      states: {
        idle: {
          description: 'The heart shows whether the video is a favourite; pressing it saves the other value.',
          meta: { qa: 'Favorito guardado' },
          on: {
            'opinion.favorite': {
              guard: 'isToggle',
              target: 'saving',
              actions: assign({ pendingFavorite: ({ event }) => event.favorite }),
            },
          },
        },
        saving: {
          description: 'PATCH /favorito: the heart waits (spinner) and cannot be pressed.',
          meta: { qa: 'Guardando el favorito' },
          tags: ['busy', 'savingFavorite'],
          invoke: {
            id: 'setFavorite',
            src: 'setFavorite',
            input: ({ context }) => ({ id: context.videoId, value: context.pendingFavorite ?? !context.favorite }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'notifySaved', params: ({ event }) => ({ change: 'favorite', value: event.output.favorito }) },
                assign({ favorite: ({ event }) => event.output.favorito, pendingFavorite: null }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                {
                  type: 'notifyFailed',
                  params: ({ context }) => ({ change: 'favorite', value: context.pendingFavorite ?? !context.favorite }),
                },
                assign({ pendingFavorite: null }),
              ],
            },
          },
        },
      },
    },
  },
});
