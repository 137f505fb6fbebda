import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * How many ready videos there are, by what decides who sees them (is_visible, organizacion): the
 * total of an unfiltered list is then a sum over a few rows instead of a scan of every video (about
 * 30 ms at 100,000 videos on PostgreSQL, at every first page; docs/decisions/0090). Kept by triggers
 * in the transaction of every write of a video, on both dialects, so it is exact in any snapshot.
 * `organizacion` is '' with `has_organizacion` 0 for videos of no organisation (a primary key
 * column cannot be null).
 */
const KEY = 'is_visible, has_organizacion, organizacion';
const keyOf = (row: 'old' | 'new') => `${row}.is_visible, case when ${row}.organizacion is null then 0 else 1 end, coalesce(${row}.organizacion, '')`;
const matches = (row: 'old' | 'new') =>
  `is_visible = ${row}.is_visible and has_organizacion = case when ${row}.organizacion is null then 0 else 1 end and organizacion = coalesce(${row}.organizacion, '')`;
const CHANGED = (distinct: string) => sql.raw(['status', 'is_visible', 'organizacion'].map((c) => `old.${c} ${distinct} new.${c}`).join(' or '));

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('video_list_counts')
    .addColumn('is_visible', 'integer', (c) => c.notNull())
    .addColumn('has_organizacion', 'integer', (c) => c.notNull())
    .addColumn('organizacion', 'varchar(100)', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('video_list_counts_pk', ['is_visible', 'has_organizacion', 'organizacion'])
    .execute();
  await sql`insert into video_list_counts (${sql.raw(KEY)}, n)
    select is_visible, case when organizacion is null then 0 else 1 end, coalesce(organizacion, ''), count(*) from videos
    where status = 'ready' group by is_visible, case when organizacion is null then 0 else 1 end, coalesce(organizacion, '')`.execute(db);

  if (dialect === 'postgres') {
    await sql`create function video_list_count() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.status = 'ready' then
          update video_list_counts set n = n - 1 where ${sql.raw(matches('old'))};
        end if;
        if tg_op <> 'DELETE' and new.status = 'ready' then
          insert into video_list_counts as c (${sql.raw(KEY)}, n) values (${sql.raw(keyOf('new'))}, 1)
            on conflict (${sql.raw(KEY)}) do update set n = c.n + 1;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger videos_list_count after insert or delete on videos
      for each row execute function video_list_count()`.execute(db);
    await sql`create trigger videos_list_count_update after update on videos
      for each row when (${CHANGED('is distinct from')}) execute function video_list_count()`.execute(db);
    // A truncate fires no row trigger.
    await sql`create function video_list_count_truncate() returns trigger language plpgsql as $$
      begin
        delete from video_list_counts;
        return null;
      end $$`.execute(db);
    await sql`create trigger videos_list_count_truncate after truncate on videos
      for each statement execute function video_list_count_truncate()`.execute(db);
  } else {
    const decrement = sql.raw(`update video_list_counts set n = n - 1 where old.status = 'ready' and ${matches('old')};`);
    const increment = sql.raw(`insert into video_list_counts (${KEY}, n) select ${keyOf('new')}, 1 where new.status = 'ready'
      on conflict (${KEY}) do update set n = n + 1;`);
    await sql`create trigger videos_list_count_insert after insert on videos begin ${increment} end`.execute(db);
    await sql`create trigger videos_list_count_delete after delete on videos begin ${decrement} end`.execute(db);
    await sql`create trigger videos_list_count_update after update on videos when ${CHANGED('is not')} begin ${decrement} ${increment} end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    for (const trigger of ['videos_list_count', 'videos_list_count_update', 'videos_list_count_truncate']) {
      await sql`drop trigger if exists ${sql.raw(trigger)} on videos`.execute(db);
    }
    await sql`drop function if exists video_list_count()`.execute(db);
    await sql`drop function if exists video_list_count_truncate()`.execute(db);
  } else {
    for (const trigger of ['videos_list_count_insert', 'videos_list_count_delete', 'videos_list_count_update']) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
  }
  await db.schema.dropTable('video_list_counts').ifExists().execute();
}
