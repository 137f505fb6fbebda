import { assign, emit, fromPromise, setup } from 'xstate';
import { problemType } from '../shared/problem.ts';
import type { StoreTokenInput } from '../shared/session-token.types.ts';
import type { SsoAnswer, SsoContext, SsoEmitted, SsoInput, SsoLoginRequest, SsoTag } from './sso.types.ts';

/**
 * Single sign-on (R-AUTH-8) in front of the authenticated area. With an `xwikiid` in the
 * address its value is exchanged for a session token while a logo splash shows; on success
 * the token is stored and the parameter removed from the address. On failure it emits
 * 'sso.failed' (the host shows a persistent error toast) and the area behaves as without a token
 * (the stored one is cleared, so the session machine shows 'Sesión expirada'). Without `xwikiid`
 * the content shows at once.
 */
export const ssoMachine = setup({
  types: {} as {
    context: SsoContext;
    // No events of its own: it runs from the address, on its actors' answers.
    input: SsoInput;
    emitted: SsoEmitted;
    tags: SsoTag;
  },
  actors: {
    authenticate: fromPromise<SsoAnswer, SsoLoginRequest>(async () => {
      throw new Error('authenticate is supplied by the app with .provide()');
    }),
    storeToken: fromPromise<void, StoreTokenInput>(async () => {
      throw new Error('storeToken is supplied by the app with .provide()');
    }),
  },
  actions: {
    removeSsoToken: () => {
      throw new Error('removeSsoToken is supplied by the app with .provide()');
    },
    clearToken: () => {
      throw new Error('clearToken is supplied by the app with .provide()');
    },
    notifyFailure: emit(({ context }) => ({ type: 'sso.failed', errorType: context.errorType }) satisfies SsoEmitted),
  },
  guards: {
    hasSsoToken: ({ context }) => context.ssoToken !== null && context.ssoToken !== '',
  },
}).createMachine({
  id: 'sso',
  description: 'Single sign-on gate wrapping the authenticated area.',
  context: ({ input }) => ({ ssoToken: input.ssoToken, sessionToken: '', errorType: null }),
  initial: 'checking',
  states: {
    checking: {
      description: 'Looks for an xwikiid in the address.',
      meta: { qa: 'Buscando xwikiid en la dirección' },
      always: [{ guard: 'hasSsoToken', target: 'authenticating' }, { target: 'ready' }],
    },
    authenticating: {
      description: 'POST /api/login with {taoToken}: the logo splash shows.',
      meta: { qa: 'Entrando con el token de XWiki' },
      tags: ['busy'],
      invoke: {
        id: 'authenticate',
        src: 'authenticate',
        input: ({ context }) => ({ taoToken: context.ssoToken ?? '' }),
        onDone: {
          target: 'storingToken',
          actions: assign({ sessionToken: ({ event }) => event.output.token }),
        },
        onError: {
          target: 'rejected',
          actions: assign({ errorType: ({ event }) => problemType(event.error) }),
        },
      },
    },
    storingToken: {
      description: 'Storing the session token; the splash still shows.',
      meta: { qa: 'Guardando la sesión' },
      tags: ['busy'],
      invoke: {
        id: 'storeToken',
        src: 'storeToken',
        input: ({ context }) => ({ token: context.sessionToken }),
        onDone: { target: 'ready', actions: 'removeSsoToken' },
        onError: { target: 'rejected' },
      },
    },
    ready: {
      description: 'The authenticated content renders.',
      meta: { qa: 'Contenido del área autenticada' },
      type: 'final',
    },
    rejected: {
      description: "Sign-on failed: 'sso.failed' is emitted (a persistent error toast), the stored token is cleared, and the area shows 'Sesión expirada'.",
      meta: { qa: 'Inicio de sesión único fallido' },
      type: 'final',
      entry: ['notifyFailure', 'clearToken'],
    },
  },
});
