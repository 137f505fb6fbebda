import type { components } from '../../contract/openapi.gen.ts';

type Problem = components['schemas']['Problem'];

/**
 * The fields of a problem a machine reads from a rejected actor. The client also makes problems of
 * its own (`network-error`, `timeout`, … with status 0), so `type` is any text, not only the
 * contract's `ProblemType`.
 */
export type ProblemFields = { status?: Problem['status']; type?: Problem['type'] | (string & {}) };

/** Problem type of a locked sign-in (five wrong codes, or too many login attempts). */
export const ATTEMPTS_EXCEEDED = 'number-of-login-attempts-exceeded' satisfies Problem['type'];

/** Reads `status` and `type` from whatever an actor rejected with (an ApiError, a plain problem, anything). */
export function problemOf(error: unknown): ProblemFields {
  if (typeof error !== 'object' || error === null) return {};
  const { status, type } = error as Record<string, unknown>;
  return {
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof type === 'string' ? { type } : {}),
  };
}

/** The problem `type` an actor rejected with, or null (the page then shows the generic error). */
export function problemType(error: unknown): string | null {
  return problemOf(error).type ?? null;
}
