import type { components } from '../../contract/openapi.gen.ts';
import type { MfaChallenge } from '../mfa/mfa.types.ts';

/** POST /api/login body with user and password. */
export type Credentials = components['schemas']['LoginRequest'];

/** POST /api/login answer to user and password: a pending token and the OTP state. */
export type LoginAnswer = components['schemas']['LoginResponse'];

export interface LoginContext extends MfaChallenge {
  /** Problem type of the last failure (mapped to R-AUTH-2 text by the page); null for the generic error. */
  errorType: string | null;
}

export type LoginEvent = { type: 'login.submit' } & Credentials;

export type LoginTag = 'busy' | 'error';
