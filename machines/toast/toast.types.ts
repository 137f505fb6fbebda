/** Types of the toast machine (SPEC.md §4 "Toast"). */

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

/**
 * 'toast.pointer.*' and 'toast.close' come from the user. 'toast.timer.elapsed' and
 * 'toast.fade.done' are raised by the machine itself after its named delays; they are
 * events (not `after` transitions) so that time is an explicit step of the test model.
 */
export type ToastEvent =
  | { type: 'toast.pointer.enter' }
  | { type: 'toast.pointer.leave' }
  | { type: 'toast.close' }
  | { type: 'toast.timer.elapsed' }
  | { type: 'toast.fade.done' };

/** 'visible': the toast is on screen. 'fading': it is fading out and about to leave. */
export type ToastTag = 'visible' | 'fading';
