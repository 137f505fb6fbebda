import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, TagsTable } from '../../db/schema.ts';

/** The Kysely queries of tags. Every function takes the database or a transaction. */
export type Executor = Kysely<Database>;
export type TagRow = Selectable<TagsTable>;

/**
 * The key a tag name is unique by: trimmed, lower case, without diacritics ('Formación' and
 * 'FORMACION' are the same tag). The migration 2026-11-22T2000-administration applies the same folding.
 */
export function tagKey(nombre: string): string {
  return nombre.trim().normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().normalize('NFC');
}

export function listTags(db: Executor): Promise<TagRow[]> {
  return db.selectFrom('tags').selectAll().orderBy('nombre_key').orderBy('id').execute();
}

/** The tags among these ids that exist. */
export function findTagsByIds(db: Executor, ids: readonly number[]): Promise<TagRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('tags').selectAll().where('id', 'in', ids).execute();
}

/**
 * The tags of these names (ignoring case and accents), creating those that do not exist yet; answers them
 * in the order of the names (duplicates ignoring case and accents once).
 */
export async function ensureTags(db: Executor, names: readonly string[], at: string): Promise<TagRow[]> {
  const wanted = new Map<string, string>();
  for (const name of names) {
    const nombre = name.trim();
    if (nombre && !wanted.has(tagKey(nombre))) wanted.set(tagKey(nombre), nombre);
  }
  if (wanted.size === 0) return [];
  await db
    .insertInto('tags')
    .values([...wanted].map(([nombre_key, nombre]) => ({ nombre, nombre_key, created_at: at })))
    .onConflict((oc) => oc.column('nombre_key').doNothing())
    .execute();
  const rows = await db.selectFrom('tags').selectAll().where('nombre_key', 'in', [...wanted.keys()]).execute();
  const byKey = new Map(rows.map((r) => [r.nombre_key, r]));
  return [...wanted.keys()].map((k) => byKey.get(k)!);
}

export function findTagById(db: Executor, id: number): Promise<TagRow | undefined> {
  return db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The tag whose name folds to this key (see tagKey). */
export function findTagByKey(db: Executor, key: string): Promise<TagRow | undefined> {
  return db.selectFrom('tags').selectAll().where('nombre_key', '=', key).executeTakeFirst();
}

export function insertTag(db: Executor, tag: Insertable<TagsTable>): Promise<TagRow> {
  return db.insertInto('tags').values(tag).returningAll().executeTakeFirstOrThrow();
}

export async function renameTag(db: Executor, id: number, nombre: string, key: string): Promise<void> {
  await db.updateTable('tags').set({ nombre, nombre_key: key }).where('id', '=', id).execute();
}

/** Deletes the tag; video_tags rows go with it (on delete cascade). */
export async function deleteTagRow(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('tags').where('id', '=', id).execute();
}
