import { mediaExpiry, mediaUrl, type MediaFile } from '../../media/signed-urls.ts';

/**
 * Signed media locations of the videos in answers. A location is the same for a whole clock hour
 * (its expiry is hour-aligned, see signed-urls.ts), so each is signed once per hour and remembered:
 * a page of 24 videos needs 72 locations, and the list is the most frequent request.
 */
interface HourCache {
  expires: number;
  urls: Map<string, string>;
}

const MAX_REMEMBERED = 60_000;
const caches = new WeakMap<Buffer, HourCache>();

/**
 * The signed GET location of a media file. `version` > 0 (a replaced thumbnail's) is appended as
 * `&v=<version>`: not signed (GET /api/media ignores it), it only makes the location of a new version
 * differ from the old one's, which browsers may still hold in their cache.
 */
export function signedMediaUrl(urlKey: Buffer, assetId: string, file: MediaFile, now: number = Date.now(), version = 0): string {
  const expires = mediaExpiry(now);
  let cache = caches.get(urlKey);
  if (!cache || cache.expires !== expires || cache.urls.size >= MAX_REMEMBERED) {
    cache = { expires, urls: new Map() };
    caches.set(urlKey, cache);
  }
  const key = `${assetId}/${file}`;
  let url = cache.urls.get(key);
  if (url === undefined) {
    url = mediaUrl(urlKey, assetId, file, now);
    cache.urls.set(key, url);
  }
  return version > 0 ? `${url}&v=${version}` : url;
}
