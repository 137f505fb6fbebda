import crypto from 'node:crypto';

/**
 * The parts of RFC 9110 a file server needs: byte ranges (§14) and conditional requests (§13),
 * as pure functions of the request headers and the file's size, date and entity tag.
 */

export type RangeDecision =
  /** no usable Range: answer the whole file (200) */
  | { kind: 'full' }
  /** one satisfiable range (inclusive): answer 206 */
  | { kind: 'partial'; start: number; end: number }
  /** a valid range that selects nothing of the file: answer 416 with `Content-Range: bytes *\/size` */
  | { kind: 'unsatisfiable' };

const INT_RANGE = /^(\d+)-(\d*)$/;
const SUFFIX_RANGE = /^-(\d+)$/;

/**
 * Decides what a `Range` header asks of a file of `size` bytes (RFC 9110 §14.1–14.2):
 * `bytes=0-499`, `bytes=500-` (open-ended), `bytes=-500` (the last 500 bytes; a suffix longer than
 * the file is the whole file). A range starting at or after the end, or a zero-length suffix, is
 * unsatisfiable. A header that is not a valid byte-range set is ignored (whole file), as the RFC allows;
 * so are several ranges (the server MAY ignore Range: one range is what players ask for) and a Range
 * on an empty file.
 */
export function decideRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return { kind: 'full' };
  const match = /^\s*bytes=(.*)$/i.exec(header);
  if (!match) return { kind: 'full' };
  const specs = match[1]!
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (specs.length !== 1 || size === 0) return { kind: 'full' };
  const spec = specs[0]!;

  const int = INT_RANGE.exec(spec);
  if (int) {
    const first = Number(int[1]);
    const last = int[2] === '' ? undefined : Number(int[2]);
    if (last !== undefined && last < first) return { kind: 'full' }; // invalid range-spec
    if (first >= size) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: first, end: Math.min(last ?? size - 1, size - 1) };
  }
  const suffix = SUFFIX_RANGE.exec(spec);
  if (suffix) {
    const length = Number(suffix[1]);
    if (length === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  return { kind: 'full' };
}

/** A strong entity tag of one version of one file: its address, size and modification time. */
export function entityTag(assetId: string, file: string, size: number, modified: Date): string {
  const digest = crypto.createHash('sha256').update(`${assetId}/${file}\n${size}\n${modified.getTime()}`).digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}

/** The entity tags of an If-None-Match / If-Match list (`*` is returned as is). */
function entityTags(header: string): string[] | '*' {
  if (header.trim() === '*') return '*';
  return header.match(/(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"/g) ?? [];
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** If-None-Match (§13.1.2): true when it matches the current tag (weak comparison) — answer 304. */
export function noneMatchFails(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = entityTags(header);
  return tags === '*' || tags.some((tag) => opaque(tag) === opaque(etag));
}

/** Seconds since the epoch of an HTTP-date, or undefined when it is not one. */
function httpDateSeconds(value: string): number | undefined {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/**
 * If-Modified-Since (§13.1.3), evaluated only without If-None-Match: true when the file has not
 * changed since the date (to the second) — answer 304. An invalid date is ignored.
 */
export function notModifiedSince(header: string | undefined, modified: Date): boolean {
  if (header === undefined) return false;
  const since = httpDateSeconds(header);
  return since !== undefined && Math.floor(modified.getTime() / 1000) <= since;
}

/**
 * If-Range (§13.1.5): true when the Range may be honoured — the validator is the current strong
 * entity tag, or exactly the current Last-Modified date. Otherwise the whole file is sent.
 */
export function ifRangeHolds(header: string | undefined, etag: string, modified: Date): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag; // strong comparison: a weak tag never matches
  const date = httpDateSeconds(value);
  return date !== undefined && date === Math.floor(modified.getTime() / 1000);
}

/** Last-Modified: an IMF-fixdate (`Sun, 22 Nov 2026 10:00:00 GMT`). */
export function httpDate(date: Date): string {
  return date.toUTCString();
}
