import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { ME, XSRF_TOKEN, http, problem, server } from '../../../tests/utils/msw.ts';
import { ApiError, REQUEST_TIMEOUT_MS, api, onApiProblem, unwrap } from './client.ts';

/** Records the requests the API saw (MSW's lifecycle events), in order. */
function recordRequests() {
  const requests: Request[] = [];
  const onStart = ({ request }: { request: Request }) => void requests.push(request);
  server.events.on('request:start', onStart);
  return requests;
}

const paths = (requests: Request[]) => requests.map((request) => `${request.method} ${new URL(request.url).pathname}`);

/** A handler that never answers: the call ends only by time-out or abort. */
const neverAnswers = () => new Promise<never>(() => {});

let problems: ApiError[];
/** The session token each problem's call was sent with (the session only ends on a refusal of the stored one). */
let sentTokens: (string | null)[];
let unsubscribe: () => void;
let requests: Request[];

beforeEach(() => {
  requests = recordRequests();
  problems = [];
  sentTokens = [];
  unsubscribe = onApiProblem((problem, request) => {
    problems.push(problem);
    sentTokens.push(request.token);
  });
});

afterEach(() => {
  unsubscribe();
  server.events.removeAllListeners();
  vi.useRealTimers();
});

describe('Authorization', () => {
  it('sends the stored session token as a Bearer token', async () => {
    window.localStorage.setItem('token', 'session.jwt');
    await api.GET('/api/me');
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer session.jwt');
  });

  it('sends no Authorization header without a stored token', async () => {
    await api.GET('/api/me');
    expect(requests[0]?.headers.has('Authorization')).toBe(false);
  });

  it('keeps an Authorization header the caller set (the MFA pending token)', async () => {
    window.localStorage.setItem('token', 'session.jwt');
    server.use(http.post('/api/mfa', ({ response }) => response(200).json({ token: 'session.jwt' })));
    await api.POST('/api/mfa', { body: { user: 'ana', mfaCode: '123456' }, headers: { Authorization: 'Bearer pending.jwt' } });
    expect(requests.at(-1)?.headers.get('Authorization')).toBe('Bearer pending.jwt');
  });
});

describe('X-XSRF-TOKEN', () => {
  beforeEach(() => {
    server.use(
      http.post('/api/etiquetas', ({ response }) => response(201).json({ id: 1, nombre: 'Cine' })),
      http.delete('/api/etiquetas/{id}', ({ response }) => response(204).empty()),
    );
  });

  it('is not sent on GET', async () => {
    document.cookie = 'XSRF-TOKEN=x1';
    await api.GET('/api/me');
    expect(requests[0]?.headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('copies the XSRF-TOKEN cookie on writes', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D123';
    await api.POST('/api/etiquetas', { body: { nombre: 'Cine' } });
    await api.DELETE('/api/etiquetas/{id}', { params: { path: { id: 3 } } });
    expect(paths(requests)).toEqual(['POST /api/etiquetas', 'DELETE /api/etiquetas/3']);
    expect(requests.map((request) => request.headers.get('X-XSRF-TOKEN'))).toEqual(['abc=123', 'abc=123']);
  });

  it('without the cookie, first asks /api/health once for it (concurrent writes share that call)', async () => {
    await Promise.all([
      api.POST('/api/etiquetas', { body: { nombre: 'Cine' } }),
      api.POST('/api/etiquetas', { body: { nombre: 'Teatro' } }),
    ]);
    expect(paths(requests)).toEqual(['GET /api/health', 'POST /api/etiquetas', 'POST /api/etiquetas']);
    expect(requests[0]?.credentials).toBe('same-origin');
    expect(requests.slice(1).map((request) => request.headers.get('X-XSRF-TOKEN'))).toEqual([XSRF_TOKEN, XSRF_TOKEN]);
  });
});

describe('time-out', () => {
  it('is 30000 ms and ends the call with an ApiError (status 0, type timeout) that listeners get', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.use(http.get('/api/me', neverAnswers));
    const call = api.GET('/api/me');
    const settled = vi.fn();
    call.then(settled, settled);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, type: 'timeout' });
    expect(problems).toEqual([error]);
  });

  it('an abort asked for by the caller is an ApiError of type aborted, not reported to listeners', async () => {
    server.use(http.get('/api/me', neverAnswers));
    const controller = new AbortController();
    const call = api.GET('/api/me', { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ status: 0, type: 'aborted' });
    expect(problems).toEqual([]);
  });
});

