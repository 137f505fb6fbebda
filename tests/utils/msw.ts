/**
 * The API as UI tests see it: Mock Service Worker answers the app's real fetch calls, with handlers
 * typed against openapi.yaml (openapi-msw over contract/openapi.gen.ts), so a handler can only
 * match an operation the contract has and only answer what the contract allows.
 *
 * tests/utils/setup-ui.ts starts `server` for every UI test, resets it after each test and fails a
 * test that made a call no handler answered. Tests add their answers with `server.use(http.post(…))`.
 */
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createOpenApiHttp } from 'openapi-msw';
import type { components, paths } from '../../contract/openapi.gen.ts';

type Problem = components['schemas']['Problem'];
type ProblemType = components['schemas']['ProblemType'];
type Me = components['schemas']['Me'];

/** MSW's `http`, typed against openapi.yaml; paths are the contract's (`/api/videos/{id}`). */
export const http = createOpenApiHttp<paths>({ baseUrl: window.location.origin });

/** A problem answer (RFC 9457) as the server gives it: `application/problem+json`, a catalogue type. */
export function problem(status: number, type: ProblemType, detail?: string) {
  const body: Problem = { type, title: type, status, ...(detail ? { detail } : {}) };
  return HttpResponse.json<Problem>(body, { status, headers: { 'Content-Type': 'application/problem+json' } });
}

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/** A session token with the claims the app reads (user, role); the signature is never checked in the browser. */
export function sessionToken({ user = 'ana', role = 'user' }: { user?: string; role?: 'admin' | 'user' } = {}) {
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ user, role })}.signature`;
}

/** GET /api/me of the default handlers. */
export const ME: Me = { id: 1, user: 'ana', nombre: 'Ana Pérez', email: null, role: 'user', organizacion: null };

export const XSRF_TOKEN = 'xsrf-test-token';

/** What every test gets unless it says otherwise. */
export const defaultHandlers = [
  http.get('/api/me', ({ response }) => response(200).json(ME)),
  // The server sets the XSRF cookie on any answer; the client asks /api/health for it before its first write.
  http.get('/api/health', ({ response }) => {
    document.cookie = `XSRF-TOKEN=${XSRF_TOKEN}; path=/`;
    return response(200).json({ status: 'ok', version: 'test', database: 'sqlite' });
  }),
  // An empty library: no videos, no tags.
  http.get('/api/videos', ({ response }) => response(200).json([], { headers: { 'X-Total-Count': '0' } })),
  http.get('/api/etiquetas', ({ response }) => response(200).json([])),
  // Leaving the session ends it on the server too.
  http.post('/api/logout', ({ response }) => response(204).empty()),
  http.delete('/api/uploads/{id}', ({ response }) => response(204).empty()),
];

export const server = setupServer(...defaultHandlers);

/** Calls that no handler answered since the last check (setup-ui.ts fails the test that made them). */
export const unhandledCalls: string[] = [];
