import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { components } from '../../../contract/openapi.gen.ts';
import { playbackMachine } from '../../../machines/playback/playback.machine.ts';
import { videoOpinionMachine } from '../../../machines/video-opinion/video-opinion.machine.ts';
import type { OpinionChange, RateVideoInput, SetFavoriteInput } from '../../../machines/video-opinion/video-opinion.types.ts';
import type { ToastInput } from '../../../machines/toast/toast.types.ts';
import { api, unwrap } from '../../lib/api/client.ts';
import { libraryMessages } from '../../lib/messages.ts';
import type { ToastStore } from '../../lib/toasts.ts';
import { videoKeys, videoListFilter, type Video, type VideoListData, type VideoListQuery } from './videos.queries.ts';

export type { RateVideoInput, SetFavoriteInput };

type VideoPatchOperation = components['schemas']['VideoPatchOperation'];

export interface MarkSeenInput {
  id: number;
}
export interface SavePositionInput {
  id: number;
  /** Seconds from the start. */
  seconds: number;
  /**
   * The page is going away (unmount, pagehide): the request is sent with `keepalive`, so the
   * browser completes it after the page is gone.
   */
  leaving?: boolean;
}

/** The fields of a video each write changes (what the cached copies take from its answer). */
type VideoFields = Partial<Pick<Video, 'puntuacion' | 'puntuacionMedia' | 'favorito' | 'visto' | 'posicion'>>;

/** A list's filter on a boolean field (`favorited`, `notSeen`) and the value the video now has for it. */
interface Membership {
  filter: 'favorited' | 'notSeen';
  value: boolean;
}

async function patchVideo(id: number, body: VideoPatchOperation[], init: { keepalive?: boolean } = {}): Promise<Video> {
  // Writes are not tied to the screen's lifetime (no AbortSignal): once sent, the answer still
  // updates the cache if the user has left the page meanwhile.
  return unwrap(await api.PATCH('/api/videos/{id}', { params: { path: { id } }, body, ...init }));
}

function mergeIntoPages(data: VideoListData | undefined, id: number, fields: VideoFields): VideoListData | undefined {
  if (!data?.pages.some((page) => page.videos.some((video) => video.id === id))) return undefined;
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.videos.some((video) => video.id === id)
        ? { ...page, videos: page.videos.map((video) => (video.id === id ? { ...video, ...fields } : video)) }
        : page,
    ),
  };
}

/** A cached list without the video (undefined: it was not there); every page's total drops by one. */
export function removeFromPages(data: VideoListData | undefined, id: number): VideoListData | undefined {
  if (!data?.pages.some((page) => page.videos.some((video) => video.id === id))) return undefined;
  // Every page's count drops by one: the next page is asked for after the videos still loaded.
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      videos: page.videos.filter((video) => video.id !== id),
      total: Math.max(0, page.total - 1),
    })),
  };
}

/**
 * The writes of a video's own state (R-LIB-18): each PATCH answers the updated video, and the
 * cached copies take the fields that write changed (not the whole answer: an answer to an earlier
 * write arriving late must not undo a later one). Lists are found by their filters (`videoListFilter`).
 */
export function createVideoWrites(queryClient: QueryClient) {
  const mergeDetail = (id: number, fields: VideoFields) =>
    queryClient.setQueryData<Video>(videoKeys.detail(id), (video) => (video ? { ...video, ...fields } : video));

  /**
   * The video in every cached list. With `membership`, lists filtered to the other value lose it
   * (R-LIB-18), and lists filtered to its new value, which may lack it, are refreshed (invalidated:
   * at once when on screen, else when next shown).
   */
  const updateLists = (id: number, fields: VideoFields, membership?: Membership) => {
    const belongs = (query: VideoListQuery) =>
      !membership || query[membership.filter] === undefined || query[membership.filter] === `eq:${membership.value}`;
    if (membership) {
      queryClient.setQueriesData<VideoListData>(videoListFilter((query) => !belongs(query)), (data) => removeFromPages(data, id));
    }
    queryClient.setQueriesData<VideoListData>(videoListFilter(belongs), (data) => mergeIntoPages(data, id, fields));
    if (membership) {
      void queryClient.invalidateQueries(videoListFilter((query) => query[membership.filter] === `eq:${membership.value}`));
    }
  };

  return {
    /** PATCH /puntuacion: the detail and the lists show the new stars; lists filtered by score are refreshed. */
    async rate({ id, value }: RateVideoInput): Promise<Video> {
      const video = await patchVideo(id, [{ op: 'replace', path: '/puntuacion', value }]);
      const fields = { puntuacion: video.puntuacion, puntuacionMedia: video.puntuacionMedia };
      mergeDetail(id, fields);
      updateLists(id, fields);
      // The average changed: whether the video matches a score filter may have changed too.
      void queryClient.invalidateQueries(videoListFilter((query) => query.score !== undefined));
      return video;
    },

    /** PATCH /favorito: the detail and the hearts; lists filtered to the other value lose it. */
    async setFavorite({ id, value }: SetFavoriteInput): Promise<Video> {
      const video = await patchVideo(id, [{ op: 'replace', path: '/favorito', value }]);
      mergeDetail(id, { favorito: video.favorito });
      updateLists(id, { favorito: video.favorito }, { filter: 'favorited', value: video.favorito });
      return video;
    },

    /** PATCH /visto true: the 'No visto' chips go; lists filtered to not seen lose it. */
    async markSeen({ id }: MarkSeenInput): Promise<Video> {
      const video = await patchVideo(id, [{ op: 'replace', path: '/visto', value: true }]);
      mergeDetail(id, { visto: video.visto });
      updateLists(id, { visto: video.visto }, { filter: 'notSeen', value: !video.visto });
      return video;
    },

    /** PATCH /posicion (whole seconds, within the contract's 0–1,000,000). */
    async savePosition({ id, seconds, leaving = false }: SavePositionInput): Promise<Video> {
      const value = Math.min(Math.max(Math.floor(Number.isFinite(seconds) ? seconds : 0), 0), 1_000_000);
      const video = await patchVideo(id, [{ op: 'replace', path: '/posicion', value }], leaving ? { keepalive: true } : {});
      mergeDetail(id, { posicion: video.posicion });
      return video;
    },
  };
}

