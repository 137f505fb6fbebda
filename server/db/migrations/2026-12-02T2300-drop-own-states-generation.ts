import type { Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import * as ownStates from './2026-11-28T1000-own-states-generation.ts';

/**
 * Drops the `states:<id>` generations and their triggers (migration 2026-11-28T1000): nothing reads
 * them since lists read every caller's own fields at each request
 * (docs/decisions/0085-no-caches-on-the-read-path.md), and each write of a rating, favourite, seen mark
 * or playback position paid for an upsert. The `library`, `ratings` and `user:<id>` scopes stay: the
 * text-search page cache keys on them (docs/decisions/0064-text-search-page-cache.md).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await ownStates.down(db, dialect);
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await ownStates.up(db, dialect);
}