describe('errors', () => {
  it('a network failure is an ApiError (status 0, type network-error), published', async () => {
    server.use(http.get('/api/me', () => HttpResponse.error()));
    const error = await api.GET('/api/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, type: 'network-error' });
    expect(problems).toEqual([error]);
  });

  it('a problem+json answer becomes the ApiError that unwrap throws and listeners get', async () => {
    server.use(http.get('/api/me', () => problem(401, 'invalid-access-token', 'The token has expired')));
    const result = await api.GET('/api/me');
    expect(result.response.headers.get('Content-Type')).toBe('application/problem+json');
    let thrown: unknown;
    try {
      unwrap(result);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({
      status: 401,
      type: 'invalid-access-token',
      title: 'invalid-access-token',
      detail: 'The token has expired',
      message: 'The token has expired',
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toBe(thrown);
  });

  it('tells listeners which session token the refused call carried, or none', async () => {
    server.use(http.get('/api/me', () => problem(401, 'invalid-access-token', 'The token has expired')));
    await api.GET('/api/me');
    window.localStorage.setItem('token', 'session.jwt');
    await api.GET('/api/me');
    await api.GET('/api/me', { headers: { Authorization: 'Bearer pending.jwt' } });
    expect(sentTokens).toEqual([null, 'session.jwt', 'pending.jwt']);
  });

  it('an error answer without a problem body still gets its status', async () => {
    // A proxy's page, not the server's problem: outside the contract, hence `untyped`.
    server.use(
      http.get('/api/me', ({ response }) =>
        response.untyped(new HttpResponse('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' })),
      ),
    );
    const result = await api.GET('/api/me');
    expect(() => unwrap(result)).toThrow(expect.objectContaining({ status: 502, type: 'about:blank' }));
    expect(problems.map((p) => p.status)).toEqual([502]);
  });

  it('a problem names the method of the failed call, so only failed reads count as loading errors', async () => {
    document.cookie = 'XSRF-TOKEN=x1';
    server.use(
      http.get('/api/me', () => problem(500, 'internal-server-error')),
      http.delete('/api/etiquetas/{id}', () => problem(500, 'internal-server-error')),
    );
    await api.GET('/api/me');
    await api.DELETE('/api/etiquetas/{id}', { params: { path: { id: 3 } } });
    expect(problems.map((p) => p.method)).toEqual(['GET', 'DELETE']);
  });

  it('a success is unwrapped to its data and reported to no one', async () => {
    const me = unwrap(await api.GET('/api/me'));
    expectTypeOf(me).toEqualTypeOf<components['schemas']['Me']>();
    expect(me).toEqual(ME);
    expect(problems).toEqual([]);
  });

  it('stops calling a listener once it unsubscribes', async () => {
    unsubscribe();
    server.use(http.get('/api/me', () => problem(500, 'internal-server-error')));
    await api.GET('/api/me');
    expect(problems).toEqual([]);
  });
});

describe('reads asked for before the app started (src/early-requests.ts)', () => {
  const early = (path: string, authorization: string, body: unknown) => ({
    url: new URL(path, window.location.origin).href,
    authorization,
    response: Promise.resolve(new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })),
  });
  afterEach(() => {
    delete window.__taoEarlyRequests;
  });

  it('answers the same GET with the same token from the early response, once; the next one asks the server', async () => {
    window.localStorage.setItem('token', 'session.jwt');
    const asked = { ...ME, nombre: 'Asked early' };
    window.__taoEarlyRequests = [early('/api/me', 'Bearer session.jwt', asked)];
    expect(unwrap(await api.GET('/api/me'))).toEqual(asked);
    expect(requests).toHaveLength(0);
    expect(unwrap(await api.GET('/api/me'))).toEqual(ME);
    expect(paths(requests)).toEqual(['GET /api/me']);
  });

  it('does not use an early response asked with another token, or for another address', async () => {
    window.localStorage.setItem('token', 'session.jwt');
    window.__taoEarlyRequests = [early('/api/me', 'Bearer someone-else.jwt', { ...ME, nombre: 'Other' }), early('/api/etiquetas', 'Bearer session.jwt', [])];
    expect(unwrap(await api.GET('/api/me'))).toEqual(ME);
    expect(paths(requests)).toEqual(['GET /api/me']);
    expect(window.__taoEarlyRequests).toHaveLength(2);
  });

  it('reports an early problem answer as the server\'s (401: the session has expired)', async () => {
    window.localStorage.setItem('token', 'session.jwt');
    window.__taoEarlyRequests = [
      {
        url: new URL('/api/me', window.location.origin).href,
        authorization: 'Bearer session.jwt',
        response: Promise.resolve(
          new Response(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401 }), { status: 401, headers: { 'Content-Type': 'application/problem+json' } }),
        ),
      },
    ];
    const result = await api.GET('/api/me');
    expect(result.response.status).toBe(401);
    expect(problems.map((problem) => problem.status)).toEqual([401]);
    expect(requests).toHaveLength(0);
  });
});
