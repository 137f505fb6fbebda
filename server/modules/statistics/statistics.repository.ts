import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/**
 * The view counters (migration 2026-11-22T2200-statistics;
 * docs/decisions/0045-statistics-counters.md) and the dashboard's reads of them. Every write runs in the transaction of
 * the view event it counts or forgets, so the counters always equal what `view_events` holds.
 */
export type Executor = Kysely<Database>;

/** The UTC hour bucket of an ISO instant ('2026-11-22T08:15:00.000Z' → '2026-11-22T08'). */
export const hourOf = (instant: string): string => instant.slice(0, 13);

// ── counting views ──────────────────────────────────────────────────────────────────────────────

/** Counts one recorded view event (call it in the transaction that inserted the event). */
export async function countView(trx: Executor, view: { videoId: number; userId: number; organizacion: string | null; at: string }): Promise<void> {
  await sql`update videos set view_count = view_count + 1 where id = ${view.videoId}`.execute(trx);
  await sql`update users set view_count = view_count + 1 where id = ${view.userId}`.execute(trx);
  if (view.organizacion !== null) {
    await sql`insert into organization_views (organizacion, view_count) values (${view.organizacion}, 1)
      on conflict (organizacion) do update set view_count = organization_views.view_count + 1`.execute(trx);
  }
  await sql`insert into view_counts_hourly (hour, view_count) values (${hourOf(view.at)}, 1)
    on conflict (hour) do update set view_count = view_counts_hourly.view_count + 1`.execute(trx);
}

/**
 * Takes a video's views off the users', organisations' and hours' counters: call it in the
 * transaction that deletes the video, before the deletion cascades to its view events (the
 * statistics describe the library as it is). The video's own counter goes with its row. Counters
 * that reach 0 are removed (organisations, hours) so the tables only hold what has views.
 */
export async function forgetViewsOfVideo(trx: Executor, dialect: DialectName, videoId: number): Promise<void> {
  if (dialect === 'postgres') {
    // Rows locked in one order (by key), so two deletions at once cannot wait for each other in a circle;
    // `no key update` (what an update of a counter takes) does not wait for the key-share locks that
    // inserts referencing a user hold (a view being recorded), nor they for it.
    await sql`select id from users where id in (select user_id from view_events where video_id = ${videoId}) order by id for no key update`.execute(trx);
    await sql`select organizacion from organization_views
      where organizacion in (select organizacion from view_events where video_id = ${videoId}) order by organizacion for no key update`.execute(trx);
    await sql`select hour from view_counts_hourly
      where hour in (select substr(viewed_at, 1, 13) from view_events where video_id = ${videoId}) order by hour for no key update`.execute(trx);
  }
  await sql`update users set view_count = view_count - v.n
    from (select user_id, count(*) as n from view_events where video_id = ${videoId} group by user_id) v
    where users.id = v.user_id`.execute(trx);
  await sql`update organization_views set view_count = view_count - v.n
    from (select organizacion, count(*) as n from view_events where video_id = ${videoId} and organizacion is not null group by organizacion) v
    where organization_views.organizacion = v.organizacion`.execute(trx);
  await sql`update view_counts_hourly set view_count = view_count - v.n
    from (select substr(viewed_at, 1, 13) as hour, count(*) as n from view_events where video_id = ${videoId} group by substr(viewed_at, 1, 13)) v
    where view_counts_hourly.hour = v.hour`.execute(trx);
  await sql`delete from organization_views where view_count <= 0`.execute(trx);
  await sql`delete from view_counts_hourly where view_count <= 0`.execute(trx);
}

/**
 * Recomputes every counter from `view_events`, in one transaction (opened here when `db` is not one
 * already): after bulk inserts of view events (the `generate` command), and the reference the tests
 * compare the counters kept as views arrive with.
 */
export async function rebuildViewCounters(db: Executor, dialect: DialectName): Promise<void> {
  if (!db.isTransaction) return db.transaction().execute((trx) => rebuildViewCounters(trx, dialect));
  // Writes first: SQLite takes the write lock before reading anything (another process may be writing);
  // PostgreSQL holds new view events back until this transaction ends.
  if (dialect === 'postgres') await sql`lock table view_events in share mode`.execute(db);
  await sql`delete from view_counts_hourly`.execute(db);
  await sql`delete from organization_views`.execute(db);
  await sql`update videos set view_count = 0 where view_count <> 0`.execute(db);
  await sql`update users set view_count = 0 where view_count <> 0`.execute(db);
  await sql`update videos set view_count = v.n
    from (select video_id, count(*) as n from view_events group by video_id) v where videos.id = v.video_id`.execute(db);
  await sql`update users set view_count = v.n
    from (select user_id, count(*) as n from view_events group by user_id) v where users.id = v.user_id`.execute(db);
  await sql`insert into organization_views (organizacion, view_count)
    select organizacion, count(*) from view_events where organizacion is not null group by organizacion`.execute(db);
  await sql`insert into view_counts_hourly (hour, view_count)
    select substr(viewed_at, 1, 13), count(*) from view_events group by substr(viewed_at, 1, 13)`.execute(db);
}

/** Every counter, in a stable order (the tests compare the kept ones with a rebuild's). */
export interface ViewCounters {
  videos: Array<[number, number]>;
  users: Array<[number, number]>;
  organizations: Array<[string, number]>;
  hours: Array<[string, number]>;
}

