/**
 * The QA model of the login screen ('/'): the machine's events with the answers the server can
 * give, and every R-AUTH-2 login message and every kind of OTP state the paths must show. Shared by
 * login.test.tsx (which walks each path on the rendered page) and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { loginMessage } from '../../src/lib/messages.ts';
import { defineQaModel, failureSentence, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import type { SecondFactorOutput } from '../second-factor/second-factor.types.ts';
import { ATTEMPTS_EXCEEDED } from '../shared/problem.ts';
import { loginMachine } from './login.machine.ts';
import type { LoginAnswer, LoginEvent } from './login.types.ts';

export const PENDING = 'pending-token';
export const URI = 'otpauth://totp/TAO:ana?secret=JBSWY3DPEHPK3PXP&issuer=TAO';
export const CREDENTIALS = { user: 'ana', password: 'secreto' };

export type LoginSnapshot = SnapshotFrom<typeof loginMachine>;
export type LoginModelEvent =
  | LoginEvent
  | DoneEvent<'submitLogin', LoginAnswer>
  | ErrorEvent<'submitLogin'>
  | DoneEvent<'secondFactor', SecondFactorOutput>;

export const answers: LoginAnswer[] = [
  { token: PENDING, otp: { state: 'OTP_REQUIRED', uri: URI, user: 'ana' } },
  { token: PENDING, otp: { state: 'OTP_ACTIVED', user: 'ana' } },
  // A state this client does not know (a newer server): the modal only offers Cancelar.
  { token: PENDING, otp: { state: 'OTP_BLOCKED' as LoginAnswer['otp']['state'], user: 'ana' } },
];
export const loginProblems = [
  { status: 401, type: 'wrong-password' },
  { status: 401, type: 'user-doesnt-exist' },
  { status: 403, type: 'access-denied' },
  { status: 403, type: 'blocked-user' },
  { status: 429, type: ATTEMPTS_EXCEEDED },
  { status: 503, type: 'service-unavailable' },
  { status: 0, type: 'network-error' },
];

const events: LoginModelEvent[] = [
  { type: 'login.submit', ...CREDENTIALS },
  ...answers.map((output) => ({ type: 'xstate.done.actor.submitLogin' as const, output })),
  ...loginProblems.map((error) => ({ type: 'xstate.error.actor.submitLogin' as const, error })),
  { type: 'xstate.done.actor.secondFactor', output: { outcome: 'verified' } },
  { type: 'xstate.done.actor.secondFactor', output: { outcome: 'cancelled' } },
  { type: 'xstate.done.actor.secondFactor', output: { outcome: 'locked' } },
  { type: 'xstate.done.actor.secondFactor', output: { outcome: 'notStored' } },
];

const canEnterCode = (snapshot: LoginSnapshot) => ['OTP_DISABLED', 'OTP_REQUIRED', 'OTP_ACTIVED'].includes(snapshot.context.otp.state);

/** What the server's OTP state asks of the person. */
export const otpStateSentence = (state: string) =>
  state === 'OTP_ACTIVED'
    ? 'pide el código del segundo factor (OTP_ACTIVED)'
    : state === 'OTP_REQUIRED' || state === 'OTP_DISABLED'
      ? `pide dar de alta el segundo factor (${state})`
      : `da un estado del segundo factor que la aplicación no conoce (${state})`;

/** How the second factor (the MFA modal, then storing the token) ended, as the person lives it. */
export const secondFactorSentence = ({ outcome }: SecondFactorOutput) =>
  ({
    verified: 'el usuario escribe un código correcto en el modal MFA y el navegador guarda la sesión',
    cancelled: 'el usuario cierra el modal MFA con Cancelar',
    locked: 'el usuario agota los intentos de código (el servidor responde 429)',
    notStored: 'el usuario escribe un código correcto, pero el navegador no guarda la sesión',
  })[outcome];

export const loginModel = defineQaModel({
  name: 'login',
  title: 'Inicio de sesión (usuario, contraseña y segundo factor)',
  machine: loginMachine,
  events,
  // With an unknown OTP state the modal only offers Cancelar.
  filterEvents: (snapshot, event) =>
    event.type !== 'xstate.done.actor.secondFactor' || event.output.outcome === 'cancelled' || canEnterCode(snapshot),
  // Every R-AUTH-2 login message, and the modal for every kind of OTP state, is shown at least once.
  extraFeatures: (snapshot) => [
    ...(snapshot.hasTag('error') ? [`message ${loginMessage(snapshot.context.errorType ?? undefined)}`] : []),
    ...(snapshot.matches('secondFactor') ? [`modal for ${snapshot.context.otp.state}`] : []),
  ],
  eventDescriptions: {
    'login.submit': ({ user }) => `el usuario escribe su usuario (${user}) y su contraseña y pulsa Entrar`,
    'xstate.done.actor.submitLogin': ({ output }) => `el servidor acepta la contraseña y ${otpStateSentence(output.otp.state)}`,
    'xstate.error.actor.submitLogin': ({ error }) => `al enviar la entrada, ${failureSentence(error)}`,
    'xstate.done.actor.secondFactor': ({ output }) => secondFactorSentence(output),
  } satisfies EventDescriptions<LoginModelEvent>,
});
