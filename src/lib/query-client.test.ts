import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, QueryObserver, type QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/api-error.ts';
import { createQueryClient, retryDelay, statisticsQueryDefaults } from './query-client.ts';

const serverError = () => new ApiError({ status: 500, type: 'internal-server-error' });
const badRequest = () => new ApiError({ status: 400, type: 'validation-error' });

let client: QueryClient;

beforeEach(() => {
  vi.useFakeTimers();
  client = createQueryClient();
});

afterEach(() => {
  client.clear();
  vi.useRealTimers();
});

/** Runs a query through an observer (as a component would) until its retries are spent. */
async function callsUntilSettled(queryFn: () => Promise<unknown>, options: object = {}) {
  const times: number[] = [];
  const fn = vi.fn(() => {
    times.push(Date.now());
    return queryFn();
  });
  const observer = new QueryObserver(client, { queryKey: ['q'], queryFn: fn, ...options });
  const stop = observer.subscribe(() => {});
  await vi.advanceTimersByTimeAsync(10 * 60 * 1000);
  stop();
  return { calls: fn.mock.calls.length, times, status: observer.getCurrentResult().status };
}

describe('createQueryClient', () => {
  it('keeps data 5 minutes fresh and cached', () => {
    const { queries } = client.getDefaultOptions();
    expect(queries?.staleTime).toBe(300000);
    expect(queries?.gcTime).toBe(300000);
  });

  it('backs off 1 s, 2 s, 4 s … capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('retries a failing read 3 times with the doubling back-off', async () => {
    const { calls, times, status } = await callsUntilSettled(() => Promise.reject(serverError()));
    expect(calls).toBe(4);
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([1000, 2000, 4000]);
    expect(status).toBe('error');
  });

  it('does not retry a 4xx answer (asking again gets the same answer)', async () => {
    const { calls, status } = await callsUntilSettled(() => Promise.reject(badRequest()));
    expect(calls).toBe(1);
    expect(status).toBe('error');
  });

  it('reports a failing read once, after its retries, with the last error', async () => {
    const onReadError = vi.fn();
    client = createQueryClient({ onReadError });
    const errors = [serverError(), serverError(), serverError(), new ApiError({ status: 0, type: 'timeout' })];
    let call = 0;
    const fn = vi.fn(() => Promise.reject(errors[call++]));
    const stop = new QueryObserver(client, { queryKey: ['q'], queryFn: fn }).subscribe(() => {});
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 - 1);
    expect(fn).toHaveBeenCalledTimes(3);
    expect(onReadError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fn).toHaveBeenCalledTimes(4);
    expect(onReadError).toHaveBeenCalledOnce();
    expect(onReadError).toHaveBeenCalledWith(errors[3]);
    stop();
  });

  it("leaves a read with meta.reportsOwnErrors to its screen (a dialog's list), and reports the others", async () => {
    const onReadError = vi.fn();
    client = createQueryClient({ onReadError });
    const failing = () => Promise.reject(serverError());
    await client.fetchQuery({ queryKey: ['own'], queryFn: failing, retry: false, meta: { reportsOwnErrors: true } }).catch(() => {});
    expect(client.getQueryState(['own'])?.status).toBe('error');
    expect(onReadError).not.toHaveBeenCalled();
    await client.fetchQuery({ queryKey: ['app'], queryFn: failing, retry: false }).catch(() => {});
    expect(onReadError).toHaveBeenCalledOnce();
  });

  it('does not report a read that was cancelled or aborted', async () => {
    const onReadError = vi.fn();
    client = createQueryClient({ onReadError });
    const stop = new QueryObserver(client, { queryKey: ['q'], queryFn: () => new Promise(() => {}) }).subscribe(() => {});
    await client.cancelQueries({ queryKey: ['q'] }, { revert: false });
    const aborted = () => Promise.reject(new ApiError({ status: 0, type: 'aborted' }));
    await client.fetchQuery({ queryKey: ['a'], queryFn: aborted, retry: false }).catch(() => {});
    await vi.advanceTimersByTimeAsync(60000);
    stop();
    expect(client.getQueryState(['q'])?.status).toBe('error');
    expect(onReadError).not.toHaveBeenCalled();
  });

  it('never retries a write', async () => {
    const mutationFn = vi.fn(() => Promise.reject(serverError()));
    const observer = new MutationObserver(client, { mutationFn });
    await expect(observer.mutate()).rejects.toBeInstanceOf(ApiError);
    await vi.advanceTimersByTimeAsync(60000);
    expect(mutationFn).toHaveBeenCalledTimes(1);
  });
});

describe('statisticsQueryDefaults', () => {
  it('retries a failing statistics read at most 2 times', async () => {
    const { calls } = await callsUntilSettled(() => Promise.reject(serverError()), statisticsQueryDefaults);
    expect(calls).toBe(3);
  });

  it('does not retry a 4xx answer', async () => {
    const { calls } = await callsUntilSettled(() => Promise.reject(badRequest()), statisticsQueryDefaults);
    expect(calls).toBe(1);
  });

  it('retries network failures and time-outs (status 0)', () => {
    expect(statisticsQueryDefaults.retry(0, new ApiError({ status: 0, type: 'timeout' }))).toBe(true);
    expect(statisticsQueryDefaults.retry(1, new ApiError({ status: 0, type: 'network-error' }))).toBe(true);
    expect(statisticsQueryDefaults.retry(2, new ApiError({ status: 0, type: 'network-error' }))).toBe(false);
    expect(statisticsQueryDefaults.retry(0, new ApiError({ status: 404, type: 'resource-not-found' }))).toBe(false);
    expect(statisticsQueryDefaults.retry(0, new ApiError({ status: 499, type: 'x' }))).toBe(false);
  });

  it('does not refetch on window focus', () => {
    expect(statisticsQueryDefaults.refetchOnWindowFocus).toBe(false);
  });
});
