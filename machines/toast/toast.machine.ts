import { not, setup } from 'xstate';
import type { ToastContext, ToastEvent, ToastInput, ToastTag } from './toast.types.ts';

/** R-GEN-7: a toast closes after 3 s. */
export const TOAST_DURATION_MS = 3000;
/** Length of the fade-out before the toast leaves the screen. */
export const TOAST_FADE_DURATION_MS = 200;

/**
 * One toast: shown → (paused while hovered) → closing (fade-out) → closed.
 *
 * Pausing RESTARTS the timer: leaving the toast gives the user the full `toastDuration`
 * again (as Mantine's own notifications do), instead of resuming the remainder, so a
 * message the user was reading never disappears a moment after the pointer leaves it.
 *
 * The timers are `after` transitions on named delays: leaving 'shown' (pointer, close) cancels
 * the close timer. Tests shorten them with `.provide({ delays: { toastDuration, toastFadeDuration } })`,
 * and the model-based test takes each elapsed delay as the explicit event `xstate.after.<delay>`.
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
      meta: { qa: 'Aviso en pantalla' },
      tags: ['visible'],
      after: {
        toastDuration: { guard: not('isPersistent'), target: 'closing' },
      },
      on: {
        'toast.pointer.enter': { target: 'paused' },
        'toast.close': { target: 'closing' },
      },
    },
    paused: {
      description: 'The pointer is over the toast: no timer runs until it leaves.',
      meta: { qa: 'Aviso con el puntero encima' },
      tags: ['visible'],
      on: {
        'toast.pointer.leave': { target: 'shown' },
        'toast.close': { target: 'closing' },
      },
    },
    closing: {
      description: 'Fading out; it leaves the screen when the fade is done.',
      meta: { qa: 'Aviso desvaneciéndose' },
      tags: ['visible', 'fading'],
      after: {
        toastFadeDuration: { target: 'closed' },
      },
    },
    closed: {
      description: 'Gone from the screen; the toast store drops the actor.',
      meta: { qa: 'Aviso cerrado' },
      type: 'final',
    },
  },
});
