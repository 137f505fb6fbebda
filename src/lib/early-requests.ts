/**
 * The first reads of a signed-in page, asked for while the app's code downloads (docs/DECISIONS.md,
 * "First screen budget", Lighthouse). The build compiles this module alone into a small script that
 * each page's document loads before the app (scripts/route-pages.ts, `startEarlyRequests()`); the
 * API client answers a GET with the early response when its address and token are the same
 * (`takeEarlyResponse`), once. A read the app does not ask for the same way is simply not used:
 * the app asks again (so only the plain shapes are asked early: no filters, no paging in the
 * address, no single sign-on token). With the answers it also fills the first paint of /videos
 * (the list's first row) and of a video's page (its poster and title) while the app's code is on
 * its way. Nothing here may import: it runs before the app.
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

/**
 * Set on the document's root element on /videos once the early script has painted the list's
 * first row (only the plain list is asked for early: no filters in the address or the session),
 * from the list and the tags as they arrive: the first paint then shows the list's controls and
 * that row (`paintFirstRow`, docs/DECISIONS.md, "The list's first row before the app").
 */
export const EARLY_LIST_ATTRIBUTE = 'data-early-list';

/** Marks of the first paint's parts the early script fills (scripts/first-paint.tsx, video-card.tsx). */
export const EARLY_PART = {
  /** The empty grid the first row's cards go into. */
  row: 'data-early-row',
  /** The `<template>` of a first-row card. */
  card: 'data-early-card',
  /** A card's picture, its title, its 'No visto' badge, its duration. */
  picture: 'data-early-picture',
  title: 'data-early-title',
  notSeen: 'data-early-not-seen',
  duration: 'data-early-duration',
  /** The strip of tags (hidden until the tags are known) and its sample chip. */
  tagStrip: 'data-early-tag-strip',
  tagChip: 'data-early-tag-chip',
  /** A video's page: the player's poster and the title. */
  poster: 'data-early-poster',
  videoTitle: 'data-early-video-title',
} as const;

/**
 * Set on the document's root element on a video's page once the early script has filled the
 * page's top from the video's early read (`paintVideoTop`): the first paint then shows it.
 */
export const EARLY_VIDEO_ATTRIBUTE = 'data-early-video';

/**
 * The list's columns by window width: 1 on phones (up to 639 px, SPEC §9), 2 on tablets, 3 on
 * laptops, 4 on wide screens (src/features/videos/video-grid.tsx lays the list out with them).
 */
export const GRID_BREAKPOINTS = { two: '(min-width: 640px)', three: '(min-width: 992px)', four: '(min-width: 1280px)' } as const;
/** The gap between the list's cards, in pixels (video-grid.tsx). */
export const GRID_GAP = 16;

/**
 * The thumbnail's card-sized copy (GET /api/media `w=400`): a card is 296–405 pixels wide from 640
 * pixels of window up, so on a screen of one device pixel per CSS pixel the browser takes it instead
 * of the 640-pixel (or wider) picture; on denser screens and phones it takes the picture
 * (docs/DECISIONS.md, "Card-sized thumbnails"). The app's cards and the first paint's share it.
 */
const CARD_THUMBNAIL_WIDTH = 400;
/** The thumbnail's width the browser assumes for the picture itself (640 for a frame of the video; an uploaded one may be wider). */
const THUMBNAIL_WIDTH = 640;

/** `srcset` of a thumbnail location: its card-sized copy and the picture (docs/DECISIONS.md, "Card-sized thumbnails"). */
export function thumbnailSrcSet(url: string): string {
  const small = `${url}${url.includes('?') ? '&' : '?'}w=${CARD_THUMBNAIL_WIDTH}`;
  return `${small} ${CARD_THUMBNAIL_WIDTH}w, ${url} ${THUMBNAIL_WIDTH}w`;
}

/**
 * SPEC.md §3: a video's duration (seconds) is shown m:ss, or h:mm:ss from one hour on.
 * Fractions of a second are dropped (a 59.9 s clip reads 0:59); a negative or missing value reads 0:00.
 * Here because the first row's cards show it before the app (the app's cards use it too).
 */
