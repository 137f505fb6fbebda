import { fromPromise } from 'xstate';
import { loginMachine } from '../../../machines/login/login.machine.ts';
import type { Credentials } from '../../../machines/login/login.types.ts';
import type { LoginAnswer } from '../../../machines/mfa/mfa.types.ts';
import { api, unwrap } from '../../lib/api/client.ts';
import { appMfaMachine } from './mfa.actors.ts';
import { storeSessionToken } from './token.actors.ts';

/** POST /api/login with user and password: a pending token and the OTP state. */
export const submitLogin = fromPromise<LoginAnswer, Credentials>(async ({ input, signal }) => {
  const answer = unwrap(await api.POST('/api/login', { body: { user: input.user, password: input.password }, signal }));
  if (!('otp' in answer)) throw new Error('POST /api/login answered without the OTP state');
  return answer;
});

export const appLoginMachine = loginMachine.provide({
  actors: { submitLogin, storeToken: storeSessionToken, mfa: appMfaMachine },
});
