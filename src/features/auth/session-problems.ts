import type { SessionEvent } from '../../../machines/session/session.types.ts';

/** What the session needs to know about a failed API call. */
export interface ApiProblemLike {
  /** HTTP status; 0 or absent for a network error or a time-out. */
  status?: number;
  /** HTTP method when known: only reads count as data-loading errors. */
  method?: string;
}

/**
 * R-SES-2: a 401 or 403 answer from any call means the session expired. The API client's
 * problem listener sends it at once (reads do not retry 4xx answers anyway).
 */
export function expiryEventFor(problem: ApiProblemLike): SessionEvent | null {
  const status = problem.status ?? 0;
  return status === 401 || status === 403 ? { type: 'session.expired' } : null;
}

/**
 * R-SES-3: a read that failed with a server error (>= 500), a network error or a time-out shows
 * 'Error obteniendo datos'. The query cache sends it once, when a read has failed after its retries.
 * Other 4xx answers (form validation, not found) and failed writes are left to the screen that made
 * the call. The session machine ignores both events outside the authenticated area, so the login,
 * MFA and registration calls never open these dialogs.
 */
export function loadErrorEventFor(problem: ApiProblemLike): SessionEvent | null {
  const status = problem.status ?? 0;
  const isRead = problem.method === undefined || problem.method.toUpperCase() === 'GET';
  return isRead && (status === 0 || status >= 500) ? { type: 'session.load-error' } : null;
}

/** Either event: what a failed call means to the session. */
export function sessionEventFor(problem: ApiProblemLike): SessionEvent | null {
  return expiryEventFor(problem) ?? loadErrorEventFor(problem);
}
