import { afterEach, describe, expect, it, vi } from 'vitest';
import { settledOrAfter } from './yield-to-browser.ts';

describe('settledOrAfter', () => {
  afterEach(() => vi.useRealTimers());

  it('resolves as soon as the work is done, or has failed, without waiting for the time limit', async () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const done = settledOrAfter(Promise.resolve('loaded'), 1000).then(() => order.push('done'));
    const failed = settledOrAfter(Promise.reject(new Error('no route')), 1000).then(() => order.push('failed'));
    await Promise.all([done, failed]);
    expect(order.sort()).toEqual(['done', 'failed']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves once the time limit has passed while the work goes on', async () => {
    vi.useFakeTimers();
    let resolved = false;
    const waiting = settledOrAfter(new Promise(() => {}), 1000).then(() => (resolved = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(resolved).toBe(true);
  });
});
