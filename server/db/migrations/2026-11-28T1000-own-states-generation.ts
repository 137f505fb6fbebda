import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * A generation of each user's own fields
 * (docs/decisions/0085-no-caches-on-the-read-path.md): scope `states:<id>` of `video_list_generations`, bumped in the
 * transaction of every write of that user's rating, favourite, seen mark or playback position of any
 * video (a row of `video_user_states` added, changed in one of those or removed), whoever writes
 * it. The list then reads a user's own fields of a page only when they changed since it last did.
 * A change of `visto_at` or `updated_at` alone does not bump it: lists show neither.
 */
const SHOWN = ['user_id', 'video_id', 'puntuacion', 'favorito', 'visto', 'posicion'];

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const changed = (distinct: string) => sql.raw(SHOWN.map((c) => `old.${c} ${distinct} new.${c}`).join(' or '));
  if (dialect === 'postgres') {
    await sql`create function video_list_bump_states() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          insert into video_list_generations as g (scope, generation) values ('states:' || old.user_id, 1)
            on conflict (scope) do update set generation = g.generation + 1;
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.user_id <> old.user_id) then
          insert into video_list_generations as g (scope, generation) values ('states:' || new.user_id, 1)
            on conflict (scope) do update set generation = g.generation + 1;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger video_user_states_own_insert after insert on video_user_states
      for each row execute function video_list_bump_states()`.execute(db);
    await sql`create trigger video_user_states_own_update after update on video_user_states
      for each row when (${changed('is distinct from')}) execute function video_list_bump_states()`.execute(db);
    await sql`create trigger video_user_states_own_delete after delete on video_user_states
      for each row execute function video_list_bump_states()`.execute(db);
    // A truncate fires no row trigger: every user's generation moves on.
    await sql`create function video_list_bump_all_states() returns trigger language plpgsql as $$
      begin
        update video_list_generations set generation = generation + 1 where scope like 'states:%';
        return null;
      end $$`.execute(db);
    await sql`create trigger video_user_states_own_truncate after truncate on video_user_states
      for each statement execute function video_list_bump_all_states()`.execute(db);
  } else {
    const bump = (row: 'old' | 'new') =>
      sql.raw(`insert into video_list_generations (scope, generation) values ('states:' || ${row}.user_id, 1)
        on conflict (scope) do update set generation = generation + 1;`);
    await sql`create trigger video_user_states_own_insert after insert on video_user_states begin ${bump('new')} end`.execute(db);
    await sql`create trigger video_user_states_own_update after update on video_user_states
      when ${changed('is not')} begin ${bump('old')} ${bump('new')} end`.execute(db);
    await sql`create trigger video_user_states_own_delete after delete on video_user_states begin ${bump('old')} end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    for (const trigger of ['video_user_states_own_insert', 'video_user_states_own_update', 'video_user_states_own_delete', 'video_user_states_own_truncate']) {
      await sql`drop trigger if exists ${sql.raw(trigger)} on video_user_states`.execute(db);
    }
    await sql`drop function if exists video_list_bump_states()`.execute(db);
    await sql`drop function if exists video_list_bump_all_states()`.execute(db);
  } else {
    for (const trigger of ['video_user_states_own_insert', 'video_user_states_own_update', 'video_user_states_own_delete']) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
  }
  await sql`delete from video_list_generations where scope like 'states:%'`.execute(db);
}
