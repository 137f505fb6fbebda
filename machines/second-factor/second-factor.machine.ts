import { assign, fromPromise, setup } from 'xstate';
import { mfaMachine } from '../mfa/mfa.machine.ts';
import type { MfaOutput } from '../mfa/mfa.types.ts';
import type { StoreTokenInput } from '../shared/session-token.types.ts';
import type {
  SecondFactorContext,
  SecondFactorInput,
  SecondFactorOutcome,
  SecondFactorOutput,
  SecondFactorTag,
} from './second-factor.types.ts';

/**
 * What the login and registration screens share after the first factor (R-AUTH-4, R-AUTH-5): the MFA
 * modal (the `mfa` child machine), then the session token is stored. It ends with the outcome; the
 * screen that invoked it decides what the user sees next.
 */
export const secondFactorMachine = setup({
  types: {} as {
    context: SecondFactorContext;
    input: SecondFactorInput;
    output: SecondFactorOutput;
    tags: SecondFactorTag;
  },
  actors: {
    // The modal; its verifyCode actor is supplied by the app with .provide().
    mfa: mfaMachine,
    storeToken: fromPromise<void, StoreTokenInput>(async () => {
      throw new Error('storeToken is supplied by the app with .provide()');
    }),
  },
  guards: {
    isVerified: (_, output: MfaOutput) => output.outcome === 'verified',
    isLocked: (_, output: MfaOutput) => output.outcome === 'locked',
  },
}).createMachine({
  id: 'secondFactor',
  description: 'The MFA modal, then the session token is stored.',
  context: ({ input }) => ({ pendingToken: input.pendingToken, otp: input.otp, sessionToken: '' }),
  initial: 'mfa',
  output: ({ event }) => event.output as SecondFactorOutput,
  states: {
    mfa: {
      description: "The 'Autentificación MFA' modal is open over the form (child machine `mfa`).",
      meta: { qa: 'Modal «Autentificación MFA»' },
      invoke: {
        id: 'mfa',
        src: 'mfa',
        input: ({ context }) => ({ pendingToken: context.pendingToken, otp: context.otp }),
        onDone: [
          {
            guard: { type: 'isVerified', params: ({ event }) => event.output },
            target: 'storingToken',
            actions: assign({
              sessionToken: ({ event }) => (event.output.outcome === 'verified' ? event.output.token : ''),
            }),
          },
          { guard: { type: 'isLocked', params: ({ event }) => event.output }, target: 'locked' },
          { target: 'cancelled' },
        ],
      },
    },
    storingToken: {
      description: 'The modal is closed; the session token is being stored in local storage and the form stays disabled.',
      meta: { qa: 'Guardando la sesión en el navegador' },
      tags: ['busy'],
      invoke: {
        id: 'storeToken',
        src: 'storeToken',
        input: ({ context }) => ({ token: context.sessionToken }),
        onDone: { target: 'verified' },
        onError: { target: 'notStored' },
      },
    },
    verified: {
      description: 'Signed in: the session token is stored.',
      meta: { qa: 'Sesión guardada' },
      type: 'final',
      output: { outcome: 'verified' } satisfies SecondFactorOutput,
    },
    cancelled: {
      description: 'The user closed the modal; nothing is stored.',
      meta: { qa: 'Modal cancelado' },
      type: 'final',
      output: { outcome: 'cancelled' } satisfies SecondFactorOutput,
    },
    locked: {
      description: 'Too many wrong codes: the modal closes; the screen shows the attempts-exceeded message.',
      meta: { qa: 'Intentos agotados' },
      type: 'final',
      output: { outcome: 'locked' } satisfies SecondFactorOutput,
    },
    notStored: {
      description: 'The browser refused to store the session token.',
      meta: { qa: 'Sesión no guardada' },
      type: 'final',
      output: { outcome: 'notStored' } satisfies SecondFactorOutput,
    },
  },
});

/**
 * The guard a screen uses on the second factor's onDone:
 * `{ type: 'endedWith', params: ({ event }) => ({ output: event.output, outcome: 'verified' }) }`.
 */
export function endedWith(_: unknown, { output, outcome }: { output: SecondFactorOutput; outcome: SecondFactorOutcome }) {
  return output.outcome === outcome;
}
