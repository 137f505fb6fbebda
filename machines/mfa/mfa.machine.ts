import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { ATTEMPTS_EXCEEDED, problemOf, type ProblemFields } from '../shared/problem.ts';
import type { MfaContext, MfaEvent, MfaInput, MfaOutput, MfaTag, SessionTokenOutput, VerifyCodeInput } from './mfa.types.ts';

/** OTP states for which the modal asks for a code (the first two also show the enrolment steps). */
const CODE_STATES: readonly string[] = ['OTP_DISABLED', 'OTP_REQUIRED', 'OTP_ACTIVED'];

/**
 * The MFA modal of R-AUTH-4, R-AUTH-5, invoked as a child by the second-factor machine (login, registration).
 * It ends with an output: verified (with the session token), cancelled, or locked (attempts
 * exceeded: the page shows the message and the modal closes).
 */
export const mfaMachine = setup({
  types: {} as {
    context: MfaContext;
    events: MfaEvent;
    input: MfaInput;
    output: MfaOutput;
    tags: MfaTag;
  },
  actors: {
    verifyCode: fromPromise<SessionTokenOutput, VerifyCodeInput>(async () => {
      throw new Error('verifyCode is supplied by the app with .provide()');
    }),
  },
  guards: {
    canEnterCode: ({ context }) => CODE_STATES.includes(context.otp.state),
    isAttemptsExceeded: (_, problem: ProblemFields) => problem.type === ATTEMPTS_EXCEEDED || problem.status === 429,
    isInvalidCode: (_, problem: ProblemFields) => problem.status === 401,
  },
}).createMachine({
  id: 'mfa',
  description: "Second factor: the user types the authenticator app's code, or cancels.",
  context: ({ input }) => ({ pendingToken: input.pendingToken, otp: input.otp, sessionToken: '' }),
  initial: 'opening',
  output: ({ event }) => event.output as MfaOutput,
  states: {
    opening: {
      description: 'Decides from the OTP state whether the modal can ask for a code.',
      meta: { qa: 'Abriendo el modal' },
      always: [{ guard: 'canEnterCode', target: 'entering' }, { target: 'noAccess' }],
    },
    entering: {
      description:
        'Modal with the code input, Cancelar and Entrar. OTP_DISABLED/OTP_REQUIRED also show the enrolment steps and QR; OTP_ACTIVED only the prompt.',
      meta: { qa: 'Modal con el campo del código' },
      initial: 'ready',
      states: {
        ready: { description: 'Waiting for the code; no message.', meta: { qa: 'Esperando el código' } },
        invalidCode: {
          description: "The last code was refused (401): 'El código no es válido'.",
          meta: { qa: 'Código no válido' },
          tags: ['error'],
        },
        failed: {
          description: "The last check failed for another reason: 'Ha ocurrido un error'.",
          meta: { qa: 'Error al comprobar el código' },
          tags: ['error'],
        },
      },
      on: {
        'mfa.submit': { target: 'verifying' },
        'mfa.cancel': { target: 'cancelled' },
      },
    },
    verifying: {
      description: 'POST /api/mfa with the pending token: input and buttons disabled, spinner on Entrar.',
      meta: { qa: 'Comprobando el código' },
      tags: ['busy'],
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context, event }) => {
          assertEvent(event, 'mfa.submit');
          return { pendingToken: context.pendingToken, user: context.otp.user, mfaCode: event.code };
        },
        onDone: {
          target: 'verified',
          actions: assign({ sessionToken: ({ event }) => event.output.token }),
        },
        onError: [
          {
            guard: { type: 'isAttemptsExceeded', params: ({ event }) => problemOf(event.error) },
            target: 'locked',
          },
          {
            guard: { type: 'isInvalidCode', params: ({ event }) => problemOf(event.error) },
            target: 'entering.invalidCode',
          },
          { target: 'entering.failed' },
        ],
      },
    },
    noAccess: {
      description: "Unknown OTP state: only 'Usted no tiene acceso a la aplicación' and Cancelar.",
      meta: { qa: 'Sin acceso a la aplicación' },
      on: { 'mfa.cancel': { target: 'cancelled' } },
    },
    verified: {
      description: 'The code was accepted; the session token goes to the parent.',
      meta: { qa: 'Código aceptado' },
      type: 'final',
      output: ({ context }) => ({ outcome: 'verified', token: context.sessionToken }) satisfies MfaOutput,
    },
    cancelled: {
      description: 'The user closed the modal; nothing is stored.',
      meta: { qa: 'Modal cancelado' },
      type: 'final',
      output: { outcome: 'cancelled' } satisfies MfaOutput,
    },
    locked: {
      description: 'Too many wrong codes: the modal closes and the parent page shows the message.',
      meta: { qa: 'Intentos agotados' },
      type: 'final',
      output: { outcome: 'locked' } satisfies MfaOutput,
    },
  },
});
