/**
 * The session token of R-SES-1: kept in localStorage under 'token'.
 * The role and user are read from its (unverified) claims for display and
 * route guards; the server verifies the signature on every call.
 */
const TOKEN_KEY = 'token';

export interface TokenClaims {
  user: string;
  role: 'admin' | 'user' | string;
  exp?: number;
}

export function getToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Stores the token; returns false when the browser refuses to store it. */
export function storeToken(token: string): boolean {
  try {
    window.localStorage.setItem(TOKEN_KEY, token);
    return window.localStorage.getItem(TOKEN_KEY) === token;
  } catch {
    return false;
  }
}

export function clearToken(): void {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage unavailable: nothing to clear */
  }
}

function base64UrlDecode(part: string): string {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Decodes the claims of a JWT; null when the token cannot be decoded. */
export function decodeClaims(token: string | null): TokenClaims | null {
  if (!token) return null;
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(base64UrlDecode(payload)) as Partial<TokenClaims>;
    if (typeof claims.user !== 'string' || typeof claims.role !== 'string') return null;
    return claims as TokenClaims;
  } catch {
    return null;
  }
}
