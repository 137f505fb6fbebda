import type { components } from '../../../contract/openapi.gen.ts';

type Problem = components['schemas']['Problem'];

/** What every failed call turns into: a problem (RFC 9457) from the server, or a transport failure (status 0). */
export interface ApiProblem {
  status: number;
  /** The server's problem type (e.g. 'wrong-password'), or 'network-error' | 'timeout' | 'aborted' | 'about:blank'. */
  type: string;
  title?: string;
  detail?: string;
  /** The HTTP method of the failed call, when known (only failed reads are data-loading errors). */
  method?: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail?: string;
  readonly method?: string;

  constructor({ status, type, title, detail, method }: ApiProblem) {
    super(detail ?? title ?? type);
    this.status = status;
    this.type = type;
    this.title = title ?? type;
    this.detail = detail;
    this.method = method;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as { type?: unknown }).type === 'string';
}

/** An error answer: the problem body when there is one, else a generic problem for the status. */
export function problemFromResponse(status: number, body: unknown, statusText = '', method?: string): ApiError {
  if (isProblem(body)) {
    return new ApiError({
      status,
      type: body.type,
      title: body.title,
      detail: typeof body.detail === 'string' ? body.detail : undefined,
      method,
    });
  }
  return new ApiError({ status, type: 'about:blank', title: statusText || `Request failed with status code ${status}`, method });
}

/** A call that got no answer: time-out, abort by the caller, or network failure. */
export function problemFromFailure(error: unknown, timeoutMs: number, method?: string): ApiError {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  if (name === 'TimeoutError') return new ApiError({ status: 0, type: 'timeout', title: `timeout of ${timeoutMs}ms exceeded`, method });
  if (name === 'AbortError') return new ApiError({ status: 0, type: 'aborted', title: 'Request aborted', method });
  return new ApiError({ status: 0, type: 'network-error', title: 'Network Error', method });
}
