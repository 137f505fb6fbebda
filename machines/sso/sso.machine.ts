import { assign, fromPromise, setup } from 'xstate';
import type { SsoAnswer, SsoContext, SsoFailure, SsoInput, SsoLoginRequest, SsoTag, StoreTokenInput } from './sso.types.ts';

/** Reads the problem `type` from whatever an actor rejected with. */
function problemType(error: unknown): string | null {
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : null;
}

/**
 * Single sign-on (SPEC.md §2) in front of the authenticated area. With an `xwikiid` in the
 * address its value is exchanged for a session token while a logo splash shows; on success
 * the token is stored and the parameter removed from the address. On failure a persistent
 * error toast shows and the area behaves as without a token (the stored one is cleared, so
 * the session machine shows 'Sesión expirada'). Without `xwikiid` the content shows at once.
 */
export const ssoMachine = setup({
  types: {} as {
    context: SsoContext;
    // No events of its own: it runs from the address, on its actors' answers.
    input: SsoInput;
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
    removeSsoToken: () => {},
    notifyFailure: (_, _failure: SsoFailure) => {},
    clearToken: () => {},
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
      always: [{ guard: 'hasSsoToken', target: 'authenticating' }, { target: 'ready' }],
    },
    authenticating: {
      description: 'POST /api/login with {taoToken}: the logo splash shows.',
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
      type: 'final',
    },
    rejected: {
      description: "Sign-on failed: a persistent error toast, the stored token is cleared, and the area shows 'Sesión expirada'.",
      type: 'final',
      entry: [{ type: 'notifyFailure', params: ({ context }) => ({ errorType: context.errorType }) }, 'clearToken'],
    },
  },
});
