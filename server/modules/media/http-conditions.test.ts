import { describe, expect, it } from 'vitest';
import { decideRange, entityTag, ifRangeHolds, noneMatchFails, notModifiedSince } from './http-conditions.ts';

describe('decideRange (RFC 9110 §14)', () => {
  it('reads the three forms of one byte range', () => {
    expect(decideRange('bytes=0-0', 10)).toEqual({ kind: 'partial', start: 0, end: 0 });
    expect(decideRange('bytes=3-', 10)).toEqual({ kind: 'partial', start: 3, end: 9 });
    expect(decideRange('bytes=-3', 10)).toEqual({ kind: 'partial', start: 7, end: 9 });
    expect(decideRange('bytes=-11', 10)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(decideRange('bytes=8-100', 10)).toEqual({ kind: 'partial', start: 8, end: 9 });
  });

  it('is unsatisfiable past the end and for an empty suffix', () => {
    expect(decideRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=-0', 10)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores no header, other units, malformed and multiple ranges, and ranges of an empty file', () => {
    for (const header of [undefined, 'items=0-1', 'bytes=x-1', 'bytes=5-4', 'bytes=0-1,3-4', 'bytes=', 'bytes 0-1', 'bytes=0x1-2']) {
      expect(decideRange(header, 10), String(header)).toEqual({ kind: 'full' });
    }
    expect(decideRange('bytes=0-1', 0)).toEqual({ kind: 'full' });
    expect(decideRange('bytes=-5', 0)).toEqual({ kind: 'full' });
  });
});

describe('conditional requests (RFC 9110 §13)', () => {
  const modified = new Date('2026-11-22T10:00:00.750Z');
  const etag = entityTag('asset_0001', 'video.mp4', 10, modified);

  it('makes strong, quoted entity tags that change with the size, date and address', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag('asset_0001', 'video.mp4', 11, modified)).not.toBe(etag);
    expect(entityTag('asset_0001', 'video.mp4', 10, new Date(modified.getTime() + 1))).not.toBe(etag);
    expect(entityTag('asset_0002', 'video.mp4', 10, modified)).not.toBe(etag);
    expect(entityTag('asset_0001', 'preview.mp4', 10, modified)).not.toBe(etag);
  });

  it('If-None-Match uses the weak comparison', () => {
    expect(noneMatchFails(undefined, etag)).toBe(false);
    expect(noneMatchFails(etag, etag)).toBe(true);
    expect(noneMatchFails(`W/${etag}`, etag)).toBe(true);
    expect(noneMatchFails(`"a", W/"b", ${etag}`, etag)).toBe(true);
    expect(noneMatchFails(' * ', etag)).toBe(true);
    expect(noneMatchFails('"a", "b"', etag)).toBe(false);
    expect(noneMatchFails('garbage', etag)).toBe(false);
  });

  it('If-Modified-Since compares whole seconds and ignores invalid dates', () => {
    expect(notModifiedSince('Sun, 22 Nov 2026 10:00:00 GMT', modified)).toBe(true);
    expect(notModifiedSince('Sun, 22 Nov 2026 09:59:59 GMT', modified)).toBe(false);
    expect(notModifiedSince('not a date', modified)).toBe(false);
    expect(notModifiedSince(undefined, modified)).toBe(false);
  });

  it('If-Range needs the current strong tag or exactly the Last-Modified date', () => {
    expect(ifRangeHolds(undefined, etag, modified)).toBe(true);
    expect(ifRangeHolds(etag, etag, modified)).toBe(true);
    expect(ifRangeHolds(`W/${etag}`, etag, modified)).toBe(false);
    expect(ifRangeHolds('"other"', etag, modified)).toBe(false);
    expect(ifRangeHolds('Sun, 22 Nov 2026 10:00:00 GMT', etag, modified)).toBe(true);
    expect(ifRangeHolds('Sun, 22 Nov 2026 10:00:01 GMT', etag, modified)).toBe(false);
    expect(ifRangeHolds('nonsense', etag, modified)).toBe(false);
  });
});
