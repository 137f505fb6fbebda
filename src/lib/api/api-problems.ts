import type { ApiError } from './api-error.ts';

/**
 * The API client's problem feed (the session actor turns 401/403 into the 'Sesión expirada'
 * dialog). Apart from client.ts so that the session can subscribe without loading the client.
 */

/** What the failed call was sent with. */
export interface ProblemRequest {
  /** The session token of its Authorization header; null when it was sent without one. */
  token: string | null;
}

type ProblemListener = (error: ApiError, request: ProblemRequest) => void;
const problemListeners = new Set<ProblemListener>();
/** The ApiError already built for a failed response, so `unwrap` throws the same instance listeners saw. */
export const problemOfResponse = new WeakMap<Response, ApiError>();

/** Subscribes to every failed call (status >= 400, network failure, time-out). Returns the unsubscribe function. */
export function onApiProblem(listener: ProblemListener): () => void {
  problemListeners.add(listener);
  return () => {
    problemListeners.delete(listener);
  };
}

/** Tells every listener about a failed call (the client's middleware). */
export function publish(error: ApiError, request: ProblemRequest): void {
  for (const listener of [...problemListeners]) {
    try {
      listener(error, request);
    } catch (listenerError) {
      console.error(listenerError);
    }
  }
}
