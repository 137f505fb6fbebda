import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type {
  DialogContext,
  DialogEvent,
  DialogFailure,
  DialogSuccess,
  DialogTag,
  DialogWorkInput,
} from './dialog.types.ts';

/**
 * The lifecycle of a dialog that works on something (R-ADM-3, R-ADM-1):
 *
 *   closed ─dialog.open(subject)→ open ─dialog.submit(payload)→ working ─done→ closed (notifySuccess)
 *                                  ↑ └─ invalid (validate said no)         └─error→ failed (notifyFailure)
 *                                  └──────── dialog.submit / dialog.close ←───────┘
 *
 * - `open`: the dialog on `subject`. A submit with `nothingToDo` (an edit that changed nothing) just
 *   closes, whatever the rules say of values the user did not touch; one the `validate` guard accepts
 *   runs `work`; any other stays open (`open.invalid`: the form shows its messages).
 * - `working` (tag 'busy'): the `work` actor runs with `{ subject, payload }`; the UI shows a loader
 *   on the confirm button and disables every control. The dialog cannot be closed meanwhile
 *   ('dialog.close' is ignored): a write once sent is not taken back, and the user learns its
 *   outcome in this dialog (a toast and, on failure, the dialog still open with what they typed).
 * - success: `notifySuccess` (the app's toast) and `closed`; failure: `notifyFailure` and `failed`
 *   (still open: submit again or close).
 *
 * One machine for every dialog: `createDialogMachine<Subject, Payload, Output>()` types it, and the
 * app supplies `work`, the notifications and, for a form, `validate` / `nothingToDo` with
 * `.provide()`. The defaults of the actor and actions throw (nothing happens unless the app says
 * what); `validate` accepts everything and `nothingToDo` is never true unless provided.
 */
export function createDialogMachine<TSubject, TPayload = undefined, TOutput = unknown>() {
  type WorkInput = DialogWorkInput<TSubject, TPayload>;
  type Context = DialogContext<TSubject, TPayload>;
  type Event = DialogEvent<TSubject, TPayload>;

  /** What the guards and `work` receive on a submit: the dialog's subject and the submitted payload. */
  const submitted = ({ context, event }: { context: Context; event: Event }): WorkInput => {
    assertEvent(event, 'dialog.submit');
    return { subject: context.subject as TSubject, payload: event.payload };
  };
  /** What `work` ran on (the last submit). */
  const worked = (context: Context): WorkInput => ({ subject: context.subject as TSubject, payload: context.payload as TPayload });

  return setup({
    types: {} as {
      context: Context;
      events: Event;
      tags: DialogTag;
    },
    actors: {
      work: fromPromise<TOutput, WorkInput>(async () => {
        throw new Error('work is supplied by the app with .provide()');
      }),
    },
    guards: {
      /** The payload may be submitted (a form's rules); by default everything may. */
      validate: (_, _input: WorkInput) => true,
      /** Submitting would change nothing (an edit without changes): the dialog just closes. */
      nothingToDo: (_, _input: WorkInput) => false,
    },
    actions: {
      notifySuccess: (_, _success: DialogSuccess<TSubject, TPayload, TOutput>) => {
        throw new Error('notifySuccess is supplied by the app with .provide()');
      },
      notifyFailure: (_, _failure: DialogFailure<TSubject, TPayload>) => {
        throw new Error('notifyFailure is supplied by the app with .provide()');
      },
      reset: assign({ subject: null, payload: null, error: null }),
      keepPayload: assign({ payload: ({ event }) => (event.type === 'dialog.submit' ? event.payload : null) }),
    },
  }).createMachine({
    id: 'dialog',
    description: 'A dialog on one subject: open, submit, work (busy), then closed on success or still open on failure.',
    context: { subject: null, payload: null, error: null },
    initial: 'closed',
    states: {
      closed: {
        description: 'No dialog on screen.',
        meta: { qa: 'Diálogo cerrado' },
        entry: 'reset',
        on: {
          'dialog.open': {
            target: 'open',
            actions: assign({ subject: ({ event }) => event.subject, payload: null, error: null }),
          },
        },
      },
      open: {
        description: 'The dialog on its subject, every control enabled.',
        meta: { qa: 'Diálogo abierto' },
        tags: ['open'],
        initial: 'editing',
        states: {
          editing: {
            description: 'As opened: no validation message.',
            meta: { qa: 'Diálogo abierto, sin errores' },
          },
          invalid: {
            description: 'The last submit broke a rule: the form shows the message under each failing field.',
            meta: { qa: 'Diálogo con errores en el formulario' },
            tags: ['invalid'],
          },
        },
        on: {
          'dialog.submit': [
            { guard: { type: 'nothingToDo', params: submitted }, target: 'closed' },
            { guard: { type: 'validate', params: submitted }, target: 'working', actions: 'keepPayload' },
            { target: '.invalid', actions: 'keepPayload' },
          ],
          'dialog.close': { target: 'closed' },
        },
      },
      working: {
        description: 'The work runs: a loader on the confirm button, every control disabled, the dialog cannot be closed.',
        meta: { qa: 'Diálogo ocupado' },
        tags: ['open', 'busy'],
        invoke: {
          id: 'work',
          src: 'work',
          input: ({ context }) => worked(context),
          onDone: {
            target: 'closed',
            actions: { type: 'notifySuccess', params: ({ context, event }) => ({ ...worked(context), output: event.output }) },
          },
          onError: {
            target: 'failed',
            actions: [
              assign({ error: ({ event }) => event.error }),
              { type: 'notifyFailure', params: ({ context, event }) => ({ ...worked(context), error: event.error }) },
            ],
          },
        },
      },
      failed: {
        description: 'The work failed (the app told the user): still open with what was submitted; submit again or close.',
        meta: { qa: 'Diálogo abierto tras un fallo' },
        tags: ['open', 'failed'],
        on: {
          'dialog.submit': [
            { guard: { type: 'nothingToDo', params: submitted }, target: 'closed' },
            { guard: { type: 'validate', params: submitted }, target: 'working', actions: 'keepPayload' },
            { target: '#dialog.open.invalid', actions: 'keepPayload' },
          ],
          'dialog.close': { target: 'closed' },
        },
      },
    },
  });
}

/** The machine's type for one subject, payload and output (`DialogMachine<Video, EditVideoPayload, Video>`). */
export type DialogMachine<TSubject, TPayload = undefined, TOutput = unknown> = ReturnType<
  typeof createDialogMachine<TSubject, TPayload, TOutput>
>;
