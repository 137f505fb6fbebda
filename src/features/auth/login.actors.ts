import { fromPromise } from 'xstate';
import { loginMachine } from '../../../machines/login/login.machine.ts';
import type { Credentials, LoginAnswer } from '../../../machines/login/login.types.ts';
import { appSecondFactorMachine } from './mfa.actors.ts';
import { loadApiClient } from './sign-in-code.ts';

/** POST /api/login with user and password: a pending token and the OTP state. */
export const submitLogin = fromPromise<LoginAnswer, Credentials>(async ({ input, signal }) => {
  const { api, unwrap } = await loadApiClient();
  const answer = unwrap(await api.POST('/api/login', { body: { user: input.user, password: input.password }, signal }));
  if (!('otp' in answer)) throw new Error('POST /api/login answered without the OTP state');
  return answer;
});

/** The login machine with the app's actors; the page supplies its navigation action. */
export const appLoginMachine = loginMachine.provide({
  actors: { submitLogin, secondFactor: appSecondFactorMachine },
});
