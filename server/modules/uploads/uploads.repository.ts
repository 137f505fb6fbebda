import type { ExpressionBuilder, Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DialectName } from '../../db/database.ts';
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

/**
 * The upload row, locked until the transaction ends on PostgreSQL (SQLite's writers go one at a
 * time anyway): a video made of it reads the HLS heights no rendition finishing meanwhile changes.
 */
export function findUploadForUpdate(db: Executor, dialect: DialectName, assetId: string): Promise<UploadRow | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('asset_id', '=', assetId)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
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

/**
 * Claims the processing of a row in `processing` for `owner` until `until`, counting one attempt:
 * one conditional update, so among instances claiming at once exactly one wins, and only while no
 * unexpired lease is held (an expired one, of an instance that died, is taken over). Answers the
 * attempts made so far, undefined when the row is not processing or another instance holds it.
 */
export async function claimProcessing(db: Executor, assetId: string, owner: string, at: string, until: string): Promise<number | undefined> {
  const row = await db
    .updateTable('uploads')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), processing_started_at: at, claimed_by: owner, claimed_until: until, processing_progress: null, updated_at: at }))
    .where('asset_id', '=', assetId)
    .where('video_state', '=', 'processing')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
}

/** Extends the lease `owner` holds; false when it holds it no more (it ran out and was taken over, or the row changed). */
export async function renewClaim(db: Executor, assetId: string, owner: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ claimed_until: until })
    .where('asset_id', '=', assetId)
    .where('video_state', '=', 'processing')
    .where('claimed_by', '=', owner)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Records how much of the video's rewrite is done, only while `owner` holds its lease. */
export async function recordProcessingProgress(db: Executor, assetId: string, owner: string, percent: number): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ processing_progress: percent })
    .where('asset_id', '=', assetId)
    .where('video_state', '=', 'processing')
    .where('claimed_by', '=', owner)
    .execute();
}

/** Records the outcome of processing and ends the lease, only while `owner` holds it; answers whether it did. */
export async function finishClaim(db: Executor, assetId: string, owner: string, changes: UploadChanges): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ ...changes, claimed_by: null, claimed_until: null, processing_progress: null })
    .where('asset_id', '=', assetId)
    .where('video_state', '=', 'processing')
    .where('claimed_by', '=', owner)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives up the leases `owner` still holds (a stopping instance), so another instance takes them at once. */
export async function releaseClaims(db: Executor, owner: string): Promise<number> {
  const result = await db
    .updateTable('uploads')
    .set({ claimed_by: null, claimed_until: null, processing_progress: null })
    .where((eb) => eb.or([eb('video_state', '=', 'processing'), eb('stream_state', '=', 'pending')]))
    .where('claimed_by', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A ready upload whose HLS stage is pending, claimable now (nobody holds an unexpired lease of it). */
const streamClaimable = (at: string) => (eb: ExpressionBuilder<Database, 'uploads'>) =>
  eb.and([eb('video_state', '=', 'ready'), eb('stream_state', '=', 'pending'), eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)])]);

/** Claims the HLS stage of a ready upload for `owner` until `until` (as claimProcessing: one instance wins). */
export async function claimStreaming(db: Executor, assetId: string, owner: string, at: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ claimed_by: owner, claimed_until: until })
    .where('asset_id', '=', assetId)
    .where(streamClaimable(at))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Extends the HLS stage's lease `owner` holds; false when it holds it no more. */
export async function renewStreamingClaim(db: Executor, assetId: string, owner: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ claimed_until: until })
    .where('asset_id', '=', assetId)
    .where('stream_state', '=', 'pending')
    .where('claimed_by', '=', owner)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ends the HLS stage `owner` holds: 'done', or 'failed' (not tried again; `npm run cli -- hls` may). */
export async function finishStreaming(db: Executor, assetId: string, owner: string, state: 'done' | 'failed'): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ stream_state: state, claimed_by: null, claimed_until: null })
    .where('asset_id', '=', assetId)
    .where('stream_state', '=', 'pending')
    .where('claimed_by', '=', owner)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ready uploads whose HLS stage is pending and unclaimed (left by a stopped or dead instance), oldest first. */
export async function listStreamable(db: Executor, at: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('uploads').select('asset_id').where(streamClaimable(at)).orderBy('updated_at').limit(limit).execute();
  return rows.map((r) => r.asset_id);
}

/** Rows in `processing` nobody holds an unexpired lease of (left by a stopped instance, or not started yet), oldest first. */
export async function listClaimable(db: Executor, at: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('uploads')
    .select('asset_id')
    .where('video_state', '=', 'processing')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .orderBy('updated_at')
    .limit(limit)
    .execute();
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
