import type { components } from '../../../contract/openapi.gen.ts';
import type { AppContext } from '../../context.ts';
import type { QueryOf } from '../../openapi/handlers.ts';
import { invalidField } from '../../plugins/problems.ts';
import { addDays, dateIn, isTimeZone, startOfDay, type CalendarDate } from '../videos/dates.ts';
import {
  bestRatedVideos,
  hourOf,
  mostActiveUsers,
  mostViewedVideos,
  mostWatchingOrganizations,
  readTotals,
  viewsByHour,
  type Page,
} from './statistics.repository.ts';

// What the videos module uses of the statistics: count a view, and forget a deleted video's, in its own transaction.
export { countView, forgetViewsOfVideo } from './statistics.repository.ts';

export type StatisticsParams = QueryOf<'getStatistics'>;
type InfoItem = components['schemas']['StatisticsInfoItem'];
type Row = components['schemas']['StatisticsRow'];
type Day = components['schemas']['StatisticsDay'];

export type StatisticsContext = Pick<AppContext, 'db'>;

/** The days of the views-per-day series and of the recent views' box. */
export const RECENT_DAYS = 30;
/** The contract's page defaults (openapi.yaml: limit 1–100, default 5). */
const DEFAULT_LIMIT = 5;

/** Two decimals, as the average rating is shown. */
const twoDecimals = (value: number) => Math.round(value * 100) / 100;

/** GET /api/statistics: the info boxes, one page of one table, or the views per day. */
export async function getStatistics(ctx: StatisticsContext, params: StatisticsParams, now: number = Date.now()): Promise<InfoItem[] | Row[] | Day[]> {
  switch (params.option) {
    case 'infoBox':
      return infoBoxes(ctx, now);
    case 'infoTable': {
      if (!params.table) throw invalidField('query.table', 'is required with option=infoTable (uma, oma, vmv or vmr)');
      return tablePage(ctx, params.table, { limit: params.limit ?? DEFAULT_LIMIT, offset: params.offset ?? 0 });
    }
    case 'viewsPerDay': {
      const tz = params.tz ?? 'UTC';
      if (!isTimeZone(tz)) throw invalidField('query.tz', 'not a time zone (an IANA name such as Europe/Madrid)');
      return viewsPerDay(ctx, tz, now);
    }
  }
}

/** The info boxes, in the order the dashboard shows them. */
export async function infoBoxes(ctx: StatisticsContext, now: number): Promise<InfoItem[]> {
  const recentFrom = hourOf(new Date(now - RECENT_DAYS * 86_400_000).toISOString());
  const totals = await readTotals(ctx.db.kysely, recentFrom);
  const box = (id: string, icon: string, count: number, title: string): InfoItem => ({ infoBox: { id, icon, count, title } });
  return [
    box('videos', 'videos', totals.videos, 'Videos'),
    box('users', 'users', totals.users, 'Usuarios'),
    box('organizations', 'organizations', totals.organizations, 'Organizaciones'),
    box('views', 'views', totals.views, 'Visualizaciones'),
    box('views-30d', 'views-30d', totals.recentViews, `Visualizaciones (${RECENT_DAYS} días)`),
    box('rating', 'rating', totals.ratingCount === 0 ? 0 : twoDecimals(totals.ratingSum / totals.ratingCount), 'Puntuación media'),
    // R-STAT-10: accessibility at a glance, the captioned videos and their part of all (4 decimals)
    { infoBox: { id: 'subtitulos', icon: 'subtitles', count: totals.captioned, share: totals.videos === 0 ? 0 : Math.round((totals.captioned / totals.videos) * 10_000) / 10_000, title: 'Videos con subtítulos' } },
  ];
}

/** One page of a table, best first, ties broken by a unique key (pages never overlap nor skip rows). */
export async function tablePage(ctx: StatisticsContext, table: components['schemas']['StatisticsTable'], page: Page): Promise<Row[]> {
  const db = ctx.db.kysely;
  switch (table) {
    case 'uma':
      return (await mostActiveUsers(db, page)).map((r) => ({ usuario: r.username, nombre: r.nombre, videosVistos: Number(r.view_count) }));
    case 'oma':
      return (await mostWatchingOrganizations(db, page)).map((r) => ({ organizacion: r.organizacion, videosVistos: Number(r.view_count) }));
    case 'vmv':
      return (await mostViewedVideos(db, page)).map((r) => ({ id: r.id, video: r.titulo, visualizaciones: Number(r.view_count) }));
    case 'vmr':
      return (await bestRatedVideos(db, ctx.db.dialect, page)).map((r) => ({
        id: r.id,
        video: r.titulo,
        puntuacion: twoDecimals(Number(r.rating_sum) / Number(r.rating_count)),
      }));
  }
}

const isoDate = (d: CalendarDate) => `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/**
 * The views of the last RECENT_DAYS days in a time zone, oldest first, today included, days without
 * views as 0. Each UTC hour's views count on the local day that hour starts in: exact for zones a
 * whole number of hours from UTC; in the few zones offset by a half or a quarter hour, an hour that
 * straddles local midnight counts wholly on the day it starts in.
 */
export async function viewsPerDay(ctx: StatisticsContext, timeZone: string, now: number): Promise<Day[]> {
  const today = dateIn(timeZone, now);
  const days = Array.from({ length: RECENT_DAYS }, (_, i) => addDays(today, i - (RECENT_DAYS - 1)));
  // starts[i]: the first instant of days[i]; starts[RECENT_DAYS]: of tomorrow
  const starts = [...days, addDays(today, 1)].map((d) => startOfDay(timeZone, d));
  const counts = new Array<number>(RECENT_DAYS).fill(0);
  const hours = await viewsByHour(ctx.db.kysely, hourOf(new Date(starts[0]!).toISOString()));
  let day = 0;
  for (const { hour, view_count } of hours) {
    const at = Date.parse(`${hour}:00:00.000Z`);
    if (at < starts[0]!) continue; // the hour began on the day before the first (a half-hour zone)
    while (day < RECENT_DAYS && at >= starts[day + 1]!) day += 1;
    if (day === RECENT_DAYS) break; // after today (a clock set back)
    counts[day] = counts[day]! + Number(view_count);
  }
  return days.map((d, i) => ({ dia: isoDate(d), visualizaciones: counts[i]! }));
}
