/** Types of the video list's filters (R-LIB-1, R-LIB-9, R-LIB-13, R-LIB-12). */
import type { operations } from '../../contract/openapi.gen.ts';

/** The filters' keys in the address and in session storage (R-LIB-12). */
export type FilterKey = 'q' | 'tag' | 'fav' | 'upload-date' | 'score' | 'not-seen' | 'subtitulos';

/** The filters as the address carries them (`?q=gatos&tag=in:3,7&fav=eq:true&score=gte:4…`). */
export type FilterSearch = Partial<Record<FilterKey, string>>;

/** tw this week, tm this month, l6m last 6 months, ty this year (R-LIB-9). */
export type UploadPeriod = 'tw' | 'tm' | 'l6m' | 'ty';
export type UploadDateFilter =
  | { period: UploadPeriod }
  /** 'es despues de': uploaded after this day (YYYY-MM-DD). */
  | { after: string }
  /** Between two days, inclusive (YYYY-MM-DD); the API knows it, the chips do not offer it. */
  | { from: string; to: string };

export type ScoreOperator = 'eq' | 'gte' | 'lte';
export type Stars = 1 | 2 | 3 | 4 | 5;
export interface ScoreFilter {
  operator: ScoreOperator;
  stars: Stars;
}

/** The filters, read. `null` (or no tag) is "no filter". */
export interface VideoFilters {
  q: string | null;
  /** `in:` list of tag ids, in the order they were chosen. */
  tagIds: number[];
  /** `eq:true` / `eq:false`. */
  favorite: boolean | null;
  uploadDate: UploadDateFilter | null;
  score: ScoreFilter | null;
  /** `eq:true` / `eq:false`. */
  notSeen: boolean | null;
  /** `con` / `sin` (administrators, R-LIB-26): videos with subtitles, or without any. */
  subtitles: SubtitlesFilter | null;
}
export type SubtitlesFilter = 'con' | 'sin';
export type FilterName = keyof VideoFilters;

/** GET /api/videos's query (the seven filters; paging is added by the list). */
export type VideoListQuery = NonNullable<operations['listVideos']['parameters']['query']>;

export type VideoTab = 'todos' | 'favoritos' | 'no-vistos';

export interface VideoFiltersInput {
  /** The address when the list opens. */
  search: FilterSearch;
}

export interface VideoFiltersContext {
  filters: VideoFilters;
}

/**
 * From the app: 'filters.restore' once on entering the list, with what session storage holds;
 * 'filters.sync' when the address changed by navigation (a tag link on a card, back/forward, a link
 * to /videos). From the user: 'filters.search' (Enter in the search box), 'filters.tab' (Todos,
 * Favoritos, No vistos), 'filters.set' (a chip, the tag popover or strip), 'filters.clear' (a
 * chip's or the search box's clear control).
 */
export type VideoFiltersEvent =
  | { type: 'filters.restore'; stored: FilterSearch }
  | { type: 'filters.sync'; search: FilterSearch }
  | { type: 'filters.search'; text: string }
  | { type: 'filters.tab'; tab: VideoTab }
  | { type: 'filters.set'; filters: Partial<VideoFilters> }
  | { type: 'filters.clear'; filter: FilterName };

/** Parameters of the app's actions. */
export interface WriteAddressParams {
  search: FilterSearch;
  /** true when restoring: the address without filters is replaced, not pushed into history. */
  replace: boolean;
}
export interface StoreFiltersParams {
  /** The whole set: keys not in it are removed from storage. */
  search: FilterSearch;
}

/** 'restoring': the list must wait (no request with half-known filters). 'ready': the filters are known. */
export type VideoFiltersTag = 'restoring' | 'ready';
