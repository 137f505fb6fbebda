/**
 * The app's side of the page's early reads (src/early-requests.ts, run by the document before
 * the app): the API client takes an early response for the same GET address and token, once, and a
 * route's loader may wait briefly for one. Imports nothing: the API client, in the first screen, uses it.
 */

export interface EarlyRequest {
  url: string;
  authorization: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __taoEarlyRequests?: EarlyRequest[];
  }
}

/** This page's early read of an API path, if there is one the app has not taken yet. */
export function earlyReadOf(pathname: string): EarlyRequest | undefined {
  if (typeof window === 'undefined') return undefined;
  return (window.__taoEarlyRequests ?? []).find((entry) => new URL(entry.url).pathname === pathname);
}

/** A read of this API path (`/api/videos`) was asked for early and the app has not taken it yet. */
export const hasEarlyRead = (pathname: string): boolean => earlyReadOf(pathname) !== undefined;

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
  const index = early?.findIndex((entry) => entry.url === request.url && entry.authorization === request.headers.get('Authorization')) ?? -1;
  if (index === -1) return undefined;
  return early!.splice(index, 1)[0]?.response;
}
