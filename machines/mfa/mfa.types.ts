import type { components } from '../../contract/openapi.gen.ts';

type Schemas = components['schemas'];

/**
 * `otp` of the login/register answer (the contract's OtpInfo), with `state` widened: a newer server
 * may send a state this client does not know, and the modal handles it (no access).
 */
export type OtpInfo = Omit<Schemas['OtpInfo'], 'state'> & { state: Schemas['OtpState'] | (string & {}) };

/** What the MFA modal needs: the first factor's answer (POST /api/login or /api/register). */
export interface MfaChallenge {
  /** Pending token: only POST /api/mfa accepts it. */
  pendingToken: Schemas['LoginResponse']['token'];
  otp: OtpInfo;
}

export type MfaInput = MfaChallenge;
export interface MfaContext extends MfaChallenge {
  /** Set when the code is accepted. */
  sessionToken: string;
}

export type MfaEvent = { type: 'mfa.submit'; code: string } | { type: 'mfa.cancel' };

/** POST /api/mfa body, and the pending token that authorises the call. */
export type VerifyCodeInput = Schemas['MfaRequest'] & { pendingToken: string };

/** POST /api/mfa answer: the session token (a JWT with claims user and role). */
export type SessionTokenOutput = Schemas['TokenResponse'];

/** How the modal ended; the second-factor machine decides what comes next. */
export type MfaOutput = { outcome: 'verified'; token: string } | { outcome: 'cancelled' } | { outcome: 'locked' };

export type MfaTag = 'busy' | 'error';
