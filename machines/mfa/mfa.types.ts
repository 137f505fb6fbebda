/** The second-factor state the server reports for the account (SPEC.md §3). */
export type OtpState = 'OTP_DISABLED' | 'OTP_REQUIRED' | 'OTP_ACTIVED';

/** `otp` of the login/register answer. `state` is a string: an unknown state is possible and handled. */
export interface OtpInfo {
  state: OtpState | (string & {});
  /** otpauth:// URI of a fresh secret, sent for OTP_DISABLED and OTP_REQUIRED. */
  uri?: string;
  user: string;
}

/** POST /api/login (user, password) and POST /api/register answer: a pending token and the OTP state. */
export interface LoginAnswer {
  token: string;
  otp: OtpInfo;
}

/** Input of the app's storeToken actor (login, registration, single sign-on). */
export interface StoreTokenInput {
  token: string;
}

/** What the MFA modal needs: the first factor's answer. */
export interface MfaChallenge {
  /** Pending token: only POST /api/mfa accepts it. */
  pendingToken: string;
  otp: OtpInfo;
}

export type MfaInput = MfaChallenge;
export interface MfaContext extends MfaChallenge {
  /** Set when the code is accepted. */
  sessionToken: string;
}

export type MfaEvent = { type: 'mfa.submit'; code: string } | { type: 'mfa.cancel' };

export interface VerifyCodeInput {
  pendingToken: string;
  user: string;
  mfaCode: string;
}

export interface SessionTokenOutput {
  /** The session token (a JWT with claims user and role). */
  token: string;
}

/** How the modal ended; the parent (login or registration) decides what comes next. */
export type MfaOutput = { outcome: 'verified'; token: string } | { outcome: 'cancelled' } | { outcome: 'locked' };

/** The fields of a problem+json answer the machines look at. Actors reject with an object carrying them. */
export interface Problem {
  status?: number;
  type?: string;
}

export type MfaTag = 'busy' | 'error';
