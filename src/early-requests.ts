import { DEFAULT_PAGING, statisticsTableIds } from './features/statistics/statistics-search.ts';
import { CARD_SIZES, gridColumns, thumbnailSrcSet } from './features/videos/card-picture.ts';
import { parseVideoId } from './features/videos/video-id.ts';
import { VIDEO_PAGE_SIZE } from './features/videos/video-search.ts';
import { FILTER_KEYS } from '../machines/video-filters/video-filters.ts';
import { decodeClaims, getToken } from './lib/auth-token.ts';
import { formatUploadDate } from './lib/format/upload-date.ts';
import { browserTimeZone } from './lib/time-zone.ts';

/**
 * The first API reads of a signed-in page, asked for while the app's code downloads. Vite bundles
 * this module with what it imports into one small inline script of each signed-in page's document
 * (vite.config.ts `earlyReadsScript`), which calls `startEarlyRequests()` before the app's script;
 * the API client then takes each answer once (src/lib/api/early-responses.ts). Only the plain
 * shapes are asked (no filters, no paging, no single sign-on token in the address): a read the app
 * does not make the same way is simply not used. It draws nothing: React is the page's only renderer;
 * it only tells the browser, in the head, which pictures the page will show first (`preloadPictures`).
 */

function hasStoredFilters(): boolean {
  try {
    return FILTER_KEYS.some((key) => window.sessionStorage.getItem(key) !== null);
  } catch {
    return false;
  }
}

/** The video of a video's page, `/videos/<canonical id>` (others are the 404 page); null elsewhere. */
function videoPageId(path: string): number | null {
  const match = /^\/videos\/([^/]+)$/.exec(path);
  return match ? parseVideoId(match[1]!) : null;
}

/** The API reads the app makes first on this address, as the API client writes them (paths and query order). */
export function earlyReadsFor(pathname: string, search: string, token: string): string[] {
  // Anything in the address (filters, paging, a single sign-on token) changes what is asked: not early.
  if (search !== '' && search !== '?') return [];
  const path = pathname.replace(/\/$/, '');
  if (path === '/videos') {
    if (hasStoredFilters()) return ['/api/me'];
    // No date filter: the list does not depend on the time zone, and the app does not send it.
    return ['/api/me', '/api/etiquetas', `/api/videos?limit=${VIDEO_PAGE_SIZE}&offset=0`];
  }
  const video = videoPageId(path);
  if (video !== null) return ['/api/me', `/api/videos/${video}`];
  if (path === '/statistics' && decodeClaims(token)?.role === 'admin') {
    // Looked up only here: the browser's first Intl date format loads its calendar data.
    const tz = browserTimeZone();
    const page = `limit=${DEFAULT_PAGING.limit}&offset=${DEFAULT_PAGING.offset}`;
    return [
      '/api/me',
      '/api/statistics?option=infoBox',
      `/api/statistics?option=viewsPerDay${tz ? `&tz=${encodeURIComponent(tz)}` : ''}`,
      ...statisticsTableIds.map((table) => `/api/statistics?option=infoTable&table=${table}&${page}`),
    ];
  }
  return [];
}

/**
 * A video's page formats its upload date in its first render: the browser's first Intl date format
 * loads its calendar data, about 100 ms of a phone's main thread. Done in a task of its own while
 * the app's code downloads, the render finds it loaded.
 */
export function warmDateFormat(): void {
  try {
    formatUploadDate(new Date(0).toISOString());
  } catch {
    // Nothing to prepare: the page formats the date itself.
  }
}

/** Asks for this page's first reads now (the page's document runs it before the app's code). */
export function startEarlyRequests(): void {
  const token = getToken();
  if (!token) return;
  const authorization = `Bearer ${token}`;
  const reads = earlyReadsFor(window.location.pathname, window.location.search, token);
  window.__taoEarlyRequests = reads.map((path) => {
    const url = new URL(path, window.location.origin).href;
    const response = fetch(url, { headers: { Authorization: authorization } });
    // A failure is the app's to report when it takes the response; never an unhandled rejection here.
    response.catch(() => undefined);
    return { url, authorization, response };
  });
  const videoId = videoPageId(window.location.pathname.replace(/\/$/, ''));
  if (videoId !== null) setTimeout(warmDateFormat, 0);
  const read = (path: string) => window.__taoEarlyRequests?.find((entry) => new URL(entry.url).pathname === path)?.response;
  // The largest picture of the first screen: the player's poster, the first row's thumbnails.
  preloadPictures(read(`/api/videos/${videoId}`), (video) => [{ href: (video as Picture | null)?.urlThumbnail }]);
  preloadPictures(read('/api/videos'), (list) =>
    (Array.isArray(list) ? (list as Picture[]) : []).slice(0, gridColumns((query) => window.matchMedia(query).matches)).map(({ urlThumbnail: href }) => ({ href, srcset: typeof href === 'string' ? thumbnailSrcSet(href) : undefined, sizes: CARD_SIZES })),
  );
}

interface Picture {
  urlThumbnail?: unknown;
}

/**
 * Once `read` answers, a high-priority `<link rel="preload" as="image">` per picture of the server's
 * (with the `srcset` and `sizes` of the element that will show it, so the browser fetches that very
 * file): it is asked for while the app's code downloads, not once React has rendered the page.
 */
function preloadPictures(read: Promise<Response> | undefined, pictures: (answer: unknown) => Array<{ href: unknown; srcset?: string | undefined; sizes?: string }>): void {
  // The body is read from a copy, now, before the app takes the response.
  void read
    ?.then((response) => (response.ok ? response.clone().json() : null))
    .then((answer: unknown) => {
      for (const { href, srcset, sizes } of pictures(answer)) {
        if (typeof href !== 'string' || !href.startsWith('/')) continue;
        const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'image', href, fetchPriority: 'high' });
        if (srcset && sizes) Object.assign(link, { imageSrcset: srcset, imageSizes: sizes });
        document.head.append(link);
      }
    })
    .catch(() => undefined);
}
