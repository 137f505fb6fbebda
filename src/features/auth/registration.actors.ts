import { fromPromise } from 'xstate';
import { registrationMachine } from '../../../machines/registration/registration.machine.ts';
import type { RegisterAnswer, RegisterRequest } from '../../../machines/registration/registration.types.ts';
import { appSecondFactorMachine } from './mfa.actors.ts';
import { loadApiClient } from './sign-in-code.ts';

/** POST /api/register with the invitation as `token`: answers like a login (pending token + enrolment). */
export const registerUser = fromPromise<RegisterAnswer, RegisterRequest>(async ({ input, signal }) => {
  const { api, unwrap } = await loadApiClient();
  return unwrap(await api.POST('/api/register', { body: input, signal }));
},
);

/** The registration machine with the app's actors; the page supplies its navigation actions. */
export const appRegistrationMachine = registrationMachine.provide({
  actors: { registerUser, secondFactor: appSecondFactorMachine },
});
