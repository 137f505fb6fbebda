import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, UploadsTable } from '../../db/schema.ts';

/** The Kysely queries of upload sessions. Every function takes the database or a transaction. */
export type Executor = Kysely<Database>;
export type UploadRow = Selectable<UploadsTable>;
export type NewUploadRow = Insertable<UploadsTable>;
export type UploadChanges = Omit<Updateable<UploadsTable>, 'asset_id'>;

/** How many attempts processing gets (a restart in the middle counts one) before the upload fails. */
export const MAX_PROCESSING_ATTEMPTS = 3;

export function findUpload(db: Executor, assetId: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('asset_id', '=', assetId).executeTakeFirst();
}

export async function insertUpload(db: Executor, row: NewUploadRow): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}

/** Changes columns of an upload row (updated_at included by the caller); answers whether it exists. */
export async function updateUpload(db: Executor, assetId: string, changes: UploadChanges): Promise<boolean> {
  const result = await db.updateTable('uploads').set(changes).where('asset_id', '=', assetId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the upload row of an asset (its files are the caller's: storage.deleteAsset). */
export async function deleteUpload(db: Executor, assetId: string): Promise<void> {
  await db.deleteFrom('uploads').where('asset_id', '=', assetId).execute();
}

/** An uploaded thumbnail waits to be adopted; the row is made (video already `ready`) for an asset of an existing video. */
export async function markThumbnailPending(db: Executor, assetId: string, at: string, expiresAt: string): Promise<void> {
  await db
    .insertInto('uploads')
    .values({ asset_id: assetId, created_at: at, expires_at: expiresAt, video_state: 'ready', thumbnail_pending: 1, updated_at: at })
    .onConflict((oc) => oc.column('asset_id').doUpdateSet({ thumbnail_pending: 1, updated_at: at }))
    .execute();
}

/** The pending thumbnail was adopted (converted to thumbnail.jpg): nothing waits any more. */
export async function markThumbnailAdopted(db: Executor, assetId: string): Promise<void> {
  await db.updateTable('uploads').set({ thumbnail_pending: 0, updated_at: new Date().toISOString() }).where('asset_id', '=', assetId).execute();
}

/** The video of an existing video row made from this asset, if any. */
export function findVideoOfAsset(db: Executor, assetId: string): Promise<{ id: number; duracion: number | null } | undefined> {
  return db.selectFrom('videos').select(['id', 'duracion']).where('id_externo', '=', assetId).executeTakeFirst();
}

/** Counts one processing attempt of a row in `processing`; answers the attempts made so far, undefined when it is not processing. */
export async function countProcessingAttempt(db: Executor, assetId: string, at: string): Promise<number | undefined> {
  const row = await db
    .updateTable('uploads')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), processing_started_at: at, updated_at: at }))
    .where('asset_id', '=', assetId)
    .where('video_state', '=', 'processing')
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
}

/** Rows a stopped server left in `processing` (resumed at start). */
export async function listProcessing(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('uploads').select('asset_id').where('video_state', '=', 'processing').orderBy('updated_at').execute();
  return rows.map((r) => r.asset_id);
}

/** Uploads no video was made from, whose locations expired before `before` (not while processing). */
export async function listAbandoned(db: Executor, before: string): Promise<string[]> {
  const rows = await db
    .selectFrom('uploads as u')
    .select('u.asset_id')
    .where('u.expires_at', '<', before)
    .where('u.video_state', '!=', 'processing')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('videos as v').select('v.id').whereRef('v.id_externo', '=', 'u.asset_id'))))
    .execute();
  return rows.map((r) => r.asset_id);
}

/** Of these asset ids, those a video or an upload row still names (the rest are files nobody owns). */
export async function knownAssets(db: Executor, assetIds: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < assetIds.length; i += 500) {
    const chunk = assetIds.slice(i, i + 500);
    const [videos, uploads] = await Promise.all([
      db.selectFrom('videos').select('id_externo as id').where('id_externo', 'in', chunk).execute(),
      db.selectFrom('uploads').select('asset_id as id').where('asset_id', 'in', chunk).execute(),
    ]);
    for (const row of [...videos, ...uploads]) known.add(row.id);
  }
  return known;
}
