import { cancel, not, raise, setup } from 'xstate';
import type { ToastContext, ToastEvent, ToastInput, ToastTag } from './toast.types.ts';

/** SPEC.md §4/§9: a toast closes after 3 s. */
export const TOAST_DURATION_MS = 3000;
/** Length of the fade-out before the toast leaves the screen. */
export const TOAST_FADE_DURATION_MS = 200;

const TIMER_ID = 'toastTimer';

/**
 * One toast: shown → (paused while hovered) → closing (fade-out) → closed.
 *
 * Pausing RESTARTS the timer: leaving the toast gives the user the full `toastDuration`
 * again (as Mantine's own notifications do), instead of resuming the remainder, so a
 * message the user was reading never disappears a moment after the pointer leaves it.
 *
 * The delays are scheduled with a delayed `raise` of a named event rather than `after`,
 * so the elapsed time is an explicit, testable step in the model-based test
 * (`xstate/graph` refuses `after` transitions). Tests shorten them with
 * `.provide({ delays: { toastDuration, toastFadeDuration } })`.
 */
export const toastMachine = setup({
  types: {} as {
    context: ToastContext;
    input: ToastInput;
    events: ToastEvent;
    tags: ToastTag;
  },
  delays: {
    toastDuration: TOAST_DURATION_MS,
    toastFadeDuration: TOAST_FADE_DURATION_MS,
  },
  guards: {
    isPersistent: ({ context }) => context.persistent,
  },
  actions: {
    startTimer: raise({ type: 'toast.timer.elapsed' }, { id: TIMER_ID, delay: 'toastDuration' }),
    stopTimer: cancel(TIMER_ID),
    startFade: raise({ type: 'toast.fade.done' }, { delay: 'toastFadeDuration' }),
  },
}).createMachine({
  id: 'toast',
  description: 'A success or error message that closes by itself after a while (unless persistent).',
  context: ({ input }) => ({
    kind: input.kind,
    message: input.message,
    persistent: input.persistent ?? false,
  }),
  initial: 'shown',
  states: {
    shown: {
      description: 'On screen with the close timer running (a persistent toast ignores the timer).',
      tags: ['visible'],
      entry: 'startTimer',
      exit: 'stopTimer',
      on: {
        'toast.pointer.enter': { target: 'paused' },
        'toast.close': { target: 'closing' },
        'toast.timer.elapsed': { guard: not('isPersistent'), target: 'closing' },
      },
    },
    paused: {
      description: 'The pointer is over the toast: no timer runs until it leaves.',
      tags: ['visible'],
      on: {
        'toast.pointer.leave': { target: 'shown' },
        'toast.close': { target: 'closing' },
      },
    },
    closing: {
      description: 'Fading out; it leaves the screen when the fade is done.',
      tags: ['visible', 'fading'],
      entry: 'startFade',
      on: {
        'toast.fade.done': { target: 'closed' },
      },
    },
    closed: {
      description: 'Gone from the screen; the toast store drops the actor.',
      type: 'final',
    },
  },
});