export function formatDuration(seconds: number | null | undefined): string {
  const total = Number.isFinite(seconds) && (seconds as number) > 0 ? Math.floor(seconds as number) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

/** The columns the list has in this window (GRID_BREAKPOINTS). */
export function gridColumns(matches: (query: string) => boolean): number {
  return matches(GRID_BREAKPOINTS.four) ? 4 : matches(GRID_BREAKPOINTS.three) ? 3 : matches(GRID_BREAKPOINTS.two) ? 2 : 1;
}

/** What the first row shows of a video and of a tag (the API's Video and Etiqueta). */
interface EarlyVideo {
  titulo?: unknown;
  duracion?: unknown;
  urlThumbnail?: unknown;
  visto?: unknown;
}
interface EarlyTag {
  nombre?: unknown;
}

/**
 * Paints the list's first row into /videos' first paint: the strip of tags when there are tags, and
 * for each of the first `columns` videos a card with its picture (the same `srcset` and `sizes` as
 * the app's card, so the browser fetches the very file the app then shows), its title and its
 * 'No visto' badge; the rest of the card keeps its loading style. The texts go in as text. Nothing
 * happens once the app has replaced the first paint. Returns the number of cards painted.
 */
export function paintFirstRow(document: Document, videos: unknown, tags: unknown, columns: number): number {
  const row = document.querySelector(`[${EARLY_PART.row}]`);
  const card = document.querySelector(`template[${EARLY_PART.card}]`);
  const strip = document.querySelector(`[${EARLY_PART.tagStrip}]`);
  if (!row || !(card instanceof HTMLTemplateElement) || !Array.isArray(videos) || !Array.isArray(tags)) return 0;
  const sampleChip = strip?.querySelector(`[${EARLY_PART.tagChip}]`);
  if (strip && sampleChip && tags.length > 0) {
    for (const tag of tags as EarlyTag[]) {
      const chip = sampleChip.cloneNode(true) as Element;
      // One chip per tag: no two with one id (the sample's input and its label's `for`).
      for (const element of chip.querySelectorAll('[id], [for]')) {
        element.removeAttribute('id');
        element.removeAttribute('for');
      }
      const label = chip.querySelector('label > span') ?? chip.querySelector('label') ?? chip;
      label.textContent = typeof tag?.nombre === 'string' ? tag.nombre : '';
      sampleChip.before(chip);
    }
    sampleChip.remove();
    strip.removeAttribute('hidden');
  }
  const perRow = Math.max(1, columns);
  const shown = (videos as EarlyVideo[]).slice(0, perRow);
  for (const video of shown) {
    const content = card.content.cloneNode(true) as DocumentFragment;
    const picture = content.querySelector(`[${EARLY_PART.picture}]`);
    const title = content.querySelector(`[${EARLY_PART.title}]`);
    if (picture instanceof HTMLImageElement && typeof video?.urlThumbnail === 'string' && video.urlThumbnail.startsWith('/')) {
      picture.srcset = thumbnailSrcSet(video.urlThumbnail);
      picture.src = video.urlThumbnail;
    } else picture?.remove();
    if (title) title.textContent = typeof video?.titulo === 'string' ? video.titulo : '';
    if (video?.visto === true) content.querySelector(`[${EARLY_PART.notSeen}]`)?.remove();
    const duration = content.querySelector(`[${EARLY_PART.duration}]`);
    if (duration) duration.textContent = formatDuration(typeof video?.duracion === 'number' ? video.duracion : undefined);
    row.append(content);
  }
  (row as HTMLElement).style.cssText = `display:grid;grid-template-columns:repeat(${perRow},minmax(0,1fr));gap:${GRID_GAP}px`;
  return shown.length;
}

/**
 * Fills a video's page's first paint (its 'Volver', player frame and title) with the video's early
 * read: the poster (the thumbnail, as the player's) when it is one of the server's paths, and the
 * title, as text. Returns whether there was a first paint to fill.
 */
export function paintVideoTop(document: Document, video: unknown): boolean {
  const poster = document.querySelector(`[${EARLY_PART.poster}]`);
  const title = document.querySelector(`[${EARLY_PART.videoTitle}]`);
  if (!(poster instanceof HTMLImageElement) || !title || typeof video !== 'object' || video === null) return false;
  const { titulo, urlThumbnail } = video as EarlyVideo;
  if (typeof urlThumbnail === 'string' && urlThumbnail.startsWith('/')) poster.src = urlThumbnail;
  else poster.remove();
  title.textContent = typeof titulo === 'string' ? titulo : '';
  return true;
}

/**
 * Applies the stylesheets the document preloads for the app (its route's, which the app applies as
 * it loads the route) now: a `<link rel="stylesheet">` of the same address and mode, so the file
 * preloaded is the one used. Resolves once they have loaded (or failed), those the app's loader
 * added first included (an app whose code was cached can start before the reads answer); the
 * copies the app's loader then makes again are dropped (`dropDuplicatesOnReplacement`).
 */
export async function applyPreloadedStyles(document: Document): Promise<void> {
  const settled = (sheet: HTMLLinkElement) =>
    new Promise<void>((resolve) => {
      sheet.addEventListener('load', () => resolve(), { once: true });
      sheet.addEventListener('error', () => resolve(), { once: true });
    });
  const applied: HTMLLinkElement[] = [];
  const loading: Array<Promise<void>> = [];
  for (const preload of document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"]')) {
    const href = preload.getAttribute('href');
    if (!href) continue;
    const present = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].find((sheet) => sheet.href === preload.href);
    if (present) {
      // The app's loader added it: painted before it has loaded, the first paint would show unstyled.
      if (!present.sheet) loading.push(settled(present));
      continue;
    }
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = href;
    const mode = preload.getAttribute('crossorigin');
    if (mode !== null) sheet.setAttribute('crossorigin', mode);
    loading.push(settled(sheet));
    document.head.append(sheet);
    applied.push(sheet);
  }
  await Promise.all(loading);
  dropDuplicatesOnReplacement(document, applied);
}

