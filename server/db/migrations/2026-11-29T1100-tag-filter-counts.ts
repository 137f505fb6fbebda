import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * The total of a list filtered by tags (and a score): `video_tag_filters` holds, per tag of a video,
 * what those filters and the visibility rule read of the video (ready, is_visible, organizacion, the
 * rounded score), in one narrow index, so the total is read from that index alone instead of joining
 * every ready video with the tags' videos (docs/decisions/0090). Kept by triggers in the transaction
 * of every write of a video's tags, status, visibility, organisation or rating, on both dialects.
 * A video or tag deleted takes its rows with it (foreign keys).
 */
const ROUNDED = (v: string) => `(case when ${v}.rating_count = 0 then 0 else (2 * ${v}.rating_sum + ${v}.rating_count) / (2 * ${v}.rating_count) end)`;
const FROM_VIDEO = (v: string) => `case when ${v}.status = 'ready' then 1 else 0 end, ${v}.is_visible, ${v}.organizacion, ${ROUNDED(v)}`;
const CHANGED = (distinct: string) =>
  sql.raw(['status', 'is_visible', 'organizacion', 'rating_sum', 'rating_count'].map((c) => `old.${c} ${distinct} new.${c}`).join(' or '));

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('video_tag_filters')
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('video_id', 'integer', (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('ready', 'integer', (c) => c.notNull())
    .addColumn('is_visible', 'integer', (c) => c.notNull())
    .addColumn('organizacion', 'varchar(100)')
    .addColumn('score', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('video_tag_filters_pk', ['tag_id', 'video_id'])
    .execute();
  // The totals' index: a tag's ready videos by score, covering the visibility columns and the id.
  await db.schema
    .createIndex('video_tag_filters_count_idx')
    .on('video_tag_filters')
    .columns(['tag_id', 'ready', 'score', 'is_visible', 'organizacion', 'video_id'])
    .execute();
  await db.schema.createIndex('video_tag_filters_video_idx').on('video_tag_filters').column('video_id').execute();
  await sql`insert into video_tag_filters (tag_id, video_id, ready, is_visible, organizacion, score)
    select vt.tag_id, vt.video_id, ${sql.raw(FROM_VIDEO('v'))} from video_tags vt join videos v on v.id = vt.video_id`.execute(db);

  if (dialect === 'postgres') {
    await sql`create function video_tag_filters_of_tags() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          delete from video_tag_filters where tag_id = old.tag_id and video_id = old.video_id;
        end if;
        if tg_op <> 'DELETE' then
          insert into video_tag_filters (tag_id, video_id, ready, is_visible, organizacion, score)
            select new.tag_id, new.video_id, ${sql.raw(FROM_VIDEO('v'))} from videos v where v.id = new.video_id
            on conflict (tag_id, video_id) do nothing;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger video_tags_filters after insert or update or delete on video_tags
      for each row execute function video_tag_filters_of_tags()`.execute(db);
    await sql`create function video_tag_filters_of_video() returns trigger language plpgsql as $$
      begin
        update video_tag_filters set (ready, is_visible, organizacion, score) = (${sql.raw(FROM_VIDEO('new'))}) where video_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger videos_tag_filters after update on videos
      for each row when (${CHANGED('is distinct from')}) execute function video_tag_filters_of_video()`.execute(db);
    await sql`create function video_tag_filters_truncate() returns trigger language plpgsql as $$
      begin
        delete from video_tag_filters;
        return null;
      end $$`.execute(db);
    await sql`create trigger video_tags_filters_truncate after truncate on video_tags
      for each statement execute function video_tag_filters_truncate()`.execute(db);
  } else {
    const remove = 'delete from video_tag_filters where tag_id = old.tag_id and video_id = old.video_id;';
    const add = `insert or ignore into video_tag_filters (tag_id, video_id, ready, is_visible, organizacion, score)
      select new.tag_id, new.video_id, ${FROM_VIDEO('v')} from videos v where v.id = new.video_id;`;
    await sql`create trigger video_tags_filters_insert after insert on video_tags begin ${sql.raw(add)} end`.execute(db);
    await sql`create trigger video_tags_filters_delete after delete on video_tags begin ${sql.raw(remove)} end`.execute(db);
    await sql`create trigger video_tags_filters_update after update on video_tags begin ${sql.raw(remove)} ${sql.raw(add)} end`.execute(db);
    await sql`create trigger videos_tag_filters after update on videos when ${CHANGED('is not')} begin
      update video_tag_filters set ready = case when new.status = 'ready' then 1 else 0 end, is_visible = new.is_visible,
        organizacion = new.organizacion, score = ${sql.raw(ROUNDED('new'))} where video_id = new.id;
      end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`drop trigger if exists video_tags_filters on video_tags`.execute(db);
    await sql`drop trigger if exists video_tags_filters_truncate on video_tags`.execute(db);
    await sql`drop trigger if exists videos_tag_filters on videos`.execute(db);
    for (const f of ['video_tag_filters_of_tags', 'video_tag_filters_of_video', 'video_tag_filters_truncate']) {
      await sql`drop function if exists ${sql.raw(f)}()`.execute(db);
    }
  } else {
    for (const trigger of ['video_tags_filters_insert', 'video_tags_filters_delete', 'video_tags_filters_update', 'videos_tag_filters']) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
  }
  await db.schema.dropTable('video_tag_filters').ifExists().execute();
}
