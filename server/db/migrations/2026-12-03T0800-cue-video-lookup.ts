import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * SQLite: a narrow index from a cue's id to its video. The search in what is said turns each
 * matching cue of cues_fts (its rowid) into its video; through this index that is a lookup in a
 * small B-tree instead of in the wide rows of video_cues (their text), read several times faster
 * once the cues outgrow the page cache (docs/decisions/0118-caption-search-ranking.md).
 * PostgreSQL reads the rows the GIN index points at anyway: nothing to add there.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') await sql`create index video_cues_id_video_idx on video_cues (id, video_id)`.execute(db);
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') await sql`drop index if exists video_cues_id_video_idx`.execute(db);
}
