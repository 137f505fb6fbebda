/**
 * The QA model of the second factor (the MFA modal, then storing the session token), from both
 * screens that end in it: the login page (a prompt) and the registration page (an enrolment).
 * Shared by second-factor.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import type { MfaChallenge, MfaOutput } from '../mfa/mfa.types.ts';
import { secondFactorMachine } from './second-factor.machine.ts';

export const PENDING = 'pending-token';
export const SESSION = 'header.eyJ1c2VyIjoiYW5hIiwicm9sZSI6InVzZXIifQ.signature';
const URI = 'otpauth://totp/TAO:ana?secret=JBSWY3DPEHPK3PXP&issuer=TAO';

export type SecondFactorSnapshot = SnapshotFrom<typeof secondFactorMachine>;
export type SecondFactorModelEvent = DoneEvent<'mfa', MfaOutput> | DoneEvent<'storeToken'> | ErrorEvent<'storeToken'>;

const events: SecondFactorModelEvent[] = [
  { type: 'xstate.done.actor.mfa', output: { outcome: 'verified', token: SESSION } },
  { type: 'xstate.done.actor.mfa', output: { outcome: 'cancelled' } },
  { type: 'xstate.done.actor.mfa', output: { outcome: 'locked' } },
  { type: 'xstate.done.actor.storeToken', output: undefined },
  { type: 'xstate.error.actor.storeToken', error: new Error('The browser did not store the session token') },
];

/** Both screens that end in the second factor (the test renders each). */
export const variants = [
  {
    name: 'on the login page',
    description: 'la página de inicio de sesión, con el segundo factor ya activado (OTP_ACTIVED)',
    input: { pendingToken: PENDING, otp: { state: 'OTP_ACTIVED', user: 'ana' } } satisfies MfaChallenge,
  },
  {
    name: 'on the registration page',
    description: 'la página de registro, con el alta del segundo factor (OTP_REQUIRED)',
    input: { pendingToken: PENDING, otp: { state: 'OTP_REQUIRED', uri: URI, user: 'ana' } } satisfies MfaChallenge,
  },
];

const mfaSentence = ({ outcome }: MfaOutput) =>
  ({
    verified: 'el usuario escribe un código correcto y el servidor da el token de sesión',
    cancelled: 'el usuario cierra el modal MFA con Cancelar',
    locked: 'el usuario agota los intentos de código (el servidor responde 429)',
  })[outcome];

export const secondFactorModel = defineQaModel({
  name: 'second-factor',
  title: 'El segundo factor: el modal MFA y guardar la sesión en el navegador',
  machine: secondFactorMachine,
  events,
  variants,
  eventDescriptions: {
    'xstate.done.actor.mfa': ({ output }) => mfaSentence(output),
    'xstate.done.actor.storeToken': 'el navegador guarda el token de sesión',
    'xstate.error.actor.storeToken': 'el navegador no guarda el token de sesión',
  } satisfies EventDescriptions<SecondFactorModelEvent>,
});
