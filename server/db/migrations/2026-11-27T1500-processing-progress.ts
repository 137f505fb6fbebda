import type { Kysely } from 'kysely';

/**
 * How much of an upload's rewrite into a file every browser plays is done (0–100), kept by the
 * instance that processes it and read by GET /api/uploads/{id} on any instance (the wizard shows
 * it under 'Procesando el video…'); null when no rewrite is running.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('processing_progress', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('processing_progress').execute();
}
