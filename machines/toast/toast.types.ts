/** Types of the toast machine (R-GEN-7). */

export type ToastKind = 'success' | 'error';

/** What a caller supplies to show a toast. */
export interface ToastInput {
  kind: ToastKind;
  message: string;
  /** Single sign-on toasts: never close by themselves, only on 'toast.close'. */
  persistent?: boolean;
}

export interface ToastContext {
  kind: ToastKind;
  message: string;
  persistent: boolean;
}

/** What the user does to a toast; its timers are the machine's own `after` delays. */
export type ToastEvent = { type: 'toast.pointer.enter' } | { type: 'toast.pointer.leave' } | { type: 'toast.close' };

/** 'visible': the toast is on screen. 'fading': it is fading out and about to leave. */
export type ToastTag = 'visible' | 'fading';
