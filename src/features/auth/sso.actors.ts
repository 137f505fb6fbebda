import { fromPromise } from 'xstate';
import { ssoMachine } from '../../../machines/sso/sso.machine.ts';
import type { SsoAnswer, SsoLoginRequest } from '../../../machines/sso/sso.types.ts';
import { api, unwrap } from '../../lib/api/client.ts';
import { clearToken } from '../../lib/auth-token.ts';
import { storeSessionToken } from './token.actors.ts';

/** POST /api/login with {taoToken}: a session token. */
export const authenticateSso = fromPromise<SsoAnswer, SsoLoginRequest>(async ({ input, signal }) => {
  const answer = unwrap(await api.POST('/api/login', { body: { taoToken: input.taoToken }, signal }));
  return { token: answer.token };
});

/**
 * The sso machine with the app's actors and token clearing. Its failure is emitted ('sso.failed'):
 * the component hosting it (SsoGate) hands it to the route, which shows the toast.
 */
export const appSsoMachine = ssoMachine.provide({
  actors: { authenticate: authenticateSso, storeToken: storeSessionToken },
  actions: { clearToken: () => clearToken() },
});
