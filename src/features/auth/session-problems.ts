import type { SessionEvent } from '../../../machines/session/session.types.ts';

/** What the session needs to know about a failed API call. */
export interface ApiProblemLike {
  /** HTTP status; 0 or absent for a network error or a time-out. */
  status?: number;
  /** HTTP method when known: only reads count as data-loading errors. */
  method?: string;
}

/**
 * SPEC.md §4: a 401 or 403 answer means the session expired; a read that fails with a server
 * error (>= 500), a network error or a time-out shows 'Error obteniendo datos'. Other 4xx answers
 * (form validation, not found) and failed writes are left to the screen that made the call.
 * The session machine ignores both events outside the authenticated area, so the login, MFA
 * and registration calls never open these dialogs.
 */
export function sessionEventFor(problem: ApiProblemLike): SessionEvent | null {
  const status = problem.status ?? 0;
  if (status === 401 || status === 403) return { type: 'session.expired' };
  const isRead = problem.method === undefined || problem.method.toUpperCase() === 'GET';
  if (isRead && (status === 0 || status >= 500)) return { type: 'session.load-error' };
  return null;
}
