import { fromPromise } from 'xstate';
import { ssoMachine } from '../../../machines/sso/sso.machine.ts';
import type { SsoAnswer, SsoLoginRequest } from '../../../machines/sso/sso.types.ts';
import { api, unwrap } from '../../lib/api/client.ts';
import { clearToken } from '../../lib/auth-token.ts';
import { ssoMessage } from '../../lib/messages.ts';
import { showToast } from '../toast/toast.store.ts';
import { storeSessionToken } from './token.actors.ts';

/** POST /api/login with {taoToken}: a session token. */
export const authenticateSso = fromPromise<SsoAnswer, SsoLoginRequest>(async ({ input, signal }) => {
  const answer = unwrap(await api.POST('/api/login', { body: { taoToken: input.taoToken }, signal }));
  return { token: answer.token };
});

export const appSsoMachine = ssoMachine.provide({
  actors: { authenticate: authenticateSso, storeToken: storeSessionToken },
  actions: {
    // SPEC.md §4: single sign-on toasts are effectively persistent. The toast (an actor of its
    // own) starts after this action, not inside it, as XState asks of custom actions.
    notifyFailure: (_, { errorType }) =>
      queueMicrotask(() => void showToast({ kind: 'error', message: ssoMessage(errorType ?? undefined), persistent: true })),
    clearToken: () => clearToken(),
  },
});
