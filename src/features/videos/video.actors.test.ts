/**
 * The library's writes and reads against the query cache (R-LIB-18, R-LIB-17): what each write does to
 * the cached detail and to every cached list, found by its filters. The API is Mock Service Worker's.
 */
import { InfiniteQueryObserver, type QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { http, server } from '../../../tests/utils/msw.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { createVideoWrites } from './video.actors.ts';
import {
  browserTimeZone,
  VIDEO_PAGE_SIZE,
  videoListQuery,
  videoQuery,
  type VideoListData,
  type VideoListQuery,
} from './videos.queries.ts';

type Video = components['schemas']['Video'];
type PatchOperation = components['schemas']['VideoPatchOperation'];

const video = (id: number, fields: Partial<Video> = {}): Video => ({
  id,
  idExterno: `asset-${id}`,
  titulo: `Video ${id}`,
  descripcion: null,
  descripcionCorta: 'Resumen',
  duracion: 60,
  puntuacionMedia: 3,
  puntuacion: null,
  favorito: false,
  visto: false,
  fechaAlta: '2026-03-05T12:00:00.000Z',
  urlThumbnail: null,
  urlPreview: null,
  urlHls: null,
  urlStoryboard: null,
  idiomasSubtitulos: [],
  capitulos: [],
  urlVideo: `/api/media/asset-${id}/video.mp4`,
  etiquetas: [],
  isVisible: true,
  organizacionId: null,
  nombreUsuarioAlta: 'admin',
  posicion: null,
  ...fields,
});

/** Two cached pages: the video under test (7) on the first, others around it. */
const listData = (ids: number[][], total: number, fields: Partial<Video> = {}): VideoListData => {
  let offset = 0;
  const pages = ids.map((page) => {
    const cached = { videos: page.map((id) => video(id, fields)), offset, total };
    offset += page.length;
    return cached;
  });
  return { pages, pageParams: pages.map((page) => page.offset) };
};

let queryClient: QueryClient;
let stored: Video;
let patches: Array<{ body: PatchOperation[]; keepalive: boolean }>;

const LISTS: Record<string, VideoListQuery> = {
  all: {},
  favourites: { favorited: 'eq:true' },
  notFavourites: { favorited: 'eq:false' },
  notSeen: { notSeen: 'eq:true' },
  seen: { notSeen: 'eq:false' },
  fourStars: { score: 'gte:4' },
  search: { q: 'reunión' },
};
const keyOf = (name: string) => videoListQuery(LISTS[name]!).queryKey;
const list = (name: string) => queryClient.getQueryData<VideoListData>(keyOf(name));
const idsOf = (name: string) => list(name)?.pages.map((page) => page.videos.map((entry) => entry.id));
const cachedInList = (name: string, id = 7) => list(name)?.pages.flatMap((page) => page.videos).find((entry) => entry.id === id);
const invalidated = (name: string) => queryClient.getQueryState(keyOf(name))?.isInvalidated ?? false;

function seed(state: Partial<Video>) {
  stored = video(7, state);
  queryClient.setQueryData(videoQuery(7).queryKey, stored);
  for (const name of Object.keys(LISTS)) {
    queryClient.setQueryData(keyOf(name), listData([[5, 7, 9], [11, 13]], 30, state));
  }
}

beforeEach(() => {
  queryClient = createQueryClient();
  patches = [];
  server.use(
    http.patch('/api/videos/{id}', async ({ request, response }) => {
      const body = await request.json();
      patches.push({ body, keepalive: request.keepalive });
      for (const operation of body) {
        if (operation.path === '/puntuacion') stored = { ...stored, puntuacion: operation.value, puntuacionMedia: 4.2 };
        if (operation.path === '/favorito') stored = { ...stored, favorito: operation.value };
        if (operation.path === '/visto') stored = { ...stored, visto: operation.value };
        if (operation.path === '/posicion') stored = { ...stored, posicion: operation.value };
      }
      return response(200).json(stored);
    }),
  );
});

describe('setFavorite (R-LIB-18)', () => {
  it('leaving the favourites: the detail and the hearts change, lists filtered to favourites lose it', async () => {
    seed({ favorito: true });
    const answer = await createVideoWrites(queryClient).setFavorite({ id: 7, value: false });
    expect(answer.favorito).toBe(false);
    expect(patches).toEqual([{ body: [{ op: 'replace', path: '/favorito', value: false }], keepalive: false }]);
    expect(queryClient.getQueryData<Video>(videoQuery(7).queryKey)?.favorito).toBe(false);

    expect(idsOf('favourites')).toEqual([[5, 9], [11, 13]]);
    // One fewer match: the count of every page drops, so the next page starts after the 4 still loaded.
    expect(list('favourites')?.pages.map((page) => page.total)).toEqual([29, 29]);
    for (const name of ['all', 'notFavourites', 'notSeen', 'seen', 'fourStars', 'search']) {
      expect(cachedInList(name)?.favorito, name).toBe(false);
      expect(idsOf(name), name).toEqual([[5, 7, 9], [11, 13]]);
    }
    // The other videos keep their hearts.
    expect(cachedInList('all', 5)?.favorito).toBe(true);
    // Lists filtered to non-favourites may lack it: refreshed when next shown; the others are not.
    expect(invalidated('notFavourites')).toBe(true);
    expect(['all', 'favourites', 'notSeen', 'fourStars', 'search'].map(invalidated)).toEqual([false, false, false, false, false]);
  });

  it('entering the favourites: lists filtered to non-favourites lose it, favourite lists are refreshed', async () => {
    seed({ favorito: false });
    await createVideoWrites(queryClient).setFavorite({ id: 7, value: true });
    expect(queryClient.getQueryData<Video>(videoQuery(7).queryKey)?.favorito).toBe(true);
    expect(idsOf('notFavourites')).toEqual([[5, 9], [11, 13]]);
    expect(idsOf('favourites')).toEqual([[5, 7, 9], [11, 13]]);
    expect(cachedInList('all')?.favorito).toBe(true);
    expect(invalidated('favourites')).toBe(true);
    expect(invalidated('notFavourites')).toBe(false);
  });
});

describe('rateVideo (R-VID-2)', () => {
  it('the detail and every cached copy take the rating and the new average; lists filtered by score are refreshed', async () => {
    seed({ puntuacion: null, puntuacionMedia: 3 });
    await createVideoWrites(queryClient).rate({ id: 7, value: 5 });
    expect(patches.map(({ body }) => body)).toEqual([[{ op: 'replace', path: '/puntuacion', value: 5 }]]);
    expect(queryClient.getQueryData<Video>(videoQuery(7).queryKey)).toMatchObject({ puntuacion: 5, puntuacionMedia: 4.2 });
    for (const name of Object.keys(LISTS)) {
      expect(cachedInList(name), name).toMatchObject({ puntuacion: 5, puntuacionMedia: 4.2 });
    }
    expect(invalidated('fourStars')).toBe(true);
    expect(['all', 'favourites', 'notSeen', 'search'].map(invalidated)).toEqual([false, false, false, false]);
  });

  it('takes only the fields it changed: a later write already in the cache is kept', async () => {
    seed({ favorito: false });
    // The favourite changed meanwhile (its answer arrived first); the rating's answer says otherwise.
    queryClient.setQueryData<Video>(videoQuery(7).queryKey, (cached) => cached && { ...cached, favorito: true });
    await createVideoWrites(queryClient).rate({ id: 7, value: 2 });
    expect(queryClient.getQueryData<Video>(videoQuery(7).queryKey)).toMatchObject({ puntuacion: 2, favorito: true });
  });
});

describe('markSeen (R-VID-4)', () => {
  it("PATCH /visto true: the 'No visto' state goes everywhere; lists filtered to not seen lose it", async () => {
    seed({ visto: false });
    await createVideoWrites(queryClient).markSeen({ id: 7 });
    expect(patches.map(({ body }) => body)).toEqual([[{ op: 'replace', path: '/visto', value: true }]]);
    expect(queryClient.getQueryData<Video>(videoQuery(7).queryKey)?.visto).toBe(true);
    expect(idsOf('notSeen')).toEqual([[5, 9], [11, 13]]);
    expect(cachedInList('all')?.visto).toBe(true);
    expect(cachedInList('seen')?.visto).toBe(true);
    expect(invalidated('seen')).toBe(true);
    expect(invalidated('notSeen')).toBe(false);
  });
});

describe('savePosition', () => {
  it('PATCH /posicion in whole seconds; with keepalive when leaving; the cached detail keeps it', async () => {
    seed({});
    const writes = createVideoWrites(queryClient);
    await writes.savePosition({ id: 7, seconds: 61.9 });
    await writes.savePosition({ id: 7, seconds: 75.2, leaving: true });
    expect(patches).toEqual([
      { body: [{ op: 'replace', path: '/posicion', value: 61 }], keepalive: false },
      { body: [{ op: 'replace', path: '/posicion', value: 75 }], keepalive: true },
    ]);
    expect(queryClient.getQueryData<Video>(videoQuery(7).queryKey)?.posicion).toBe(75);
  });
});

describe('videoListQuery', () => {
  it('asks pages of 24 with the filters; X-Total-Count says when there are no more', async () => {
    const asked: Array<Record<string, string>> = [];
    const ids = Array.from({ length: 30 }, (_, index) => index + 1);
    let favourites = new Set(ids);
    server.use(
      http.get('/api/videos', ({ request, response }) => {
        const query = Object.fromEntries(new URL(request.url).searchParams);
        asked.push(query);
        const matching = ids.filter((id) => favourites.has(id));
        const offset = Number(query.offset);
        const page = matching.slice(offset, offset + Number(query.limit)).map((id) => video(id, { favorito: true }));
        return response(200).json(page, { headers: { 'X-Total-Count': String(matching.length) } });
      }),
    );
    const options = videoListQuery({ favorited: 'eq:true' });
    const observer = new InfiniteQueryObserver(queryClient, options);
    const unsubscribe = observer.subscribe(() => {});
    await observer.refetch();
    expect(asked).toEqual([{ favorited: 'eq:true', limit: String(VIDEO_PAGE_SIZE), offset: '0' }]);
    expect(observer.getCurrentResult().hasNextPage).toBe(true);

    // Video 3 leaves the favourites: the list loses it, and the next page starts after the 23 still loaded.
    stored = video(3, { favorito: true });
    favourites = new Set(ids.filter((id) => id !== 3));
    await createVideoWrites(queryClient).setFavorite({ id: 3, value: false });
    await observer.fetchNextPage();
    expect(asked.at(-1)).toMatchObject({ offset: '23', limit: '24' });
    const loaded = observer.getCurrentResult().data?.pages.flatMap((page) => page.videos.map((entry) => entry.id));
    expect(loaded).toEqual(ids.filter((id) => id !== 3));
    expect(observer.getCurrentResult().hasNextPage).toBe(false);
    unsubscribe();
  });

  it("sends the browser's time zone with an upload-date filter ('Esta semana' begins on the user's Monday), and only then", async () => {
    const asked: Array<Record<string, string>> = [];
    server.use(
      http.get('/api/videos', ({ request, response }) => {
        asked.push(Object.fromEntries(new URL(request.url).searchParams));
        return response(200).json([], { headers: { 'X-Total-Count': '0' } });
      }),
    );
    await queryClient.fetchInfiniteQuery(videoListQuery({ 'upload-date': 'tw' }));
    await queryClient.fetchInfiniteQuery(videoListQuery({ q: 'gato', favorited: 'eq:true' }));
    const zone = browserTimeZone();
    expect(zone).toBeDefined();
    expect(asked).toEqual([
      { 'upload-date': 'tw', tz: zone, limit: '24', offset: '0' },
      { q: 'gato', favorited: 'eq:true', limit: '24', offset: '0' },
    ]);
  });
});
