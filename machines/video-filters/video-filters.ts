/**
 * Pure functions of the list's filters (R-LIB-12, R-LIB-9, R-LIB-13): read the address (invalid values fall
 * back to "no filter"), write it back, build GET /api/videos's query, and the tabs.
 */
import type {
  FilterKey,
  FilterSearch,
  ScoreFilter,
  ScoreOperator,
  Stars,
  SubtitlesFilter,
  UploadDateFilter,
  UploadPeriod,
  VideoFilters,
  VideoListQuery,
  VideoTab,
} from './video-filters.types.ts';

export const FILTER_KEYS: readonly FilterKey[] = ['q', 'tag', 'fav', 'upload-date', 'score', 'not-seen', 'subtitulos'];

export const NO_FILTERS: VideoFilters = Object.freeze({
  q: null,
  tagIds: [],
  favorite: null,
  uploadDate: null,
  score: null,
  notSeen: null,
  subtitles: null,
}) as VideoFilters;

/** The API's limits (openapi.yaml: QueryText max 200, TagFilter up to 50 ids of 1..2^31-1). */
export const MAX_SEARCH_LENGTH = 200;
export const MAX_TAGS = 50;
const MAX_ID = 2_147_483_647;

const PERIODS: readonly UploadPeriod[] = ['tw', 'tm', 'l6m', 'ty'];

function readText(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  return text !== '' && text.length <= MAX_SEARCH_LENGTH ? text : null;
}

function readTagIds(value: string | undefined): number[] | null {
  const match = /^in:(\d+(?:,\d+)*)$/.exec(value?.trim() ?? '');
  if (!match) return null;
  const ids = match[1]!.split(',').map(Number);
  if (!ids.every((id) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID)) return null;
  const unique = [...new Set(ids)];
  return unique.length <= MAX_TAGS ? unique : null;
}

function readBoolean(value: string | undefined): boolean | null {
  const text = value?.trim();
  if (text === 'eq:true' || text === 'true') return true;
  if (text === 'eq:false' || text === 'false') return false;
  return null;
}

/** A real calendar day written YYYY-MM-DD (no 2024-02-30). */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

function readUploadDate(value: string | undefined): UploadDateFilter | null {
  const text = value?.trim() ?? '';
  if ((PERIODS as readonly string[]).includes(text)) return { period: text as UploadPeriod };
  if (text.startsWith('gt:') && isDay(text.slice(3))) return { after: text.slice(3) };
  const between = /^btw:([\d-]+),([\d-]+)$/.exec(text);
  if (between && isDay(between[1]!) && isDay(between[2]!) && between[1]! <= between[2]!) {
    return { from: between[1]!, to: between[2]! };
  }
  return null;
}

function readSubtitles(value: string | undefined): SubtitlesFilter | null {
  const text = value?.trim();
  return text === 'con' || text === 'sin' ? text : null;
}

function readScore(value: string | undefined): ScoreFilter | null {
  const match = /^(eq|gte|lte):([1-5])$/.exec(value?.trim() ?? '');
  return match ? { operator: match[1] as ScoreOperator, stars: Number(match[2]) as Stars } : null;
}

/**
 * The filters of an address (or of session storage). Anything unreadable is no filter (R-LIB-13:
 * invalid values fall back to defaults), never an error.
 *
 * R-LIB-13 records that the tag filter was once written under the score key: a `score` that reads
 * as a tag list (`score=in:3,7`) is taken as the tag filter when there is no `tag`, so such
 * addresses keep working; the filters are always written back under `tag`.
 */
export function parseFilters(search: FilterSearch): VideoFilters {
  const tagIds = readTagIds(search.tag) ?? (search.tag === undefined ? readTagIds(search.score) : null) ?? [];
  return {
    q: readText(search.q),
    tagIds,
    favorite: readBoolean(search.fav),
    uploadDate: readUploadDate(search['upload-date']),
    score: readScore(search.score),
    notSeen: readBoolean(search['not-seen']),
    subtitles: readSubtitles(search.subtitulos),
  };
}

function writeUploadDate(filter: UploadDateFilter): string {
  if ('period' in filter) return filter.period;
  if ('after' in filter) return `gt:${filter.after}`;
  return `btw:${filter.from},${filter.to}`;
}

/** The address (and storage) form of the filters: only the filters that are set. */
export function toSearch(filters: VideoFilters): FilterSearch {
  const search: FilterSearch = {};
  if (filters.q) search.q = filters.q;
  if (filters.tagIds.length > 0) search.tag = `in:${filters.tagIds.join(',')}`;
  if (filters.favorite !== null) search.fav = `eq:${filters.favorite}`;
  if (filters.uploadDate) search['upload-date'] = writeUploadDate(filters.uploadDate);
  if (filters.score) search.score = `${filters.score.operator}:${filters.score.stars}`;
  if (filters.notSeen !== null) search['not-seen'] = `eq:${filters.notSeen}`;
  if (filters.subtitles) search.subtitulos = filters.subtitles;
  return search;
}

/** Only valid filters: what the address would read back. */
export function normalizeFilters(filters: VideoFilters): VideoFilters {
  return parseFilters(toSearch(filters));
}

/** GET /api/videos's query for the filters (openapi.yaml listVideos): `fav` → favorited, `not-seen` → notSeen. */
export function toApiQuery(filters: VideoFilters): VideoListQuery {
  const search = toSearch(normalizeFilters(filters));
  const query: VideoListQuery = {};
  if (search.q) query.q = search.q;
  if (search.tag) query.tag = search.tag;
  if (search.fav) query.favorited = search.fav as VideoListQuery['favorited'];
  if (search.score) query.score = search.score;
  if (search['upload-date']) query['upload-date'] = search['upload-date'];
  if (search['not-seen']) query.notSeen = search['not-seen'] as VideoListQuery['notSeen'];
  if (search.subtitulos) query.subtitulos = search.subtitulos as VideoListQuery['subtitulos'];
  return query;
}

export function hasFilters(filters: VideoFilters): boolean {
  return Object.keys(toSearch(filters)).length > 0;
}

export function sameFilters(a: VideoFilters, b: VideoFilters): boolean {
  const left = toSearch(a);
  const right = toSearch(b);
  return FILTER_KEYS.every((key) => left[key] === right[key]);
}

/** R-LIB-4: Favoritos sets the favourite filter to equals-true, No vistos the not-seen one; Todos clears every filter. */
export function filtersForTab(filters: VideoFilters, tab: VideoTab): VideoFilters {
  if (tab === 'favoritos') return { ...filters, favorite: true, notSeen: null };
  if (tab === 'no-vistos') return { ...filters, notSeen: true, favorite: null };
  return { ...NO_FILTERS, tagIds: [] };
}

/** The tab that shows as selected. */
export function tabOf(filters: VideoFilters): VideoTab {
  if (filters.favorite === true) return 'favoritos';
  if (filters.notSeen === true) return 'no-vistos';
  return 'todos';
}
