import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { ATTEMPTS_EXCEEDED, problemOf, secondFactorActors, secondFactorGuards } from '../mfa/mfa.machine.ts';
import type { LoginAnswer } from '../mfa/mfa.types.ts';
import type { Credentials, LoginContext, LoginEvent, LoginTag } from './login.types.ts';

const noChallenge = { pendingToken: '', otp: { state: '', user: '' } } as const;

/**
 * The login screen (route '/') of SPEC.md §2/§4: user and password, then the MFA modal
 * (the `mfa` child machine), then the session token is stored and the user goes to /videos.
 */
export const loginMachine = setup({
  types: {} as {
    context: LoginContext;
    events: LoginEvent;
    tags: LoginTag;
  },
  actors: {
    submitLogin: fromPromise<LoginAnswer, Credentials>(async () => {
      throw new Error('submitLogin is supplied by the app with .provide()');
    }),
    ...secondFactorActors,
  },
  actions: {
    goToVideos: () => {},
  },
  guards: {
    ...secondFactorGuards,
  },
}).createMachine({
  id: 'login',
  description: 'Sign-in with user and password plus a second factor.',
  context: { ...noChallenge, sessionToken: '', errorType: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'The form: Usuario, Contraseña and Entrar, all enabled.',
      initial: 'ready',
      states: {
        ready: { description: 'No message.' },
        rejected: { description: 'An Alert with the §8 login message for errorType.', tags: ['error'] },
      },
      on: { 'login.submit': { target: 'sending' } },
    },
    sending: {
      description: 'POST /api/login: inputs and Entrar disabled, spinner on Entrar.',
      tags: ['busy'],
      invoke: {
        id: 'submitLogin',
        src: 'submitLogin',
        input: ({ event }) => {
          assertEvent(event, 'login.submit');
          return { user: event.user, password: event.password };
        },
        onDone: {
          target: 'mfa',
          actions: assign({
            pendingToken: ({ event }) => event.output.token,
            otp: ({ event }) => event.output.otp,
            errorType: null,
          }),
        },
        onError: {
          target: 'idle.rejected',
          actions: assign({ errorType: ({ event }) => problemOf(event.error).type ?? null }),
        },
      },
    },
    mfa: {
      description: "The 'Autentificación MFA' modal is open over the form (child machine `mfa`).",
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
          {
            guard: { type: 'isLocked', params: ({ event }) => event.output },
            target: 'idle.rejected',
            actions: assign({ ...noChallenge, errorType: ATTEMPTS_EXCEEDED }),
          },
          { target: 'idle.ready', actions: assign(noChallenge) },
        ],
      },
    },
    storingToken: {
      description: 'Storing the session token in local storage; the form stays disabled.',
      tags: ['busy'],
      invoke: {
        id: 'storeToken',
        src: 'storeToken',
        input: ({ context }) => ({ token: context.sessionToken }),
        onDone: { target: 'signedIn' },
        onError: {
          target: 'idle.rejected',
          actions: assign({ ...noChallenge, sessionToken: '', errorType: null }),
        },
      },
    },
    signedIn: {
      description: 'Token stored: the app navigates to /videos.',
      type: 'final',
      entry: 'goToVideos',
    },
  },
});
