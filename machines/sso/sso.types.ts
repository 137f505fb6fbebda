export interface SsoInput {
  /** The `xwikiid` query parameter; null when the address has none. */
  ssoToken: string | null;
}

export interface SsoContext extends SsoInput {
  /** The session token POST /api/login answered, until it is stored. */
  sessionToken: string;
  /** Problem type of the failure (mapped to the §8 toast text by the app); null for the generic error. */
  errorType: string | null;
}

/** POST /api/login body for single sign-on. */
export interface SsoLoginRequest {
  taoToken: string;
}

export interface SsoAnswer {
  token: string;
}

export interface StoreTokenInput {
  token: string;
}

/** Params of the provided `notifyFailure` action. */
export interface SsoFailure {
  errorType: string | null;
}

export type SsoTag = 'busy';
