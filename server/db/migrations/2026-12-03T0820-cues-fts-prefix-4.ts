import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * SQLite: cues_fts also indexes 4-letter prefixes. A search's last word is a prefix (the user may
 * still be typing); over millions of cues a 4-letter one merged the lists of every word it starts,
 * and with its own prefix index the word + prefix searches were about a third faster for a fifth
 * more index (bench/results.md, caption-search). Rebuilt from video_cues; the triggers stay.
 */
async function recreate(db: Kysely<unknown>, prefixes: string): Promise<void> {
  await sql`drop table cues_fts`.execute(db);
  await sql`create virtual table cues_fts using fts5(
    texto, content = 'video_cues', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2', prefix = ${sql.lit(prefixes)}
  )`.execute(db);
  await sql`insert into cues_fts (cues_fts) values ('rebuild')`.execute(db);
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') await recreate(db, '2 3 4');
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') await recreate(db, '2 3');
}
