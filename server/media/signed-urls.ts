import crypto from 'node:crypto';
import { ASSET_ID } from '../storage/storage.ts';

/**
 * Signed locations: `<path>?expires=<unix s>&signature=<base64url HMAC-SHA256>`, the credential of
 * `<video>`/`<img>` elements (GET /api/media/…) and of upload PUTs (/api/uploads/…), which carry no
 * Authorization header. The signature covers the method, the path and the expiry (the contract's
 * `Signature` parameter), so a location works for one method, one file of one asset, until it expires.
 */

/** The files of a media asset, as named in GET /api/media/{id}/{file}. */
export type MediaFile = 'video.mp4' | 'preview.mp4' | 'thumbnail.jpg';
export const MEDIA_FILES: readonly MediaFile[] = ['video.mp4', 'preview.mp4', 'thumbnail.jpg'];

/** The contract's AssetId pattern. */
export const ASSET_ID_PATTERN = ASSET_ID;

const HOUR = 3600;

/**
 * Media locations expire on an hour boundary 1–2 hours ahead: every location of one file made
 * within the same clock hour is the same URL, so browsers keep cached thumbnails and previews
 * across list reloads, while a leaked location stops working within two hours.
 */
export function mediaExpiry(now = Date.now()): number {
  return (Math.floor(now / 1000 / HOUR) + 2) * HOUR;
}

/** The signed text: method, path and expiry, one per line. */
function message(method: string, path: string, expires: number): string {
  return `${method.toUpperCase()}\n${path}\n${expires}`;
}

/** base64url HMAC-SHA256 (43 characters) of the method, path (without query) and expiry. */
export function signPath(urlKey: Buffer, method: string, path: string, expires: number): string {
  return crypto.createHmac('sha256', urlKey).update(message(method, path, expires)).digest('base64url');
}

/** `<path>?expires=…&signature=…` for the method; the generic form uploads reuse for PUT locations. */
export function signedLocation(urlKey: Buffer, method: string, path: string, expires: number): string {
  return `${path}?expires=${expires}&signature=${signPath(urlKey, method, path, expires)}`;
}

/** The path of a media file (no query): /api/media/{assetId}/{file}. */
export function mediaPath(assetId: string, file: MediaFile): string {
  if (!ASSET_ID_PATTERN.test(assetId)) throw new Error(`invalid asset id "${assetId}"`);
  if (!MEDIA_FILES.includes(file)) throw new Error(`invalid media file "${file}"`);
  return `/api/media/${assetId}/${file}`;
}

/** A signed GET location of one media file: `/api/media/{assetId}/{file}?expires=…&signature=…`. */
export function mediaUrl(urlKey: Buffer, assetId: string, file: MediaFile, now = Date.now()): string {
  return signedLocation(urlKey, 'GET', mediaPath(assetId, file), mediaExpiry(now));
}

/**
 * Streaming locations (HLS playlists, their media files, the storyboard) expire on the next hour
 * boundary plus 12 hours: a film watched from a page opened now ends long before, and every page
 * opened within one clock hour gets the same prefix, so players' caches keep working.
 */
export function streamExpiry(now = Date.now()): number {
  return (Math.floor(now / 1000 / HOUR) + 1) * HOUR + 12 * HOUR;
}

/**
 * The signed prefix of an asset's streaming files, `/api/media/<id>/s/<expires>/<signature>/`: the
 * signature (GET, `/api/media/<id>/s/`, expires) covers every file under it, so the bare relative
 * names inside playlists and the storyboard's WebVTT resolve to signed locations of the same asset.
 */
export function streamPrefix(urlKey: Buffer, assetId: string, now = Date.now()): string {
  if (!ASSET_ID_PATTERN.test(assetId)) throw new Error(`invalid asset id "${assetId}"`);
  const scope = `/api/media/${assetId}/s/`;
  const expires = streamExpiry(now);
  return `${scope}${expires}/${signPath(urlKey, 'GET', scope, expires)}/`;
}

/** The signed location of one streaming file of the asset (`hls-master.m3u8`, `storyboard.vtt`, …). */
export function streamUrl(urlKey: Buffer, assetId: string, file: string, now = Date.now()): string {
  return streamPrefix(urlKey, assetId, now) + file;
}

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

/**
 * Checks a signed location. `path` is the request path without its query. The comparison is
 * constant-time; an expired location is reported as such only when its signature is genuine.
 */
export function checkSignedPath(urlKey: Buffer, method: string, path: string, expires: number, signature: string, now = Date.now()): SignatureCheck {
  if (!Number.isSafeInteger(expires) || expires < 0) return 'invalid';
  const expected = Buffer.from(signPath(urlKey, method, path, expires), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'invalid';
  return Math.floor(now / 1000) < expires ? 'valid' : 'expired';
}

/** true when the signature is genuine for this method, path and expiry and the expiry is still ahead. */
export function verifySignedPath(urlKey: Buffer, method: string, path: string, expires: number, signature: string, now = Date.now()): boolean {
  return checkSignedPath(urlKey, method, path, expires, signature, now) === 'valid';
}
