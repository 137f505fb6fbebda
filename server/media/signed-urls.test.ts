import { describe, expect, it } from 'vitest';
import { checkSignedPath, mediaExpiry, mediaUrl, signPath, signedLocation, streamExpiry, streamPrefix, streamUrl, verifySignedPath } from './signed-urls.ts';

const key = Buffer.from('k'.repeat(48));
const otherKey = Buffer.from('o'.repeat(48));
const ASSET = 'asset_0001';

function parse(url: string) {
  const u = new URL(url, 'http://x');
  return { path: u.pathname, expires: Number(u.searchParams.get('expires')), signature: u.searchParams.get('signature')! };
}

describe('signed media locations', () => {
  const now = Date.UTC(2026, 10, 22, 10, 17, 5);

  it('has the contract shape: path, unix expiry, 43-character base64url signature', () => {
    const url = mediaUrl(key, ASSET, 'video.mp4', now);
    expect(url).toMatch(/^\/api\/media\/asset_0001\/video\.mp4\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/);
    const { path, expires, signature } = parse(url);
    expect(path).toBe('/api/media/asset_0001/video.mp4');
    expect(expires).toBe(Date.UTC(2026, 10, 22, 12) / 1000);
    expect(verifySignedPath(key, 'GET', path, expires, signature, now)).toBe(true);
  });

  it('is the same URL within one clock hour and valid for 1 to 2 hours', () => {
    const start = Date.UTC(2026, 10, 22, 10, 0, 0);
    const end = Date.UTC(2026, 10, 22, 10, 59, 59, 999);
    expect(mediaUrl(key, ASSET, 'thumbnail.jpg', start)).toBe(mediaUrl(key, ASSET, 'thumbnail.jpg', end));
    expect(mediaUrl(key, ASSET, 'thumbnail.jpg', end)).not.toBe(mediaUrl(key, ASSET, 'thumbnail.jpg', end + 1));
    for (const t of [start, now, end]) {
      const validity = mediaExpiry(t) - t / 1000;
      expect(validity).toBeGreaterThan(3600);
      expect(validity).toBeLessThanOrEqual(7200);
    }
  });

  it('expires: valid one second before the expiry, expired at it', () => {
    const { path, expires, signature } = parse(mediaUrl(key, ASSET, 'preview.mp4', now));
    expect(checkSignedPath(key, 'GET', path, expires, signature, expires * 1000 - 1000)).toBe('valid');
    expect(checkSignedPath(key, 'GET', path, expires, signature, expires * 1000)).toBe('expired');
  });

  it('refuses a changed method, path, expiry, key or signature bit', () => {
    const { path, expires, signature } = parse(mediaUrl(key, ASSET, 'video.mp4', now));
    expect(checkSignedPath(key, 'PUT', path, expires, signature, now)).toBe('invalid');
    expect(checkSignedPath(key, 'GET', '/api/media/asset_0001/preview.mp4', expires, signature, now)).toBe('invalid');
    expect(checkSignedPath(key, 'GET', '/api/media/asset_0002/video.mp4', expires, signature, now)).toBe('invalid');
    expect(checkSignedPath(key, 'GET', path, expires + 3600, signature, now)).toBe('invalid');
    expect(checkSignedPath(otherKey, 'GET', path, expires, signature, now)).toBe('invalid');
    const bytes = Buffer.from(signature, 'base64url');
    bytes[5] = bytes[5]! ^ 0x01;
    expect(checkSignedPath(key, 'GET', path, expires, bytes.toString('base64url'), now)).toBe('invalid');
    expect(checkSignedPath(key, 'GET', path, expires, signature.slice(1), now)).toBe('invalid');
  });

  it('an expired forgery is reported invalid, not expired', () => {
    const { path, expires } = parse(mediaUrl(key, ASSET, 'video.mp4', now));
    expect(checkSignedPath(key, 'GET', path, expires, 'A'.repeat(43), expires * 1000 + 1)).toBe('invalid');
  });

  it('signs any method and path (upload PUT locations)', () => {
    const path = '/api/uploads/asset_0001/video';
    const location = signedLocation(key, 'PUT', path, 2_000_000_000);
    expect(location).toBe(`${path}?expires=2000000000&signature=${signPath(key, 'PUT', path, 2_000_000_000)}`);
    expect(verifySignedPath(key, 'put', path, 2_000_000_000, signPath(key, 'PUT', path, 2_000_000_000), now)).toBe(true);
  });

  it('refuses asset ids outside the contract pattern', () => {
    expect(() => mediaUrl(key, '../etc', 'video.mp4', now)).toThrow();
    expect(() => mediaUrl(key, 'short', 'video.mp4', now)).toThrow();
  });
});

describe('streaming locations', () => {
  const at = Date.UTC(2026, 11, 2, 22, 17, 5);

  it('sign the asset’s whole prefix until the next hour boundary plus 12 hours (R-MED-5)', () => {
    const expires = streamExpiry(at);
    expect(expires).toBe(Date.UTC(2026, 11, 3, 11, 0, 0) / 1000);
    const prefix = streamPrefix(key, ASSET, at);
    const [, scope, stamp, signature] = /^(\/api\/media\/asset_0001\/s\/)(\d+)\/([A-Za-z0-9_-]{43})\/$/.exec(prefix) ?? [];
    expect(Number(stamp)).toBe(expires);
    expect(checkSignedPath(key, 'GET', scope!, expires, signature!, at)).toBe('valid');
    expect(checkSignedPath(key, 'GET', '/api/media/asset_0002/s/', expires, signature!, at)).toBe('invalid');
    expect(streamUrl(key, ASSET, 'hls-master.m3u8', at)).toBe(`${prefix}hls-master.m3u8`);
    // one prefix for every page opened within the clock hour
    expect(streamPrefix(key, ASSET, at + 30 * 60_000)).toBe(prefix);
  });
});
