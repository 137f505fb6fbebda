import crypto from 'node:crypto';
import { ASSET_ID } from '../storage/storage.ts';

/**
 * Signed locations: `<path>?expires=<unix s>&signature=<base64url HMAC-SHA256>`, the credential of
 * `<video>`/`<img>` elements (GET /api/media/…) and of upload PUTs (/api/uploads/…), which carry no
 * Authorization header. The signature covers the method, the path and the expiry (the contract's
 * `Signature` parameter), so a location works for one method, one file of one asset, until it expires.
 */

/** The files of a media asset, as named in GET /api/media/{id}/{file}. */
export type MediaFile = 'video.mp4' | 'preview.mp4' | 'thumbnail.jpg' | `subtitulos-${string}.vtt`;
export const MEDIA_FILES: readonly MediaFile[] = ['video.mp4', 'preview.mp4', 'thumbnail.jpg'];
/** A subtitle track's file (the contract's Idioma pattern inside). */
export const SUBTITLE_FILE = /^subtitulos-[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?\.vtt$/;
/** The file name of a video's subtitle track in one language. */
export const subtitleFile = (idioma: string): MediaFile => `subtitulos-${idioma}.vtt`;
/**
 * The name a media file is kept under in storage, whose names are lower-case (FILE_NAME): a subtitle
 * track's script and region subtags are folded (`subtitulos-pt-BR.vtt` → `subtitulos-pt-br.vtt`).
 * Canonical tags never differ only in case, so no two tracks share a stored name.
 */
export const storedFileName = (file: MediaFile): string => file.toLowerCase();
export const isMediaFile = (file: string): file is MediaFile => (MEDIA_FILES as readonly string[]).includes(file) || SUBTITLE_FILE.test(file);

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
  if (!isMediaFile(file)) throw new Error(`invalid media file "${file}"`);
  return `/api/media/${assetId}/${file}`;
}

/** A signed GET location of one media file: `/api/media/{assetId}/{file}?expires=…&signature=…`. */
export function mediaUrl(urlKey: Buffer, assetId: string, file: MediaFile, now = Date.now()): string {
  return signedLocation(urlKey, 'GET', mediaPath(assetId, file), mediaExpiry(now));
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

/**
 * The files of an asset's streaming prefix (HLS playlists, their fragmented MP4s, the storyboard),
 * as named in GET /api/media/{id}/s/{expires}/{signature}/{file}.
 */
export const STREAM_FILE = /^(hls-master\.m3u8|hls-[0-9]{3,4}p\.(m3u8|mp4)|storyboard\.(vtt|jpg))$/;

/**
 * Streaming locations expire on the next hour boundary plus 12 hours: one page opened now plays a
 * whole film (every playlist and byte range under one prefix), and stays the same URL within the hour.
 */
export function streamExpiry(now = Date.now()): number {
  return (Math.floor(now / 1000 / HOUR) + 13) * HOUR;
}

/** The signed part of a streaming location: `/api/media/{assetId}/s/`, the asset's whole prefix. */
export function streamPrefixPath(assetId: string): string {
  if (!ASSET_ID_PATTERN.test(assetId)) throw new Error(`invalid asset id "${assetId}"`);
  return `/api/media/${assetId}/s/`;
}

/**
 * `/api/media/{assetId}/s/{expires}/{signature}/`: the credential sits in the path, so the bare names
 * a playlist refers to (`hls-360p.m3u8`, `hls-360p.mp4`) resolve under it and are signed too
 * (docs/decisions/0110-signed-streaming-locations.md).
 */
export function streamPrefix(urlKey: Buffer, assetId: string, now = Date.now()): string {
  const path = streamPrefixPath(assetId);
  const expires = streamExpiry(now);
  return `${path}${expires}/${signPath(urlKey, 'GET', path, expires)}/`;
}

/** A signed GET location of one streaming file: streamPrefix(…) + file. */
export function streamUrl(urlKey: Buffer, assetId: string, file: string, now = Date.now()): string {
  if (!STREAM_FILE.test(file)) throw new Error(`invalid streaming file "${file}"`);
  return streamPrefix(urlKey, assetId, now) + file;
}

/** Checks the signature of an asset's streaming prefix (for GET; a HEAD uses the same). */
export function checkStreamSignature(urlKey: Buffer, assetId: string, expires: number, signature: string, now = Date.now()): SignatureCheck {
  return checkSignedPath(urlKey, 'GET', streamPrefixPath(assetId), expires, signature, now);
}
