import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ApiError, REQUEST_TIMEOUT_MS, api, onApiProblem, unwrap } from './client.ts';
import type { components } from '../../../contract/openapi.gen.ts';

type FetchDouble = (input: Request | string, init?: RequestInit) => Promise<Response>;

const json = (body: unknown, status = 200, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': type } });

const clearXsrfCookie = () => {
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
};

/** The Request the client handed to fetch for call n (health priming calls pass a string). */
const requestOf = (fetchDouble: ReturnType<typeof vi.fn<FetchDouble>>, n = 0) => {
  const input = fetchDouble.mock.calls[n]?.[0];
  if (!(input instanceof Request)) throw new Error(`call ${n} was not an API Request: ${String(input)}`);
  return input;
};

/** A server that never answers: like fetch, it rejects with the signal's reason once aborted. */
const neverAnswers: FetchDouble = (_input, init) =>
  new Promise((_resolve, reject) => {
    const signal = init?.signal;
    if (signal?.aborted) reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason));
  });

let fetchDouble: ReturnType<typeof vi.fn<FetchDouble>>;
let problems: ApiError[];
let unsubscribe: () => void;

beforeEach(() => {
  fetchDouble = vi.fn<FetchDouble>(async () => json({ nombre: 'Ana', role: 'user' }));
  vi.stubGlobal('fetch', fetchDouble);
  problems = [];
  unsubscribe = onApiProblem((problem) => problems.push(problem));
});

afterEach(() => {
  unsubscribe();
  clearXsrfCookie();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Authorization', () => {
  it('sends the stored session token as a Bearer token', async () => {
    window.localStorage.setItem('token', 'session.jwt');
    await api.GET('/api/me');
    expect(requestOf(fetchDouble).headers.get('Authorization')).toBe('Bearer session.jwt');
  });

  it('sends no Authorization header without a stored token', async () => {
    await api.GET('/api/me');
    expect(requestOf(fetchDouble).headers.has('Authorization')).toBe(false);
  });

  it('keeps an Authorization header the caller set (the MFA pending token)', async () => {
    window.localStorage.setItem('token', 'session.jwt');
    document.cookie = 'XSRF-TOKEN=x1';
    await api.POST('/api/mfa', {
      body: { user: 'ana', mfaCode: '123456' },
      headers: { Authorization: 'Bearer pending.jwt' },
    });
    expect(requestOf(fetchDouble).headers.get('Authorization')).toBe('Bearer pending.jwt');
  });
});

describe('X-XSRF-TOKEN', () => {
  it('is not sent on GET', async () => {
    document.cookie = 'XSRF-TOKEN=x1';
    await api.GET('/api/me');
    expect(requestOf(fetchDouble).headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('copies the XSRF-TOKEN cookie on writes', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D123';
    await api.POST('/api/etiquetas', { body: { nombre: 'Cine' } });
    await api.DELETE('/api/etiquetas/{id}', { params: { path: { id: 3 } } });
    expect(fetchDouble).toHaveBeenCalledTimes(2);
    expect(requestOf(fetchDouble, 0).headers.get('X-XSRF-TOKEN')).toBe('abc=123');
    expect(requestOf(fetchDouble, 1).headers.get('X-XSRF-TOKEN')).toBe('abc=123');
  });

  it('without the cookie, first asks /api/health once for it (concurrent writes share that call)', async () => {
    fetchDouble.mockImplementation(async (input) => {
      if (input === '/api/health') {
        document.cookie = 'XSRF-TOKEN=fresh';
        return json({ status: 'ok', version: '1', database: 'ok' });
      }
      return json({ id: 1, nombre: 'Cine' }, 201);
    });
    await Promise.all([
      api.POST('/api/etiquetas', { body: { nombre: 'Cine' } }),
      api.POST('/api/etiquetas', { body: { nombre: 'Teatro' } }),
    ]);
    const healthCalls = fetchDouble.mock.calls.filter(([input]) => input === '/api/health');
    expect(healthCalls).toHaveLength(1);
    expect(healthCalls[0]?.[1]).toMatchObject({ credentials: 'same-origin' });
    expect(fetchDouble.mock.calls[0]?.[0]).toBe('/api/health');
    const writes = fetchDouble.mock.calls.map(([input]) => input).filter((input) => input instanceof Request);
    expect(writes.map((request) => request.headers.get('X-XSRF-TOKEN'))).toEqual(['fresh', 'fresh']);
  });
});

describe('time-out', () => {
  it('is 30000 ms and ends the call with an ApiError (status 0, type timeout) that listeners get', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30000);
    vi.useFakeTimers();
    fetchDouble.mockImplementation(neverAnswers);
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
    fetchDouble.mockImplementation(neverAnswers);
    const controller = new AbortController();
    const call = api.GET('/api/me', { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ status: 0, type: 'aborted' });
    expect(problems).toEqual([]);
  });
});

describe('errors', () => {
  it('a network failure is an ApiError (status 0, type network-error), published', async () => {
    fetchDouble.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await api.GET('/api/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, type: 'network-error' });
    expect(problems).toEqual([error]);
  });

  it('a problem+json answer becomes the ApiError that unwrap throws and listeners get', async () => {
    fetchDouble.mockResolvedValue(
      json(
        { type: 'invalid-access-token', title: 'Unauthorized', status: 401, detail: 'The token has expired' },
        401,
        'application/problem+json',
      ),
    );
    const result = await api.GET('/api/me');
    expect(() => unwrap(result)).toThrow(ApiError);
    let thrown: unknown;
    try {
      unwrap(result);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      status: 401,
      type: 'invalid-access-token',
      title: 'Unauthorized',
      detail: 'The token has expired',
      message: 'The token has expired',
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toBe(thrown);
  });

  it('an error answer without a problem body still gets its status', async () => {
    fetchDouble.mockResolvedValue(new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const result = await api.GET('/api/me');
    expect(() => unwrap(result)).toThrow(expect.objectContaining({ status: 502, type: 'about:blank' }));
    expect(problems.map((p) => p.status)).toEqual([502]);
  });

  it('a problem names the method of the failed call, so only failed reads count as loading errors', async () => {
    fetchDouble.mockImplementation(async () => new Response('oops', { status: 500 }));
    await api.GET('/api/me');
    await api.DELETE('/api/etiquetas/{id}', { params: { path: { id: 3 } } });
    expect(problems.map((p) => p.method)).toEqual(['GET', 'DELETE']);
  });

  it('a success is unwrapped to its data and reported to no one', async () => {
    const me = unwrap(await api.GET('/api/me'));
    expectTypeOf(me).toEqualTypeOf<components['schemas']['Me']>();
    expect(me).toEqual({ nombre: 'Ana', role: 'user' });
    expect(problems).toEqual([]);
  });

  it('stops calling a listener once it unsubscribes', async () => {
    unsubscribe();
    fetchDouble.mockResolvedValue(json({ type: 'internal-server-error', title: 'Error', status: 500 }, 500));
    await api.GET('/api/me');
    expect(problems).toEqual([]);
  });
});
