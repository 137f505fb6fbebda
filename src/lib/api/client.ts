import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../../contract/openapi.gen.ts';
import { getToken } from '../auth-token.ts';
import { takeEarlyResponse } from './early-responses.ts';
import { problemFromFailure, problemFromResponse } from './api-error.ts';
import { problemOfResponse, publish } from './api-problems.ts';

export { ApiError, isApiError } from './api-error.ts';
// The problem feed has its own module: the session subscribes to it from the first screen, which
// does not load this client (openapi-fetch) until the first call.
export { onApiProblem } from './api-problems.ts';

/** R-SES-1: every call gives up after 30 s. */
export const REQUEST_TIMEOUT_MS = 30000;

const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';
const XSRF_PRIMER_URL = '/api/health';

// ---- transport: late-bound fetch (tests replace globalThis.fetch) with the time-out ----

function fetchWithTimeout(input: Request | string, init: RequestInit = {}, early?: Promise<Response>): Promise<Response> {
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException(`timeout of ${REQUEST_TIMEOUT_MS}ms exceeded`, 'TimeoutError')),
    REQUEST_TIMEOUT_MS,
  );
  const callerSignal = init.signal ?? (input instanceof Request ? input.signal : undefined);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout.signal]) : timeout.signal;
  const response = early ? untilAborted(early, signal) : globalThis.fetch(input, { ...init, signal });
  return response.finally(() => clearTimeout(timer));
}

/** A response asked for before the app started (src/lib/api/early-responses.ts), given up as a fetch would be on abort or time-out. */
function untilAborted(response: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    response.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

// ---- XSRF double submit: the server sets the cookie on any response that lacks one ----

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

let xsrfPrimer: Promise<void> | null = null;

async function xsrfToken(): Promise<string | null> {
  const token = readCookie(XSRF_COOKIE);
  if (token) return token;
  // Concurrent writes share one priming call.
  xsrfPrimer ??= fetchWithTimeout(XSRF_PRIMER_URL, { credentials: 'same-origin' })
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => {
      xsrfPrimer = null;
    });
  await xsrfPrimer;
  return readCookie(XSRF_COOKIE);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The session token a request carried (its Bearer credentials), or null. */
function sentToken(request: Request): string | null {
  const authorization = request.headers.get('Authorization');
  return authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : null;
}

const sessionMiddleware: Middleware = {
  async onRequest({ request }) {
    // The MFA call passes the pending token itself: an explicit Authorization header wins.
    if (!request.headers.has('Authorization')) {
      const token = getToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
    }
    if (request.method !== 'GET') {
      const token = await xsrfToken();
      if (token) request.headers.set(XSRF_HEADER, token);
    }
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status < 400) return undefined;
    const problem = problemFromResponse(response.status, await readBody(response), response.statusText, request.method);
    problemOfResponse.set(response, problem);
    publish(problem, { token: sentToken(request) });
    return undefined;
  },
  onError({ request, error }) {
    const problem = problemFromFailure(error, REQUEST_TIMEOUT_MS, request.method);
    // An abort asked for by the caller (e.g. a cancelled query) is not a problem to report.
    if (problem.type !== 'aborted') publish(problem, { token: sentToken(request) });
    return problem;
  },
};

/**
 * The one API client, typed from openapi.yaml. Same origin: the absolute origin (rather than '')
 * only so that Request objects also build outside a browser page (jsdom tests).
 */
export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? '',
  // The page's first reads may have been asked for while this code downloaded: the same GET with the same token is answered by that response, once.
  fetch: (request) => fetchWithTimeout(request, {}, takeEarlyResponse(request)),
});
api.use(sessionMiddleware);

interface ClientResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** `{data, error, response}` → data, or throws the ApiError: `unwrap(await api.GET('/api/me'))`. */
export function unwrap<T>(result: ClientResult<T>): T {
  const { response } = result;
  if (!response.ok || result.error !== undefined) {
    throw problemOfResponse.get(response) ?? problemFromResponse(response.status, result.error, response.statusText);
  }
  return result.data as T;
}
