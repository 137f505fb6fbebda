/**
 * The first reads of a signed-in page, asked for while the app's code downloads (docs/DECISIONS.md,
 * "First screen budget", Lighthouse). The build compiles this module alone into a small script that
 * each page's document loads before the app (scripts/route-pages.ts, `startEarlyRequests()`); the
 * API client answers a GET with the early response when its address and token are the same
 * (`takeEarlyResponse`), once. A read the app does not ask for the same way is simply not used:
 * the app asks again (so only the plain shapes are asked early: no filters, no paging in the
 * address, no single sign-on token). Nothing here may import: it runs before the app.
 */

interface EarlyRequest {
  url: string;
  authorization: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __taoEarlyRequests?: EarlyRequest[];
  }
}

/**
 * Set on the document's root element, on /statistics, when the stored session is not an
 * administrator's (or there is none): the first paint then leaves out the dashboard's first row
 * (scripts/first-paint.tsx), which the app would replace with /Forbidden (or the sign-in page).
 */
export const NOT_ADMIN_ATTRIBUTE = 'data-not-admin';

/** The dashboard's address, with or without a final slash. */
const isStatistics = (pathname: string) => pathname.replace(/\/$/, '') === '/statistics';

/** The list's filters in session storage (src/features/videos/video-filters.storage.ts, SPEC.md §2). */
const STORED_FILTER_KEYS = ['q', 'tag', 'fav', 'upload-date', 'score', 'not-seen'];
/** The statistics tables and their first page (src/features/statistics/statistics-search.ts). */
const STATISTICS_TABLES = ['uma', 'oma', 'vmv', 'vmr'];
const FIRST_TABLE_PAGE = 'limit=5&offset=0';
/**
 * src/lib/time-zone.ts: only a zone the contract accepts is sent. Looked up only for a read that
 * needs it: the browser's first Intl date format loads its calendar data (about 25 ms on a laptop,
 * 100 ms on a phone), which would hold up the document's parser here.
 */
const TIME_ZONE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

function timeZoneParam(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof zone === 'string' && zone.length <= 64 && TIME_ZONE.test(zone) ? `tz=${encodeURIComponent(zone)}` : '';
  } catch {
    return '';
  }
}

function role(token: string): string | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const claims = JSON.parse(json) as { role?: unknown };
    return typeof claims.role === 'string' ? claims.role : null;
  } catch {
    return null;
  }
}

function hasStoredFilters(): boolean {
  try {
    return STORED_FILTER_KEYS.some((key) => window.sessionStorage.getItem(key) !== null);
  } catch {
    return false;
  }
}

/** The video of a video's page, `/videos/<canonical id>` (others are the 404 page); null elsewhere. */
function videoPageId(pathname: string): string | null {
  const video = /^\/videos\/([1-9]\d{0,9})\/?$/.exec(pathname);
  return video && Number(video[1]) <= 2_147_483_647 ? video[1]! : null;
}

/** The API reads the app makes first on this address, as the API client writes them (paths and query order). */
export function earlyReadsFor(pathname: string, search: string, token: string): string[] {
  // Anything in the address (filters, paging, a single sign-on token) changes what is asked: not early.
  if (search !== '' && search !== '?') return [];
  const path = pathname.replace(/\/$/, '');
  if (path === '/videos') {
    if (hasStoredFilters()) return ['/api/me'];
    // No date filter: the list does not depend on the time zone, and the app does not send it.
    return ['/api/me', '/api/etiquetas', '/api/videos?limit=24&offset=0'];
  }
  const video = videoPageId(path);
  if (video) return ['/api/me', `/api/videos/${video}`];
  if (isStatistics(path) && role(token) === 'admin') {
    const tz = timeZoneParam();
    return [
      '/api/me',
      '/api/statistics?option=infoBox',
      `/api/statistics?option=viewsPerDay${tz ? `&${tz}` : ''}`,
      ...STATISTICS_TABLES.map((table) => `/api/statistics?option=infoTable&table=${table}&${FIRST_TABLE_PAGE}`),
    ];
  }
  return [];
}

/**
 * A video's page formats its upload date in its first render (src/lib/format/upload-date.ts, the
 * same options): the browser's first Intl date format loads its calendar data, about 100 ms of a
 * phone's main thread. Done in a task of its own while the app's code downloads, the render finds
 * it loaded.
 */
export function warmDateFormat(): void {
  try {
    new Intl.DateTimeFormat([...navigator.languages], { day: '2-digit', month: '2-digit', year: 'numeric' }).format(0);
  } catch {
    // Nothing to prepare: the page formats the date itself.
  }
}

/**
 * Asks for this page's first reads now (the page's document runs it before the app's code), and on
 * /statistics marks a session that is not an administrator's (NOT_ADMIN_ATTRIBUTE).
 */
export function startEarlyRequests(): void {
  let token: string | null = null;
  try {
    token = window.localStorage.getItem('token');
  } catch {
    // no storage: no session either
  }
  if (isStatistics(window.location.pathname) && (!token || role(token) !== 'admin')) {
    document.documentElement.setAttribute(NOT_ADMIN_ATTRIBUTE, '');
  }
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
  if (videoPageId(window.location.pathname)) setTimeout(warmDateFormat, 0);
}

/** A read of this API path (`/api/videos`) was asked for early and the app has not taken it yet. */
export function hasEarlyRead(pathname: string): boolean {
  if (typeof window === 'undefined') return false;
  return (window.__taoEarlyRequests ?? []).some((entry) => new URL(entry.url).pathname === pathname);
}

/** How long a page waits for the reads its document asked for early before it shows its placeholders. */
export const EARLY_READ_WAIT_MS = 300;

/**
 * For a route's loader: `reads` done, or EARLY_READ_WAIT_MS passed, whichever is first. Early reads
 * are usually answered by the time the app runs, so the page renders once with its data instead of
 * placeholders first; a slow read still gets its placeholders after a moment.
 */
export function briefly(reads: Array<Promise<unknown>>): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, EARLY_READ_WAIT_MS);
    void Promise.allSettled(reads).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The early response to this request (same GET address and token), once; undefined otherwise. */
export function takeEarlyResponse(request: Request): Promise<Response> | undefined {
  if (typeof window === 'undefined' || request.method !== 'GET') return undefined;
  const early = window.__taoEarlyRequests;
  if (!early || early.length === 0) return undefined;
  const index = early.findIndex((entry) => entry.url === request.url && entry.authorization === request.headers.get('Authorization'));
  if (index === -1) return undefined;
  const [taken] = early.splice(index, 1);
  return taken?.response;
}
