import type { MfaChallenge } from '../mfa/mfa.types.ts';

export interface Credentials {
  user: string;
  password: string;
}

export interface LoginContext extends MfaChallenge {
  /** The session token the MFA step answered, until it is stored. */
  sessionToken: string;
  /** Problem type of the last failure (mapped to §8 text by the page); null for the generic error. */
  errorType: string | null;
}

export type LoginEvent = { type: 'login.submit' } & Credentials;

export type LoginTag = 'busy' | 'error';
