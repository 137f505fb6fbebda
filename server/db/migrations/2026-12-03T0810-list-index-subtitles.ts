import type { Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * The list's two covering indexes (migration 2026-11-22T1000-library) also hold
 * `subtitle_languages`, so the `subtitulos=con|sin` filter (R-LIB-22) is answered off them like the
 * visibility and score filters: its count read every video's wide row before (measured at 100,000
 * videos: a filtered first page cost about twenty times an unfiltered one; bench/results.md).
 */
const LIST = ['status', 'fecha_alta desc', 'id desc', 'is_visible', 'organizacion', 'rating_sum', 'rating_count'];
const BY_ID = ['id', 'status', 'fecha_alta', 'is_visible', 'organizacion', 'rating_sum', 'rating_count'];

async function rebuild(db: Kysely<unknown>, extra: string[]): Promise<void> {
  await db.schema.dropIndex('videos_list_idx').execute();
  await db.schema.createIndex('videos_list_idx').on('videos').columns([...LIST, ...extra]).execute();
  await db.schema.dropIndex('videos_filter_by_id_idx').execute();
  await db.schema.createIndex('videos_filter_by_id_idx').on('videos').columns([...BY_ID, ...extra]).execute();
}

export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await rebuild(db, ['subtitle_languages']);
}

export async function down(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await rebuild(db, []);
}
