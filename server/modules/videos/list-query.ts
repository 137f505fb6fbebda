import type { DialectName } from '../../db/database.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { QueryOf } from '../../openapi/handlers.ts';
import { isTimeZone, parseDate, uploadDateRange, type UploadDateFilter } from './dates.ts';
import { queryWords } from './search.ts';
import type { VideoListQuery } from './videos.repository.ts';

export type ListVideosParams = QueryOf<'listVideos'>;

/** The largest page (the contract's `limit` maximum) and the page size without `limit`. */
export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;
/** Tag ids are 32-bit in the database. */
const MAX_ID = 2_147_483_647;

const invalid = (field: string, message: string) => new HttpProblem(400, 'validation-error', `${field}: ${message}`, [{ field, message }]);

/**
 * The list query of GET /api/videos, from its query string (already checked against the contract's
 * patterns): what the patterns cannot say (a real time zone, real calendar days, ids in range) is
 * checked here, and the calendar filters become instants in the caller's time zone.
 */
export function parseListQuery(params: ListVideosParams, dialect: DialectName, now: number = Date.now()): VideoListQuery {
  const query: VideoListQuery = {
    words: params.q ? queryWords(params.q, dialect) : [],
    limit: Math.min(params.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    offset: params.offset ?? 0,
  };

  if (params.tag) {
    const ids = [...new Set(params.tag.slice('in:'.length).split(',').map(Number))];
    if (ids.some((id) => !Number.isSafeInteger(id) || id < 1 || id > MAX_ID)) throw invalid('query.tag', `tag ids go from 1 to ${MAX_ID}`);
    query.tagIds = ids;
  }
  if (params.favorited) query.favorited = params.favorited === 'eq:true';
  if (params.notSeen) query.notSeen = params.notSeen === 'eq:true';
  if (params.subtitulos) query.subtitled = params.subtitulos === 'con';
  if (params.score) {
    const [op, value] = params.score.split(':') as ['eq' | 'gte' | 'lte', string];
    query.score = { op, value: Number(value) };
  }

  const tz = params.tz ?? 'UTC';
  if (!isTimeZone(tz)) throw invalid('query.tz', 'not a time zone (an IANA name such as Europe/Madrid)');
  const uploadDate = params['upload-date'];
  if (uploadDate) {
    const range = uploadDateRange(parseUploadDate(uploadDate), tz, now);
    if (range.from) query.uploadedFrom = range.from;
    if (range.before) query.uploadedBefore = range.before;
  }
  return query;
}

function parseUploadDate(text: string): UploadDateFilter {
  const field = 'query.upload-date';
  if (text === 'tw' || text === 'tm' || text === 'l6m' || text === 'ty') return { op: text };
  const [op, operand = ''] = text.split(':');
  const days = operand.split(',').map(parseDate);
  if (days.some((d) => d === undefined)) throw invalid(field, 'not a calendar day (YYYY-MM-DD)');
  if (op === 'gt' && days.length === 1) return { op: 'gt', date: days[0]! };
  if (op === 'btw' && days.length === 2) {
    const [from, to] = days as [NonNullable<(typeof days)[0]>, NonNullable<(typeof days)[0]>];
    const key = (d: typeof from) => d.year * 10_000 + d.month * 100 + d.day;
    if (key(from) > key(to)) throw invalid(field, 'the first day is after the second');
    return { op: 'btw', from, to };
  }
  throw invalid(field, 'one of tw, tm, l6m, ty, gt:YYYY-MM-DD, btw:YYYY-MM-DD,YYYY-MM-DD');
}
