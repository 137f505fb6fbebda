import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { endedWith, secondFactorMachine } from '../second-factor/second-factor.machine.ts';
import { ATTEMPTS_EXCEEDED, problemType } from '../shared/problem.ts';
import type { Credentials, LoginAnswer, LoginContext, LoginEvent, LoginTag } from './login.types.ts';

const noChallenge = { pendingToken: '', otp: { state: '', user: '' } } as const;

/**
 * The login screen (route '/') of R-AUTH-1, R-AUTH-5: user and password, then the second factor (the
 * `secondFactor` child machine: the MFA modal, then the session token is stored) and the user goes
 * to /videos. A token the browser cannot store shows 'Ha ocurrido un error'.
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
    // Its mfa and storeToken actors are supplied by the app with .provide().
    secondFactor: secondFactorMachine,
  },
  actions: {
    goToVideos: () => {
      throw new Error('goToVideos is supplied by the app with .provide()');
    },
  },
  guards: {
    endedWith,
  },
}).createMachine({
  id: 'login',
  description: 'Sign-in with user and password plus a second factor.',
  context: { ...noChallenge, errorType: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'The form: Usuario, Contraseña and Entrar, all enabled.',
      meta: { qa: 'Formulario de entrada' },
      initial: 'ready',
      states: {
        ready: { description: 'No message.', meta: { qa: 'Formulario de entrada, sin mensajes' } },
        rejected: {
          description: 'An Alert with the §8 login message for errorType.',
          meta: { qa: 'Formulario de entrada con un error' },
          tags: ['error'],
        },
      },
      on: { 'login.submit': { target: 'sending' } },
    },
    sending: {
      description: 'POST /api/login: inputs and Entrar disabled, spinner on Entrar.',
      meta: { qa: 'Comprobando usuario y contraseña' },
      tags: ['busy'],
      invoke: {
        id: 'submitLogin',
        src: 'submitLogin',
        input: ({ event }) => {
          assertEvent(event, 'login.submit');
          return { user: event.user, password: event.password };
        },
        onDone: {
          target: 'secondFactor',
          actions: assign({
            pendingToken: ({ event }) => event.output.token,
            otp: ({ event }) => event.output.otp,
            errorType: null,
          }),
        },
        onError: {
          target: 'idle.rejected',
          actions: assign({ errorType: ({ event }) => problemType(event.error) }),
        },
      },
    },
    secondFactor: {
      description:
        "The 'Autentificación MFA' modal over the form, then the token is stored with the form disabled (child machine `secondFactor`).",
      meta: { qa: 'Modal «Autentificación MFA»' },
      invoke: {
        id: 'secondFactor',
        src: 'secondFactor',
        input: ({ context }) => ({ pendingToken: context.pendingToken, otp: context.otp }),
        onDone: [
          {
            guard: { type: 'endedWith', params: ({ event }) => ({ output: event.output, outcome: 'verified' }) },
            target: 'signedIn',
            actions: assign(noChallenge),
          },
          {
            guard: { type: 'endedWith', params: ({ event }) => ({ output: event.output, outcome: 'locked' }) },
            target: 'idle.rejected',
            actions: assign({ ...noChallenge, errorType: ATTEMPTS_EXCEEDED }),
          },
          {
            guard: { type: 'endedWith', params: ({ event }) => ({ output: event.output, outcome: 'notStored' }) },
            target: 'idle.rejected',
            actions: assign({ ...noChallenge, errorType: null }),
          },
          { target: 'idle.ready', actions: assign(noChallenge) },
        ],
      },
    },
    signedIn: {
      description: 'Token stored: the app navigates to /videos.',
      meta: { qa: 'Sesión iniciada: la lista de videos' },
      type: 'final',
      entry: 'goToVideos',
    },
  },
});
