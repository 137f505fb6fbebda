import type { Kysely } from 'kysely';

/**
 * The HLS stage of a ready upload is leased like its processing (claimed_by, claimed_until):
 * `stream_state` is 'pending' from the moment the video is ready until its renditions and storyboard
 * are made ('done') or the stage fails ('failed'); null for uploads from before this change (their
 * renditions come from `npm run cli -- hls`). A pending stage whose instance stopped or died is taken
 * up by the next instance that looks for work (docs/decisions/0108-hls-stage-after-ready.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('stream_state', 'varchar(16)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('stream_state').execute();
}
