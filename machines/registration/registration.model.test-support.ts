/**
 * The QA model of the registration page ('/register?invitation=…'): typing and leaving each field
 * (kept small: each field typed once, left only while empty), every answer of the server, and the
 * second factor's outcomes; every combination of R-AUTH-6 field messages the model reaches and every R-AUTH-7
 * register message must be shown. Shared by registration.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { registerMessage } from '../../src/lib/messages.ts';
import { defineQaModel, failureSentence, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { secondFactorSentence } from '../login/login.model.test-support.ts';
import type { SecondFactorOutput } from '../second-factor/second-factor.types.ts';
import { registrationMachine, visibleErrors } from './registration.machine.ts';
import type { RegisterAnswer, RegistrationEvent, RegistrationField } from './registration.types.ts';

export const INVITATION = 'invitation-123';
export const PENDING = 'pending-token';
export const URI = 'otpauth://totp/TAO:ana?secret=JBSWY3DPEHPK3PXP&issuer=TAO';

export type RegistrationSnapshot = SnapshotFrom<typeof registrationMachine>;
export type RegistrationModelEvent =
  | RegistrationEvent
  | DoneEvent<'registerUser', RegisterAnswer>
  | ErrorEvent<'registerUser'>
  | DoneEvent<'secondFactor', SecondFactorOutput>;

export const registerProblems = [
  { status: 409, type: 'users-exists' },
  { status: 410, type: 'register-invitation-expired' },
  { status: 410, type: 'register-invitation-was-used' },
  { status: 400, type: 'invalid-password' },
];

const events: RegistrationModelEvent[] = [
  // Blank (whitespace only) and filled user names; a matching and a different confirmation.
  { type: 'registration.change', field: 'user', value: '   ' },
  { type: 'registration.change', field: 'user', value: 'ana' },
  { type: 'registration.change', field: 'password', value: 'Secreto12' },
  { type: 'registration.change', field: 'confirmation', value: 'Otra1234' },
  { type: 'registration.change', field: 'confirmation', value: 'Secreto12' },
  { type: 'registration.blur', field: 'user' },
  { type: 'registration.blur', field: 'password' },
  { type: 'registration.blur', field: 'confirmation' },
  { type: 'registration.submit' },
  { type: 'xstate.done.actor.registerUser', output: { token: PENDING, otp: { state: 'OTP_REQUIRED', uri: URI, user: 'ana' } } },
  ...registerProblems.map((error) => ({ type: 'xstate.error.actor.registerUser' as const, error })),
  { type: 'xstate.done.actor.secondFactor', output: { outcome: 'verified' } },
  { type: 'xstate.done.actor.secondFactor', output: { outcome: 'cancelled' } },
  { type: 'xstate.done.actor.secondFactor', output: { outcome: 'locked' } },
  { type: 'xstate.done.actor.secondFactor', output: { outcome: 'notStored' } },
];

/**
 * Keeps the form's part of the model small: fields are typed once each, in the form state
 * without a server message (the handlers are the same in every editing sub-state), and a
 * field is only left (blurred) while still empty and untouched.
 */
function formEventAllowed(snapshot: RegistrationSnapshot, event: RegistrationModelEvent): boolean {
  if (event.type !== 'registration.change' && event.type !== 'registration.blur') return true;
  const { values, touched } = snapshot.context;
  if (!snapshot.matches({ editing: 'ready' }) || snapshot.context.submitted) return false;
  if (event.type === 'registration.blur') return !touched[event.field];
  return values[event.field] === '';
}

const errorSignature = (snapshot: RegistrationSnapshot) => JSON.stringify(visibleErrors(snapshot.context));

const fieldNames: Record<RegistrationField, string> = {
  user: "'Usuario'",
  password: "'Contraseña'",
  confirmation: "'Confirma Contraseña'",
};

export const registrationModel = defineQaModel({
  name: 'registration',
  title: 'Registro con una invitación (y alta del segundo factor)',
  machine: registrationMachine,
  events,
  filterEvents: formEventAllowed,
  input: { invitation: INVITATION },
  // Every combination of field messages the model reaches, and every R-AUTH-7 register message, is shown.
  extraFeatures: (snapshot) => [
    ...(snapshot.matches('editing') ? [`field messages ${errorSignature(snapshot)}`] : []),
    ...(snapshot.matches({ editing: 'rejected' }) ? [`message ${registerMessage(snapshot.context.errorType ?? undefined)}`] : []),
  ],
  eventDescriptions: {
    'registration.change': ({ field, value }) =>
      value.trim() ? `el usuario escribe '${value}' en ${fieldNames[field]}` : `el usuario escribe solo espacios en ${fieldNames[field]}`,
    'registration.blur': ({ field }) => `el usuario entra en ${fieldNames[field]} y lo deja vacío`,
    'registration.submit': 'el usuario pulsa Entrar',
    'xstate.done.actor.registerUser': 'el servidor registra la cuenta y pide dar de alta el segundo factor (OTP_REQUIRED)',
    'xstate.error.actor.registerUser': ({ error }) => `al registrar, ${failureSentence(error)}`,
    'xstate.done.actor.secondFactor': ({ output }) => secondFactorSentence(output),
  } satisfies EventDescriptions<RegistrationModelEvent>,
});