/**
 * Once the app has replaced the first paint, removes those of `sheets` the app's loader has
 * applied again (it may have listed the document's stylesheets before they were added): one copy of
 * each stays, so the page's styles are matched once. The app's copy has loaded by then (its loader
 * waits for a route's styles before the route renders).
 */
export function dropDuplicatesOnReplacement(document: Document, sheets: readonly HTMLLinkElement[]): void {
  const root = document.getElementById('root');
  if (!root || sheets.length === 0) return;
  const drop = () => {
    if (root.querySelector('[data-first-paint]')) return false;
    for (const sheet of sheets) {
      const copies = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter((other) => other.href === sheet.href);
      if (copies.length > 1) sheet.remove();
    }
    return true;
  };
  if (drop()) return;
  const observer = new MutationObserver(() => {
    if (drop()) observer.disconnect();
  });
  observer.observe(root, { childList: true });
}

/** The JSON of an early response, read from a copy (the app reads the response itself); null when it failed. */
function earlyJson(response: Promise<Response>): Promise<unknown> {
  return response.then((answer) => (answer.ok ? answer.clone().json() : null)).catch(() => null);
}

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
  const videoId = videoPageId(window.location.pathname);
  if (videoId) setTimeout(warmDateFormat, 0);
  const video = videoId ? earlyReadOf(`/api/videos/${videoId}`) : undefined;
  if (video) {
    paintOnceStyled(
      [video],
      ([answer]) => answer !== null,
      ([answer]) => paintVideoTop(document, answer),
      EARLY_VIDEO_ATTRIBUTE,
    );
  }
  const list = earlyReadOf('/api/videos');
  const tags = earlyReadOf('/api/etiquetas');
  if (list && tags) {
    // The controls and the row show together, once their styles are there.
    paintOnceStyled(
      [list, tags],
      ([videos]) => Array.isArray(videos) && videos.length > 0,
      ([videos, etiquetas]) => paintFirstRow(document, videos, etiquetas, gridColumns((query) => window.matchMedia(query).matches)) > 0,
      EARLY_LIST_ATTRIBUTE,
    );
  }
}

/** This page's early read of an API path, if there is one the app has not taken yet. */
function earlyReadOf(pathname: string): EarlyRequest | undefined {
  return (window.__taoEarlyRequests ?? []).find((entry) => new URL(entry.url).pathname === pathname);
}

/**
 * Once `reads` have answered (their JSON, null for a failure) and when they are `worthPainting`,
 * applies the route's stylesheets and lets `paint` fill the first paint; when it did, sets `mark` on
 * the root, which shows it. The bodies are copied now, before the app takes the responses; the
 * stylesheets are looked for once the answers are in (this script runs above the document's links).
 */
function paintOnceStyled(reads: EarlyRequest[], worthPainting: (answers: unknown[]) => boolean, paint: (answers: unknown[]) => boolean, mark: string): void {
  void Promise.all(reads.map((read) => earlyJson(read.response)))
    .then(async (answers) => {
      if (!worthPainting(answers)) return;
      await applyPreloadedStyles(document);
      if (paint(answers)) document.documentElement.setAttribute(mark, '');
    })
    .catch(() => undefined);
}

/** A read of this API path (`/api/videos`) was asked for early and the app has not taken it yet. */
export function hasEarlyRead(pathname: string): boolean {
  return typeof window !== 'undefined' && earlyReadOf(pathname) !== undefined;
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
