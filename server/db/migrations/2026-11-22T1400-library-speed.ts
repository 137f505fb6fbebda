import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * The speed of the video list (docs/decisions/0085-no-caches-on-the-read-path.md): generation counters that every write
 * of what a list depends on bumps, in its own transaction, so a server remembers list answers until
 * the data changes (several servers share one PostgreSQL database: each reads the counters).
 *
 * Scopes of `video_list_generations`:
 * - `library`: anything but ratings that decides which videos a list holds, in which order, or what
 *   it shows of them: videos inserted, deleted or changed, their tags (`video_tags`), tag names and
 *   the search index (its only writer, refreshSearchIndex, bumps it: an FTS5 table takes no trigger);
 * - `ratings`: a video's rating sum or count (what the score filter reads);
 * - `user:<id>`: that user's favourite or seen marks (what the favourite and not-seen filters read).
 *   Ratings and playback positions of a user do not bump it: those filters do not read them.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('video_list_generations')
    .addColumn('scope', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('generation', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into video_list_generations (scope, generation) values ('library', 0), ('ratings', 0)`.execute(db);

  // Columns of a video a list reads, but its rating (is distinct from: nulls compare equal).
  const shown = ['id', 'id_externo', 'titulo', 'descripcion', 'descripcion_corta', 'duracion', 'organizacion', 'nombre_usuario_alta',
    'is_visible', 'status', 'has_thumbnail', 'has_preview', 'fecha_alta'];
  const rated = ['rating_sum', 'rating_count'];
  const changed = (columns: string[], distinct: string) => sql.raw(columns.map((c) => `old.${c} ${distinct} new.${c}`).join(' or '));
  const markChanged = (distinct: string) => sql.raw(`old.user_id ${distinct} new.user_id or old.video_id ${distinct} new.video_id or old.favorito ${distinct} new.favorito or old.visto ${distinct} new.visto`);

  if (dialect === 'postgres') {
    await sql`create function video_list_bump() returns trigger language plpgsql as $$
      begin
        update video_list_generations set generation = generation + 1 where scope = tg_argv[0];
        return null;
      end $$`.execute(db);
    await sql`create function video_list_bump_user() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          insert into video_list_generations as g (scope, generation) values ('user:' || old.user_id, 1)
            on conflict (scope) do update set generation = g.generation + 1;
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.user_id <> old.user_id) then
          insert into video_list_generations as g (scope, generation) values ('user:' || new.user_id, 1)
            on conflict (scope) do update set generation = g.generation + 1;
        end if;
        return null;
      end $$`.execute(db);
    // Inserts and deletes once per statement (a bulk insert bumps once); updates per changed row.
    await sql`create trigger videos_list_write after insert or delete or truncate on videos
      for each statement execute function video_list_bump('library')`.execute(db);
    await sql`create trigger videos_list_update after update on videos
      for each row when (${changed(shown, 'is distinct from')}) execute function video_list_bump('library')`.execute(db);
    await sql`create trigger videos_list_rating after update on videos
      for each row when (${changed(rated, 'is distinct from')}) execute function video_list_bump('ratings')`.execute(db);
    await sql`create trigger video_tags_list_write after insert or update or delete or truncate on video_tags
      for each statement execute function video_list_bump('library')`.execute(db);
    await sql`create trigger tags_list_write after update or delete or truncate on tags
      for each statement execute function video_list_bump('library')`.execute(db);
    await sql`create trigger video_user_states_list_insert after insert on video_user_states
      for each row when (new.favorito <> 0 or new.visto <> 0) execute function video_list_bump_user()`.execute(db);
    await sql`create trigger video_user_states_list_update after update on video_user_states
      for each row when (${markChanged('is distinct from')}) execute function video_list_bump_user()`.execute(db);
    await sql`create trigger video_user_states_list_delete after delete on video_user_states
      for each row when (old.favorito <> 0 or old.visto <> 0) execute function video_list_bump_user()`.execute(db);
  } else {
    const bump = (scope: 'library' | 'ratings') => sql.raw(`update video_list_generations set generation = generation + 1 where scope = '${scope}';`);
    const bumpUser = (row: 'old' | 'new') =>
      sql.raw(`insert into video_list_generations (scope, generation) values ('user:' || ${row}.user_id, 1)
        on conflict (scope) do update set generation = generation + 1;`);
    await sql`create trigger videos_list_insert after insert on videos begin ${bump('library')} end`.execute(db);
    await sql`create trigger videos_list_delete after delete on videos begin ${bump('library')} end`.execute(db);
    await sql`create trigger videos_list_update after update on videos when ${changed(shown, 'is not')} begin ${bump('library')} end`.execute(db);
    await sql`create trigger videos_list_rating after update on videos when ${changed(rated, 'is not')} begin ${bump('ratings')} end`.execute(db);
    for (const event of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`video_tags_list_${event}`)} after ${sql.raw(event)} on video_tags begin ${bump('library')} end`.execute(db);
    }
    for (const event of ['update', 'delete']) {
      await sql`create trigger ${sql.raw(`tags_list_${event}`)} after ${sql.raw(event)} on tags begin ${bump('library')} end`.execute(db);
    }
    await sql`create trigger video_user_states_list_insert after insert on video_user_states
      when new.favorito <> 0 or new.visto <> 0 begin ${bumpUser('new')} end`.execute(db);
    await sql`create trigger video_user_states_list_update after update on video_user_states
      when ${markChanged('is not')} begin ${bumpUser('old')} ${bumpUser('new')} end`.execute(db);
    await sql`create trigger video_user_states_list_delete after delete on video_user_states
      when old.favorito <> 0 or old.visto <> 0 begin ${bumpUser('old')} end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    for (const [trigger, table] of [
      ['videos_list_write', 'videos'], ['videos_list_update', 'videos'], ['videos_list_rating', 'videos'],
      ['video_tags_list_write', 'video_tags'], ['tags_list_write', 'tags'], ['video_user_states_list_insert', 'video_user_states'],
      ['video_user_states_list_update', 'video_user_states'], ['video_user_states_list_delete', 'video_user_states'],
    ] as const) {
      await sql`drop trigger if exists ${sql.raw(trigger)} on ${sql.raw(table)}`.execute(db);
    }
    await sql`drop function if exists video_list_bump()`.execute(db);
    await sql`drop function if exists video_list_bump_user()`.execute(db);
  } else {
    for (const trigger of ['videos_list_insert', 'videos_list_delete', 'videos_list_update', 'videos_list_rating', 'video_tags_list_insert',
      'video_tags_list_update', 'video_tags_list_delete', 'tags_list_update', 'tags_list_delete', 'video_user_states_list_insert',
      'video_user_states_list_update', 'video_user_states_list_delete']) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
  }
  await db.schema.dropTable('video_list_generations').ifExists().execute();
}
