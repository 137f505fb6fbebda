/**
 * The QA model of the MFA modal: one model per OTP state the first factor can answer (enrolment,
 * prompt, a state this client does not know), with every answer the code check can get. Shared by
 * mfa.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, failureSentence, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { ATTEMPTS_EXCEEDED } from '../shared/problem.ts';
import { mfaMachine } from './mfa.machine.ts';
import type { MfaEvent, MfaInput, SessionTokenOutput } from './mfa.types.ts';

export const PENDING = 'pending-token';
export const SESSION = 'session-token';
export const SECRET = 'JBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/TAO:ana?secret=${SECRET}&issuer=TAO`;

export const inputs: Record<string, MfaInput> = {
  OTP_DISABLED: { pendingToken: PENDING, otp: { state: 'OTP_DISABLED', uri: URI, user: 'ana' } },
  OTP_REQUIRED: { pendingToken: PENDING, otp: { state: 'OTP_REQUIRED', uri: URI, user: 'ana' } },
  OTP_ACTIVED: { pendingToken: PENDING, otp: { state: 'OTP_ACTIVED', user: 'ana' } },
  // A state this client does not know (a newer server): only 'no access' and Cancelar.
  'unknown state': { pendingToken: PENDING, otp: { state: 'OTP_BLOCKED', user: 'ana' } },
};

const inputDescriptions: Record<string, string> = {
  OTP_DISABLED: 'una cuenta recién registrada (OTP_DISABLED): el modal muestra el alta con el código QR',
  OTP_REQUIRED: 'una cuenta que debe dar de alta el segundo factor (OTP_REQUIRED): el alta con el código QR',
  OTP_ACTIVED: 'una cuenta con el segundo factor activado (OTP_ACTIVED): solo se pide el código',
  'unknown state': 'un estado del segundo factor que la aplicación no conoce (OTP_BLOCKED)',
};

export type MfaSnapshot = SnapshotFrom<typeof mfaMachine>;
export type MfaModelEvent = MfaEvent | DoneEvent<'verifyCode', SessionTokenOutput> | ErrorEvent<'verifyCode'>;

const events: MfaModelEvent[] = [
  { type: 'mfa.submit', code: '123456' },
  { type: 'mfa.cancel' },
  { type: 'xstate.done.actor.verifyCode', output: { token: SESSION } },
  { type: 'xstate.error.actor.verifyCode', error: { status: 401, type: 'invalid-mfa-token' } },
  { type: 'xstate.error.actor.verifyCode', error: { status: 429, type: ATTEMPTS_EXCEEDED } },
  { type: 'xstate.error.actor.verifyCode', error: { status: 500, type: 'internal-server-error' } },
  { type: 'xstate.error.actor.verifyCode', error: new TypeError('Failed to fetch') },
];

export const mfaModel = defineQaModel({
  name: 'mfa',
  title: "El modal 'Autentificación MFA' (el código del segundo factor)",
  machine: mfaMachine,
  events,
  variants: Object.entries(inputs).map(([name, input]) => ({ name, description: inputDescriptions[name]!, input })),
  eventDescriptions: {
    'mfa.submit': ({ code }) => `el usuario escribe el código ${code} y pulsa Entrar`,
    'mfa.cancel': 'el usuario pulsa Cancelar',
    'xstate.done.actor.verifyCode': 'el servidor acepta el código y da el token de sesión',
    'xstate.error.actor.verifyCode': ({ error }) => `al comprobar el código, ${failureSentence(error)}`,
  } satisfies EventDescriptions<MfaModelEvent>,
});
