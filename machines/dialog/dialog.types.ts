/**
 * Types of the dialog lifecycle (machines/dialog/dialog.machine.ts): one machine for every dialog of
 * the product that works on something (a video to edit or delete, a tag, a user…). `TSubject` is
 * what the dialog is opened on, `TPayload` what the user submits (the form's values; `undefined` for
 * a confirmation), `TOutput` what the work answers.
 */

export interface DialogContext<TSubject, TPayload> {
  /** What the dialog was opened on; null while closed. */
  subject: TSubject | null;
  /** What was last submitted (what `work` received or the validation rejected); null before a submit. */
  payload: TPayload | null;
  /** Why the last work failed; null when it did not (or has not run). */
  error: unknown;
}

export type DialogEvent<TSubject, TPayload> =
  /** The user asks for the dialog on `subject` (a card's edit or delete button). */
  | { type: 'dialog.open'; subject: TSubject }
  /** The user confirms (Guardar, Eliminar) with what the dialog holds. */
  | { type: 'dialog.submit'; payload: TPayload }
  /** Cancelar, the close button, Escape, a click outside. */
  | { type: 'dialog.close' };

/** The `work` actor's input, and the params of the `validate` and `nothingToDo` guards. */
export interface DialogWorkInput<TSubject, TPayload> {
  subject: TSubject;
  payload: TPayload;
}

/** `notifySuccess`'s params: the work's answer. */
export interface DialogSuccess<TSubject, TPayload, TOutput> extends DialogWorkInput<TSubject, TPayload> {
  output: TOutput;
}

/** `notifyFailure`'s params: why the work failed. */
export interface DialogFailure<TSubject, TPayload> extends DialogWorkInput<TSubject, TPayload> {
  error: unknown;
}

/**
 * 'open': the dialog is on screen (every state but `closed`); 'busy': the work runs (loader on the
 * confirm button, every control disabled, the dialog cannot be closed); 'invalid': the validation
 * rejected the last submit (the form shows its messages); 'failed': the last work failed.
 */
export type DialogTag = 'open' | 'busy' | 'invalid' | 'failed';