export async function readViewCounters(db: Executor): Promise<ViewCounters> {
  const [videos, users, organizations, hours] = await Promise.all([
    db.selectFrom('videos').select(['id', 'view_count']).where('view_count', '<>', 0).orderBy('id').execute(),
    db.selectFrom('users').select(['id', 'view_count']).where('view_count', '<>', 0).orderBy('id').execute(),
    db.selectFrom('organization_views').select(['organizacion', 'view_count']).orderBy('organizacion').execute(),
    db.selectFrom('view_counts_hourly').select(['hour', 'view_count']).orderBy('hour').execute(),
  ]);
  return {
    videos: videos.map((r) => [r.id, Number(r.view_count)]),
    users: users.map((r) => [r.id, Number(r.view_count)]),
    organizations: organizations.map((r) => [r.organizacion, Number(r.view_count)]),
    hours: hours.map((r) => [r.hour, Number(r.view_count)]),
  };
}

// ── the dashboard's reads ───────────────────────────────────────────────────────────────────────

export interface Totals {
  videos: number;
  users: number;
  organizations: number;
  views: number;
  /** views in the hours from `recentFrom` on */
  recentViews: number;
  /** over the ready videos */
  ratingSum: number;
  ratingCount: number;
  /** ready videos with at least one subtitle track (R-STAT-10) */
  captioned: number;
}

/** The info boxes' numbers, in one statement (one snapshot); `recentFrom` is an hour bucket. */
export async function readTotals(db: Executor, recentFrom: string): Promise<Totals> {
  // the ready videos are read once for their number, their ratings and how many have subtitles
  const result = await sql<Record<keyof Totals, number | string | null>>`select
    v.videos,
    (select count(*) from users) as users,
    (select count(distinct organizacion) from users where organizacion is not null) as organizations,
    (select sum(view_count) from view_counts_hourly) as views,
    (select sum(view_count) from view_counts_hourly where hour >= ${recentFrom}) as "recentViews",
    v."ratingSum",
    v."ratingCount",
    v.captioned
    from (select count(*) as videos, sum(rating_sum) as "ratingSum", sum(rating_count) as "ratingCount", count(subtitle_languages) as captioned
      from videos where status = 'ready') v`.execute(db);
  const row = result.rows[0]!;
  // PostgreSQL's sum of integers is a bigint or numeric (a string): every figure is read as a number.
  const n = (value: number | string | null) => Number(value ?? 0);
  return {
    videos: n(row.videos),
    users: n(row.users),
    organizations: n(row.organizations),
    views: n(row.views),
    recentViews: n(row.recentViews),
    ratingSum: n(row.ratingSum),
    ratingCount: n(row.ratingCount),
    captioned: n(row.captioned),
  };
}

export interface Page {
  limit: number;
  offset: number;
}

/** Users by views, then user name (unique): read off users_view_count_idx. */
export async function mostActiveUsers(db: Executor, page: Page): Promise<Array<{ username: string; nombre: string; view_count: number }>> {
  return db
    .selectFrom('users')
    .select(['username', 'nombre', 'view_count'])
    .where('view_count', '>', 0)
    .orderBy('view_count', 'desc')
    .orderBy('username_key', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Organisations by views, then name (the key): read off organization_views_count_idx. */
export async function mostWatchingOrganizations(db: Executor, page: Page): Promise<Array<{ organizacion: string; view_count: number }>> {
  return db
    .selectFrom('organization_views')
    .select(['organizacion', 'view_count'])
    .where('view_count', '>', 0)
    .orderBy('view_count', 'desc')
    .orderBy('organizacion', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * Ready videos by views, then id: read off videos_view_count_idx, partial on `status = 'ready'`
 * (written as a literal, so the planners see the query implies the index's condition).
 */
export async function mostViewedVideos(db: Executor, page: Page): Promise<Array<{ id: number; titulo: string; view_count: number }>> {
  const result = await sql<{ id: number; titulo: string; view_count: number }>`select id, titulo, view_count
    from videos where status = 'ready' and view_count > 0
    order by view_count desc, id asc
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return result.rows;
}

/**
 * Rated ready videos by average rating (compared exactly as a floating-point quotient: equal
 * fractions give equal quotients), then number of ratings, then id: read off videos_rating_rank_idx,
 * whose expression and condition are spelled here exactly as in the migration.
 */
export async function bestRatedVideos(db: Executor, dialect: DialectName, page: Page): Promise<Array<{ id: number; titulo: string; rating_sum: number; rating_count: number }>> {
  const double = sql.raw(dialect === 'postgres' ? 'double precision' : 'real');
  const result = await sql<{ id: number; titulo: string; rating_sum: number; rating_count: number }>`select id, titulo, rating_sum, rating_count
    from videos where status = 'ready' and rating_count > 0
    order by (cast(rating_sum as ${double}) / rating_count) desc, rating_count desc, id asc
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return result.rows;
}

/** The hourly counters from `fromHour` on (oldest first). */
export async function viewsByHour(db: Executor, fromHour: string): Promise<Array<{ hour: string; view_count: number }>> {
  return db.selectFrom('view_counts_hourly').select(['hour', 'view_count']).where('hour', '>=', fromHour).orderBy('hour').execute();
}
