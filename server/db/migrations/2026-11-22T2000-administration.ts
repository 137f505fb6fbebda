import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { idColumn } from './helpers.ts';

/**
 * Administration (R-SEC-5):
 * - `audit_log`: one row per administrative change (tag created/renamed/deleted, role changed, user
 *   blocked/unblocked, invitation created/revoked, video created/edited/deleted, second factor reset),
 *   written in the transaction of the change: who (id and name at the time), when, what, on which
 *   subject, and the before/after values as JSON text.
 * - tags are unique ignoring case AND accents: `nombre_key` becomes the folded name (lower case, no
 *   diacritics: 'Formación' → 'formacion'). Tags that only differed in accents are merged first into
 *   the oldest one (their videos keep the tag).
 */

/** The same folding as tagKey (etiquetas.repository.ts), frozen here as this migration applies it. */
function fold(nombre: string): string {
  return nombre.trim().normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().normalize('NFC');
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await idColumn(db.schema.createTable('audit_log'), dialect)
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    /** who made the change (null: the operator's command line, or a user since deleted) and their name then */
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_nombre', 'varchar(200)')
    /** e.g. 'tag.created', 'user.role-changed', 'video.deleted' */
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(64)')
    /** JSON text of the changed fields before and after (null when there is no before / after) */
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute();

  const tags = await sql<{ id: number; nombre: string; nombre_key: string }>`select id, nombre, nombre_key from tags order by id`.execute(db);
  const keep = new Map<string, number>();
  for (const tag of tags.rows) {
    const key = fold(tag.nombre);
    const kept = keep.get(key);
    if (kept === undefined) {
      keep.set(key, tag.id);
      continue;
    }
    // A tag differing only in accents from an older one: its videos get the older tag, then it goes.
    await sql`insert into video_tags (video_id, tag_id)
      select video_id, ${kept} from video_tags vt where vt.tag_id = ${tag.id}
        and not exists (select 1 from video_tags o where o.video_id = vt.video_id and o.tag_id = ${kept})`.execute(db);
    await sql`delete from tags where id = ${tag.id}`.execute(db);
  }
  for (const tag of tags.rows) {
    const key = fold(tag.nombre);
    if (keep.get(key) === tag.id && key !== tag.nombre_key) {
      await sql`update tags set nombre_key = ${key} where id = ${tag.id}`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update tags set nombre_key = lower(nombre)`.execute(db);
  await db.schema.dropTable('audit_log').ifExists().execute();
}
