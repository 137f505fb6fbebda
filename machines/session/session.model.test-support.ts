/**
 * The QA model of the session (R-SES-2): entering and leaving the authenticated area with or
 * without a stored token, activity, the idle timeout, and the API problems that open 'Sesión
 * expirada' or 'Error obteniendo datos'. Shared by session.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, type AfterEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { sessionMachine } from './session.machine.ts';
import type { SessionEvent } from './session.types.ts';

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
/** 'session.enter' carries whether a token is stored when the area is entered (the model's view of `hasToken`). */
export type SessionModelEvent =
  Exclude<SessionEvent, { type: 'session.enter' }> | { type: 'session.enter'; withToken: boolean } | AfterEvent<'idleTimeout'>;

const events: SessionModelEvent[] = [
  { type: 'session.enter', withToken: true },
  { type: 'session.enter', withToken: false },
  { type: 'session.leave' },
  { type: 'session.activity' },
  { type: 'session.expired' },
  { type: 'session.load-error' },
  { type: 'session.sign-in' },
  { type: 'session.reload' },
  { type: 'session.logout' },
  { type: 'xstate.after.idleTimeout' },
];

export const sessionModel = defineQaModel({
  name: 'session',
  title: 'La sesión: el área autenticada, la inactividad y los diálogos de sesión expirada y error de datos',
  machine: sessionMachine,
  // The token guard reads the browser's storage: in the model, the event says whether a token is there.
  modelMachine: sessionMachine.provide({ guards: { hasToken: ({ event }) => (event as { withToken?: boolean }).withToken === true } }),
  events,
  eventDescriptions: {
    'session.enter': ({ withToken }) =>
      withToken ? 'el usuario entra en el área autenticada (/videos) con una sesión guardada' : 'el usuario entra en /videos sin sesión guardada',
    'session.leave': 'el usuario vuelve a una página pública (/)',
    'session.activity': 'el usuario mueve el ratón, teclea o desplaza la página antes de que pase el tiempo de inactividad',
    'session.expired': 'una llamada a la API responde 401 o 403 (la sesión ya no vale)',
    'session.load-error': 'una lectura de la API falla (500, o la red)',
    'session.sign-in': "el usuario pulsa 'Iniciar sesión' en el diálogo",
    'session.reload': "el usuario pulsa 'Recargar' en el diálogo",
    'session.logout': "el usuario elige 'Cerrar sesión' en su menú",
    'xstate.after.idleTimeout': 'pasa una hora sin actividad',
  } satisfies EventDescriptions<SessionModelEvent>,
});
