import { afterEach, describe, expect, it, vi } from 'vitest';
import { briefly, EARLY_READ_WAIT_MS, hasEarlyRead, takeEarlyResponse } from './lib/api/early-responses.ts';
import { earlyReadsFor, startEarlyRequests, warmDateFormat } from './early-requests.ts';
import { formatUploadDate } from './lib/format/upload-date.ts';

/** A token whose (unverified) claims carry this role, as the server's tokens do. */
const tokenOf = (role: string) => `h.${btoa(JSON.stringify({ user: 'ana', role })).replace(/=+$/, '')}.s`;
const tz = `tz=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`;

// Every test leaves the page as it found it: no early reads, storage, address, timers or stand-ins.
afterEach(() => {
  window.sessionStorage.clear();
  delete window.__taoEarlyRequests;
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the reads a page asks for before the app starts', () => {
  it('/videos without filters: the header\'s name, the tags and the list\'s first page, as the API client writes them', () => {
    expect(earlyReadsFor('/videos', '', tokenOf('user'))).toEqual(['/api/me', '/api/etiquetas', '/api/videos?limit=24&offset=0']);
  });

  it('looks up the time zone only for a read that depends on it (the views per day), not for the list or a video', () => {
    const lookUp = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      earlyReadsFor('/videos', '', tokenOf('user'));
      earlyReadsFor('/videos/12', '', tokenOf('user'));
      expect(lookUp).not.toHaveBeenCalled();
      earlyReadsFor('/statistics', '', tokenOf('admin'));
      expect(lookUp).toHaveBeenCalled();
    } finally {
      lookUp.mockRestore();
    }
  });

  it('/videos with filters stored in the session (the page restores them first): only the name', () => {
    window.sessionStorage.setItem('fav', 'true');
    expect(earlyReadsFor('/videos', '', tokenOf('user'))).toEqual(['/api/me']);
  });

  it('a video\'s page: its canonical id only (others are the 404 page)', () => {
    expect(earlyReadsFor('/videos/12', '', tokenOf('user'))).toEqual(['/api/me', '/api/videos/12']);
    expect(earlyReadsFor('/videos/012', '', tokenOf('user'))).toEqual([]);
    expect(earlyReadsFor('/videos/2147483648', '', tokenOf('user'))).toEqual([]);
  });

  it('/statistics: every part\'s first read for an administrator, nothing for anyone else (they are sent to /Forbidden)', () => {
    expect(earlyReadsFor('/statistics', '', tokenOf('admin'))).toEqual([
      '/api/me',
      '/api/statistics?option=infoBox',
      `/api/statistics?option=viewsPerDay&${tz}`,
      '/api/statistics?option=infoTable&table=uma&limit=5&offset=0',
      '/api/statistics?option=infoTable&table=oma&limit=5&offset=0',
      '/api/statistics?option=infoTable&table=vmv&limit=5&offset=0',
      '/api/statistics?option=infoTable&table=vmr&limit=5&offset=0',
    ]);
    expect(earlyReadsFor('/statistics', '', tokenOf('user'))).toEqual([]);
  });

  it('nothing when the address has a search (filters, paging, a single sign-on token) or is another page', () => {
    expect(earlyReadsFor('/videos', '?q=gato', tokenOf('user'))).toEqual([]);
    expect(earlyReadsFor('/statistics', '?uma_limit=10', tokenOf('admin'))).toEqual([]);
    expect(earlyReadsFor('/videos', '?xwikiid=abc', tokenOf('user'))).toEqual([]);
    expect(earlyReadsFor('/', '', tokenOf('user'))).toEqual([]);
  });
});

describe('whether a read was asked early and not taken yet', () => {
  it('the list\'s first page on /videos: yes until the app takes it; never on another page', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('[]')));
    window.localStorage.setItem('token', tokenOf('user'));
    window.history.replaceState(null, '', '/videos');
    startEarlyRequests();
    expect(hasEarlyRead('/api/videos')).toBe(true);
    expect(hasEarlyRead('/api/statistics')).toBe(false);
    const url = new URL('/api/videos?limit=24&offset=0', window.location.origin).href;
    expect(takeEarlyResponse(new Request(url, { headers: { Authorization: `Bearer ${tokenOf('user')}` } }))).toBeDefined();
    expect(hasEarlyRead('/api/videos')).toBe(false);

    delete window.__taoEarlyRequests;
    window.history.replaceState(null, '', '/videos/12');
    startEarlyRequests();
    expect(hasEarlyRead('/api/videos')).toBe(false);
  });
});

describe('a loader waiting briefly for its early reads', () => {
  afterEach(() => vi.useRealTimers());

  it('goes on as soon as they are answered, or after 300 ms without them', async () => {
    vi.useFakeTimers();
    expect(EARLY_READ_WAIT_MS).toBe(300);
    let answered = false;
    void briefly([Promise.resolve('a'), Promise.reject(new Error('b'))]).then(() => (answered = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(answered).toBe(true);

    let gaveUp = false;
    void briefly([new Promise(() => undefined)]).then(() => (gaveUp = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(gaveUp).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(gaveUp).toBe(true);
  });
});

describe("a video's page prepares the browser's date format while the app downloads", () => {
  it('in a task of its own on a video page, not on the list', () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}')));
    const formats = vi.spyOn(Intl, 'DateTimeFormat');
    window.localStorage.setItem('token', tokenOf('user'));
    window.history.replaceState(null, '', '/videos/12');
    startEarlyRequests();
    expect(formats).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(formats).toHaveBeenCalledTimes(1);

    formats.mockClear();
    window.history.replaceState(null, '', '/videos');
    startEarlyRequests();
    vi.runAllTimers();
    expect(formats).not.toHaveBeenCalled();
  });

  it("with the options of the page's upload date (src/lib/format/upload-date.ts), so the same data is loaded", () => {
    const Real = Intl.DateTimeFormat;
    const made: unknown[][] = [];
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (this: unknown, ...args: ConstructorParameters<typeof Real>) {
      made.push(args);
      return new Real(...args);
    } as unknown as typeof Real);
    warmDateFormat();
    expect(formatUploadDate('2026-11-28T10:00:00Z')).not.toBe('');
    expect(made).toHaveLength(2);
    expect(made[0]).toEqual(made[1]);
  });
});
