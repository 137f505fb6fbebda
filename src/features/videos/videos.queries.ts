import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { components, operations } from '../../../contract/openapi.gen.ts';
import { api, unwrap } from '../../lib/api/client.ts';
import { browserTimeZone } from '../../lib/time-zone.ts';
import { VIDEO_PAGE_SIZE } from './video-search.ts';

/**
 * The library's reads (R-LIB-17), one `queryOptions` per read, shared by the route loaders that
 * prime them and the components that show them; and the keys the write actors (video.actors.ts)
 * use to find the cached detail and lists.
 *
 * Keys:
 * - `['videos', 'detail', id]`: one video.
 * - `['videos', 'list', query]`: one list, `query` being GET /api/videos's filters (`VideoListQuery`:
 *   q, tag, favorited, score, upload-date, notSeen) plus the time zone; paging is inside the
 *   infinite query. The writes find lists by their filters with `videoListFilter`.
 * - `['videos', 'subtitles', id, languages]`: one video's subtitle tracks.
 * - `['etiquetas']`: every tag.
 */

export type Video = components['schemas']['Video'];
export type Etiqueta = components['schemas']['Etiqueta'];
export type Subtitulo = components['schemas']['Subtitulo'];
export type Capitulo = components['schemas']['Capitulo'];
/** GET /api/videos's filters (no paging). */
export type VideoListQuery = Omit<NonNullable<operations['listVideos']['parameters']['query']>, 'limit' | 'offset'>;

export { VIDEO_PAGE_SIZE };

export const videoKeys = {
  all: ['videos'] as const,
  details: () => ['videos', 'detail'] as const,
  detail: (id: number) => ['videos', 'detail', id] as const,
  subtitles: (id: number, languages: readonly string[]) => ['videos', 'subtitles', id, languages.join(' ')] as const,
  lists: () => ['videos', 'list'] as const,
  list: (query: VideoListQuery) => ['videos', 'list', query] as const,
};

export const tagKeys = {
  all: ['etiquetas'] as const,
};

// The address's video ids have their own module: the route tree matches them in the first screen,
// which does not load the queries.
export { parseVideoId } from './video-id.ts';

/**
 * GET /api/videos/{id} (R-VID-5: "one video (cached without expiry)"): never stale, so it is not
 * fetched again while the page is open (window focus, remount). Every GET records a view
 * (docs/decisions/0031-openings-views-seen-and-position.md): the detail route asks the server again on each opening (see
 * `openVideo`), writes replace the cached copy with the video their PATCH answers.
 */
export function videoQuery(id: number) {
  return queryOptions({
    queryKey: videoKeys.detail(id),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/videos/{id}', { params: { path: { id } }, signal })),
    staleTime: Infinity,
  });
}

/**
 * One opening of a video (the detail route's loader, on entering): asks the server whatever the
 * cache holds, so each opening records its view and shows the current seen mark and playback
 * position; the answer replaces the cached detail. A preload (a pointer over a link) must not call
 * it: that is not an opening.
 */
export function openVideo(queryClient: QueryClient, id: number): Promise<Video> {
  return queryClient.fetchQuery({ ...videoQuery(id), staleTime: 0 });
}

/**
 * GET /api/videos/{id}/subtitulos (R-VID-20): the video's tracks, one per language, with signed
 * `.vtt` locations. Asked only when the video says it has some (`idiomasSubtitulos`), and kept as
 * long as the detail is (the signed locations live as long as the video's media locations).
 */
export function subtitlesQuery(video: Pick<Video, 'id' | 'idiomasSubtitulos'>) {
  return queryOptions({
    // The languages in the key: a track added or removed (the detail's list changes) is asked again.
    queryKey: videoKeys.subtitles(video.id, video.idiomasSubtitulos),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/videos/{id}/subtitulos', { params: { path: { id: video.id } }, signal })),
    enabled: video.idiomasSubtitulos.length > 0,
    staleTime: Infinity,
  });
}

// ---- the list ----------------------------------------------------------------------------------

/** One page of a list as cached: the videos, where it starts, and how many match in all (`X-Total-Count`). */
export interface VideoPage {
  videos: Video[];
  offset: number;
  total: number;
}
export type VideoListData = InfiniteData<VideoPage, number>;

// The browser's time zone is shared with the statistics (src/lib/time-zone.ts).
export { browserTimeZone };

/**
 * The filters as keyed: only the ones set, plus the time zone when the upload date is filtered ('Esta
 * semana' depends on it; nothing else in a list does). Without that filter the zone is not looked
 * up at all: the browser's first Intl date format loads its calendar data (about 100 ms of a phone's
 * main thread), which the list's first render need not wait for.
 */
export function listQueryOf(filters: VideoListQuery, timeZone: () => string | undefined = browserTimeZone): VideoListQuery {
  const query: VideoListQuery = {};
  for (const [key, value] of Object.entries(filters) as Array<[keyof VideoListQuery, string | undefined]>) {
    if (key !== 'tz' && value !== undefined && value !== '') (query as Record<string, string>)[key] = value;
  }
  const zone = query['upload-date'] === undefined ? undefined : timeZone();
  if (zone) query.tz = zone;
  return query;
}

/** How many videos the cached pages hold. */
const loadedCount = (pages: readonly VideoPage[]) => pages.reduce((count, page) => count + page.videos.length, 0);

/**
 * GET /api/videos as an infinite query of `VIDEO_PAGE_SIZE` pages (`useInfiniteQuery`,
 * `useSuspenseInfiniteQuery`, `queryClient.prefetchInfiniteQuery`). `filters` is the API query of
 * the list's filters (`toApiQuery` of machines/video-filters/video-filters.ts); the time zone is
 * added here. The next page starts after every video already loaded, so a video the writes removed
 * from a cached list (video.actors.ts) does not make the next page skip one.
 */
export function videoListQuery(filters: VideoListQuery) {
  const query = listQueryOf(filters);
  return infiniteQueryOptions({
    queryKey: videoKeys.list(query),
    queryFn: async ({ pageParam, signal }): Promise<VideoPage> => {
      const result = await api.GET('/api/videos', {
        params: { query: { ...query, limit: VIDEO_PAGE_SIZE, offset: pageParam } },
        signal,
      });
      const videos = unwrap(result);
      const header = Number(result.response.headers.get('X-Total-Count') ?? Number.NaN);
      // Without a readable count, a full page means there may be more.
      const total = Number.isSafeInteger(header) && header >= 0
        ? header
        : pageParam + videos.length + (videos.length === VIDEO_PAGE_SIZE ? 1 : 0);
      return { videos, offset: pageParam, total };
    },
    initialPageParam: 0,
    getNextPageParam: (lastPage, allPages) => {
      const loaded = loadedCount(allPages);
      return lastPage.videos.length > 0 && loaded < lastPage.total ? loaded : undefined;
    },
  });
}

/**
 * Finds cached lists by their filters, for `queryClient.setQueriesData` / `invalidateQueries`:
 * `videoListFilter((query) => query.favorited === 'eq:true')`.
 */
export function videoListFilter(matches: (query: VideoListQuery) => boolean = () => true) {
  return {
    queryKey: videoKeys.lists(),
    predicate: (entry: { queryKey: QueryKey }) => {
      const query = entry.queryKey[2];
      return typeof query === 'object' && query !== null && matches(query as VideoListQuery);
    },
  };
}

// ---- tags ------------------------------------------------------------------------------------------

/** GET /api/etiquetas: every tag, sorted by name (the default 5-minute cache). */
export function tagsQuery() {
  return queryOptions({
    queryKey: tagKeys.all,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/etiquetas', { signal })),
  });
}
