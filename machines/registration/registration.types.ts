import type { components } from '../../contract/openapi.gen.ts';
import type { MfaChallenge } from '../mfa/mfa.types.ts';

export type RegistrationField = 'user' | 'password' | 'confirmation';

export type RegistrationValues = Record<RegistrationField, string>;

/** Which R-AUTH-6 rule a field breaks: the page maps 'required' and 'mismatch' to their Spanish texts. */
export type FieldError = 'required' | 'mismatch';

export type FieldErrors = Partial<Record<RegistrationField, FieldError>>;

export interface RegistrationInput {
  /** The ?invitation= query parameter, sent as `token`. */
  invitation: string;
}

/** POST /api/register body (the invitation as `token`). */
export type RegisterRequest = components['schemas']['RegisterRequest'];

/** POST /api/register answer: like a login, a pending token and the OTP state (enrolment). */
export type RegisterAnswer = components['schemas']['LoginResponse'];

export interface RegistrationContext extends MfaChallenge {
  invitation: string;
  values: RegistrationValues;
  /** Fields the user has changed or left: their messages show. */
  touched: Record<RegistrationField, boolean>;
  /** The user tried to submit: every message shows. */
  submitted: boolean;
  /** Problem type of the last register failure; null for the generic error. */
  errorType: string | null;
}

export type RegistrationEvent =
  | { type: 'registration.change'; field: RegistrationField; value: string }
  | { type: 'registration.blur'; field: RegistrationField }
  | { type: 'registration.submit' };

export type RegistrationTag = 'busy' | 'error';
