import type { Kysely, Selectable } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database, VideoSubtitlesTable } from '../../db/schema.ts';

/** The Kysely queries of the subtitle tracks (`video_subtitles`). Every function takes the database or a transaction. */
export type Executor = Kysely<Database>;
export type SubtitleRow = Selectable<VideoSubtitlesTable>;

/** The video's tracks (any order). */
export async function findSubtitleRows(db: Executor, videoId: number): Promise<SubtitleRow[]> {
  return db.selectFrom('video_subtitles').selectAll().where('video_id', '=', videoId).execute();
}

/** The track, locked for this transaction on PostgreSQL (a concurrent replacement waits; SQLite has one writer). */
export async function lockSubtitleRow(db: Executor, dialect: DialectName, videoId: number, idioma: string): Promise<SubtitleRow | undefined> {
  const query = db.selectFrom('video_subtitles').selectAll().where('video_id', '=', videoId).where('idioma', '=', idioma);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * Inserts the track unless the video has one in that language: true when inserted (PostgreSQL waits
 * for a concurrent insert of the same key to end first). When not, lock it (lockSubtitleRow).
 */
export async function insertSubtitleRow(db: Executor, row: SubtitleRow): Promise<boolean> {
  const inserted = await db
    .insertInto('video_subtitles')
    .values(row)
    .onConflict((oc) => oc.columns(['video_id', 'idioma']).doNothing())
    .returning('video_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateSubtitleRow(db: Executor, videoId: number, idioma: string, changes: Pick<SubtitleRow, 'cue_count' | 'updated_at'>): Promise<void> {
  await db.updateTable('video_subtitles').set(changes).where('video_id', '=', videoId).where('idioma', '=', idioma).execute();
}

/** Deletes the track; answers the deleted row (undefined: there was none). */
export async function deleteSubtitleRow(db: Executor, videoId: number, idioma: string): Promise<SubtitleRow | undefined> {
  return db.deleteFrom('video_subtitles').where('video_id', '=', videoId).where('idioma', '=', idioma).returningAll().executeTakeFirst();
}
