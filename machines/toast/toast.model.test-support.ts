/**
 * The QA model of a toast (R-GEN-7): hovering, leaving, closing, and its two delays elapsing,
 * for a success and an error toast, each also persistent (single sign-on). The events need no
 * payload: the model tries every event and delay each state reacts to. Shared by
 * toast.machine.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, type AfterEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { toastMachine } from './toast.machine.ts';
import type { ToastEvent, ToastInput } from './toast.types.ts';

export type ToastSnapshot = SnapshotFrom<typeof toastMachine>;
/** The user's events, and the two delays elapsing (the machine's `after` transitions, as explicit events). */
export type ToastModelEvent = ToastEvent | AfterEvent<'toastDuration'> | AfterEvent<'toastFadeDuration'>;

export const inputs: ToastInput[] = [
  { kind: 'success', message: 'Video añadido a favoritos' },
  { kind: 'error', message: 'Error al guardar la puntuación' },
  { kind: 'error', message: 'El token ha expirado', persistent: true },
  { kind: 'success', message: 'Sesión iniciada', persistent: true },
];

/** The test's name of a variant: 'success', 'error, persistent'… */
export const variantName = (input: ToastInput) => `${input.kind}${input.persistent ? ', persistent' : ''}`;

export const toastModel = defineQaModel({
  name: 'toast',
  title: 'Un aviso (toast) de éxito o de error',
  machine: toastMachine,
  events: [] as ToastModelEvent[],
  variants: inputs.map((input) => ({
    name: variantName(input),
    description: `un aviso de ${input.kind === 'success' ? 'éxito' : 'error'} '${input.message}'${input.persistent ? ' que no se cierra solo' : ''}`,
    input,
  })),
  eventDescriptions: {
    'toast.pointer.enter': 'el usuario pone el puntero sobre el aviso',
    'toast.pointer.leave': 'el usuario retira el puntero del aviso',
    'toast.close': 'el usuario pulsa el botón de cerrar del aviso',
    'xstate.after.toastDuration': 'pasan los 3 s que dura el aviso',
    'xstate.after.toastFadeDuration': 'termina el fundido de salida',
  } satisfies EventDescriptions<ToastModelEvent>,
});
