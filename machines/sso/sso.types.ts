import type { components } from '../../contract/openapi.gen.ts';

export interface SsoInput {
  /** The `xwikiid` query parameter; null when the address has none. */
  ssoToken: string | null;
}

export interface SsoContext extends SsoInput {
  /** The session token POST /api/login answered, until it is stored. */
  sessionToken: string;
  /** Problem type of the failure (mapped to the R-AUTH-8 toast text by the app); null for the generic error. */
  errorType: string | null;
}

/** POST /api/login body for single sign-on. */
export type SsoLoginRequest = components['schemas']['SsoLoginRequest'];

/** POST /api/login answer to single sign-on: the session token. */
export type SsoAnswer = components['schemas']['TokenResponse'];

/**
 * Emitted when single sign-on fails: the component hosting the machine shows the persistent toast
 * (the machine knows no toasts; `errorType` is mapped to the R-AUTH-8 text by the app).
 */
export type SsoEmitted = { type: 'sso.failed'; errorType: string | null };

export type SsoTag = 'busy';
