import type { MfaChallenge } from '../mfa/mfa.types.ts';

export type SecondFactorInput = MfaChallenge;

export interface SecondFactorContext extends MfaChallenge {
  /** The session token the MFA step answered, until it is stored. */
  sessionToken: string;
}

/**
 * How the second factor ended: the session token is stored (verified), the user closed the modal
 * (cancelled), too many attempts (locked), or the browser refused to store the token (notStored).
 * Login and registration each decide what the user sees next.
 */
export type SecondFactorOutput =
  | { outcome: 'verified' }
  | { outcome: 'cancelled' }
  | { outcome: 'locked' }
  | { outcome: 'notStored' };

export type SecondFactorOutcome = SecondFactorOutput['outcome'];

export type SecondFactorTag = 'busy';
