import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * Statistics (R-STAT-9): counters of the views (`view_events`) kept up to date in the transaction
 * that records or forgets a view, so the dashboard reads small tables whatever the length of the
 * history (docs/decisions/0045-statistics-counters.md):
 * - `videos.view_count`, `users.view_count`: openings of the video, and by the user;
 * - `organization_views`: openings by users of each organisation (their organisation at the time);
 * - `view_counts_hourly`: openings per UTC hour ('2026-11-22T08'), for the totals and the days.
 * Each ranking has an index in its order (ties by the unique key), so a page is read off the index;
 * the videos' two are partial (ready videos only; rated ones for the rating) so that a deep page is
 * skipped in the index without visiting the rows it skips. The queries spell the partial conditions
 * and the rating's expression exactly as here (with literals, not parameters) for the planners to
 * match them.
 *
 * The list's update trigger (2026-11-22T1400-library-speed, re-created by 1800-uploads) only fires
 * when one of the columns it names changes: a view (view_count) does not make lists forget.
 *
 * The counters are filled from the view events already recorded. The same recomputation is
 * `rebuildViewCounters` (statistics.repository.ts); it is written out here so that this migration
 * keeps doing what it did when the application code changes.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable('videos').addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`create index videos_view_count_idx on videos (view_count desc, id) where status = 'ready'`.execute(db);
  // the average rating as a floating-point quotient (8-byte on both: SQLite's real, PostgreSQL's double precision)
  const double = sql.raw(dialect === 'postgres' ? 'double precision' : 'real');
  await sql`create index videos_rating_rank_idx on videos ((cast(rating_sum as ${double}) / rating_count) desc, rating_count desc, id)
    where status = 'ready' and rating_count > 0`.execute(db);

  await db.schema.alterTable('users').addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('users_view_count_idx').on('users').columns(['view_count desc', 'username_key']).execute();

  await db.schema
    .createTable('organization_views')
    .addColumn('organizacion', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('view_count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organization_views_count_idx').on('organization_views').columns(['view_count desc', 'organizacion']).execute();

  await db.schema
    .createTable('view_counts_hourly')
    /** the UTC hour: the first 13 characters of the ISO instant, '2026-11-22T08' */
    .addColumn('hour', 'varchar(13)', (c) => c.primaryKey())
    .addColumn('view_count', 'integer', (c) => c.notNull())
    .execute();

  await sql`update videos set view_count = (select count(*) from view_events e where e.video_id = videos.id)`.execute(db);
  await sql`update users set view_count = (select count(*) from view_events e where e.user_id = users.id)`.execute(db);
  await sql`insert into organization_views (organizacion, view_count)
    select organizacion, count(*) from view_events where organizacion is not null group by organizacion`.execute(db);
  await sql`insert into view_counts_hourly (hour, view_count)
    select substr(viewed_at, 1, 13), count(*) from view_events group by substr(viewed_at, 1, 13)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('view_counts_hourly').ifExists().execute();
  await db.schema.dropTable('organization_views').ifExists().execute();
  // SQLite drops a column only once no index names it.
  await db.schema.dropIndex('users_view_count_idx').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('view_count').execute();
  await db.schema.dropIndex('videos_view_count_idx').ifExists().execute();
  await db.schema.dropIndex('videos_rating_rank_idx').ifExists().execute();
  await db.schema.alterTable('videos').dropColumn('view_count').execute();
}
