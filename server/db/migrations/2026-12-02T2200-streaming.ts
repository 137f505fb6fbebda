import type { Kysely } from 'kysely';

/**
 * HLS streaming (server/media/hls.ts): which renditions the asset's master playlist lists
 * (`hls_heights`, comma-separated ascending, null while none is ready) and whether its storyboard
 * exists. On `videos` (toVideo's row) and on `uploads`, where the renditions finished before an
 * administrator made a video of the upload wait to be copied
 * (docs/decisions/0108-hls-stage-after-ready.md). Plain columns: the same SQL on both dialects.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['videos', 'uploads']) {
    await db.schema.alterTable(table).addColumn('hls_heights', 'varchar(40)').execute();
    await db.schema.alterTable(table).addColumn('has_storyboard', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['videos', 'uploads']) {
    await db.schema.alterTable(table).dropColumn('has_storyboard').execute();
    await db.schema.alterTable(table).dropColumn('hls_heights').execute();
  }
}
