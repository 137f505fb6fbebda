import { fromPromise } from 'xstate';
import { mfaMachine } from '../../../machines/mfa/mfa.machine.ts';
import type { SessionTokenOutput, VerifyCodeInput } from '../../../machines/mfa/mfa.types.ts';
import { secondFactorMachine } from '../../../machines/second-factor/second-factor.machine.ts';
import { storeSessionToken } from './token.actors.ts';
import { loadApiClient } from './sign-in-code.ts';

/** POST /api/mfa, authorised by the pending token of the first factor. */
export const verifyCode = fromPromise<SessionTokenOutput, VerifyCodeInput>(async ({ input, signal }) => {
  const { api, unwrap } = await loadApiClient();
  const { token } = unwrap(
    await api.POST('/api/mfa', {
      body: { user: input.user, mfaCode: input.mfaCode },
      headers: { Authorization: `Bearer ${input.pendingToken}` },
      signal,
    }),
  );
  return { token };
});

export const appMfaMachine = mfaMachine.provide({ actors: { verifyCode } });

/** The MFA modal then the token storage, shared by the login and registration pages. */
export const appSecondFactorMachine = secondFactorMachine.provide({
  actors: { mfa: appMfaMachine, storeToken: storeSessionToken },
});