export type VideoWrites = ReturnType<typeof createVideoWrites>;

/**
 * The library's write actors for the machines (`machine.provide({ actors })`), made with the app's
 * query cache (the router context's `queryClient`).
 */
export function createVideoActors(queryClient: QueryClient) {
  const writes = createVideoWrites(queryClient);
  return {
    rateVideo: fromPromise<Video, RateVideoInput>(({ input }) => writes.rate(input)),
    setFavorite: fromPromise<Video, SetFavoriteInput>(({ input }) => writes.setFavorite(input)),
    markSeen: fromPromise<Video, MarkSeenInput>(({ input }) => writes.markSeen(input)),
    savePosition: fromPromise<Video, SavePositionInput>(({ input }) => writes.savePosition(input)),
  };
}

export type VideoActors = ReturnType<typeof createVideoActors>;

// ---- the detail page's machines, as the app runs them ----------------------------------------------

/** The R-VID-2 toast of a rating or favourite change that was saved or failed. */
export function opinionToast(change: OpinionChange, outcome: 'saved' | 'failed'): ToastInput {
  if (outcome === 'saved') {
    const message =
      change.change === 'rating'
        ? libraryMessages.ratingSaved(change.value)
        : change.value
          ? libraryMessages.favoriteAdded
          : libraryMessages.favoriteRemoved;
    return { kind: 'success', message };
  }
  const message =
    change.change === 'rating'
      ? libraryMessages.ratingFailed
      : change.value
        ? libraryMessages.favoriteAddFailed
        : libraryMessages.favoriteRemoveFailed;
  return { kind: 'error', message };
}

/**
 * The rating and favourite machine with the app's writes and toasts (the detail page; a card's
 * heart may use it too, with input `{ videoId, rating, favorite }`).
 */
export function createVideoOpinionLogic(queryClient: QueryClient, toasts: ToastStore) {
  const { rateVideo, setFavorite } = createVideoActors(queryClient);
  // The toast's actor is created just after the machine's step: XState warns when a machine is
  // created while a custom action runs (it mistakes the new machine's initial context for an `assign`).
  const show = (toast: ToastInput) => queueMicrotask(() => void toasts.show(toast));
  return videoOpinionMachine.provide({
    actors: { rateVideo, setFavorite },
    actions: {
      notifySaved: (_, change) => show(opinionToast(change, 'saved')),
      notifyFailed: (_, change) => show(opinionToast(change, 'failed')),
    },
  });
}

/**
 * The playback machine with the app's position saving: fire-and-forget, a failure only logged
 * (the next save sends the position again). The host supplies `seek` (it owns the media element).
 */
export function createPlaybackLogic(queryClient: QueryClient) {
  const writes = createVideoWrites(queryClient);
  return playbackMachine.provide({
    actions: {
      savePosition: (_, params) => {
        writes.savePosition(params).catch((error: unknown) => console.warn('The playback position was not saved', error));
      },
    },
  });
}

/** What the detail page runs: its two machines and the seen mark of an opening. */
export function createVideoDetailLogic(queryClient: QueryClient, toasts: ToastStore) {
  const writes = createVideoWrites(queryClient);
  return {
    opinionLogic: createVideoOpinionLogic(queryClient, toasts),
    playbackLogic: createPlaybackLogic(queryClient),
    /** PATCH /visto true; a failure is only logged (the video stays 'No visto' until a later opening). */
    markSeen: (id: number) => {
      writes.markSeen({ id }).catch((error: unknown) => console.warn('The video was not marked as seen', error));
    },
  };
}

export type VideoDetailLogic = ReturnType<typeof createVideoDetailLogic>;
