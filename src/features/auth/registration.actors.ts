import { fromPromise } from 'xstate';
import type { LoginAnswer } from '../../../machines/mfa/mfa.types.ts';
import { registrationMachine } from '../../../machines/registration/registration.machine.ts';
import type { RegisterRequest } from '../../../machines/registration/registration.types.ts';
import { api, unwrap } from '../../lib/api/client.ts';
import { appMfaMachine } from './mfa.actors.ts';
import { storeSessionToken } from './token.actors.ts';

/** POST /api/register with the invitation as `token`: answers like a login (pending token + enrolment). */
export const registerUser = fromPromise<LoginAnswer, RegisterRequest>(async ({ input, signal }) =>
  unwrap(await api.POST('/api/register', { body: input, signal })),
);

export const appRegistrationMachine = registrationMachine.provide({
  actors: { registerUser, storeToken: storeSessionToken, mfa: appMfaMachine },
});
