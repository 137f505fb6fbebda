import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpProblem } from '../../plugins/problems.ts';
import { issueSessionToken, verifySessionToken, type SessionClaims } from './tokens.ts';

const key = new TextEncoder().encode('a-session-key-of-at-least-32-bytes-0123456789');
const claims: Omit<SessionClaims, 'sessionId' | 'expiresAt'> = { userId: 7, user: 'ana', role: 'user', tv: 1 };

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) => (error instanceof HttpProblem ? `${error.status} ${error.type}` : String(error)),
  );

describe('session tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('a token verified before is refused from its expiry on', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00.400Z'));
    const token = await issueSessionToken(key, claims, 60);
    expect(await verifySessionToken(key, token)).toMatchObject(claims);
    vi.setSystemTime(new Date('2026-11-22T10:00:59.900Z'));
    expect(await verifySessionToken(key, token)).toMatchObject(claims);
    vi.setSystemTime(new Date('2026-11-22T10:01:00.000Z'));
    expect(await refusal(verifySessionToken(key, token))).toBe('401 invalid-access-token');
    expect(await refusal(verifySessionToken(key, token))).toBe('401 invalid-access-token');
  });

  it('each token carries a session id of its own and its expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00.400Z'));
    const first = await verifySessionToken(key, await issueSessionToken(key, claims, 60));
    const second = await verifySessionToken(key, await issueSessionToken(key, claims, 60));
    expect(first.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(first.expiresAt).toBe(Date.parse('2026-11-22T10:01:00Z') / 1000);
  });

  it('a token verified under one key is refused under another', async () => {
    const token = await issueSessionToken(key, claims, 60);
    expect(await verifySessionToken(key, token)).toMatchObject(claims);
    const other = new TextEncoder().encode('another-session-key-of-at-least-32-bytes-0123');
    expect(await refusal(verifySessionToken(other, token))).toBe('401 invalid-access-token');
  });

  it('a token differing from a verified one by its signature is refused', async () => {
    const token = await issueSessionToken(key, claims, 60);
    expect(await verifySessionToken(key, token)).toMatchObject(claims);
    // a character inside the signature (the last one also carries bits that decoding drops)
    const at = token.length - 5;
    const tampered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    expect(await refusal(verifySessionToken(key, tampered))).toBe('401 invalid-access-token');
  });

  it('what a caller does with the claims does not change what the next request gets', async () => {
    const token = await issueSessionToken(key, claims, 60);
    const first = await verifySessionToken(key, token);
    first.role = 'admin';
    expect(await verifySessionToken(key, token)).toMatchObject(claims);
  });
});
