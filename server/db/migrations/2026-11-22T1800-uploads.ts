import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * Uploads (R-UPL-3): one row per upload session (POST /api/uploads), keyed by its asset id, that
 * follows the video file from the signed location through processing (probe, thumbnail, preview);
 * POST /api/videos takes the asset of a `ready` row. Videos gain `thumbnail_version`, bumped when a
 * thumbnail is replaced, so the signed thumbnail location changes and caches fetch the new picture;
 * the list's update trigger is re-created to count it among the columns a list shows.
 */
/** Columns of a video a list shows (2026-11-22T1400-library-speed), but its rating. */
const SHOWN = ['id', 'id_externo', 'titulo', 'descripcion', 'descripcion_corta', 'duracion', 'organizacion', 'nombre_usuario_alta',
  'is_visible', 'status', 'has_thumbnail', 'has_preview', 'fecha_alta'];

/** (Re)creates the videos' list update trigger: an update that changes one of `columns` bumps the library generation. */
async function createListUpdateTrigger(db: Kysely<unknown>, dialect: DialectName, columns: string[]): Promise<void> {
  const changed = (distinct: string) => sql.raw(columns.map((c) => `old.${c} ${distinct} new.${c}`).join(' or '));
  if (dialect === 'postgres') {
    await sql`drop trigger if exists videos_list_update on videos`.execute(db);
    await sql`create trigger videos_list_update after update on videos
      for each row when (${changed('is distinct from')}) execute function video_list_bump('library')`.execute(db);
  } else {
    await sql`drop trigger if exists videos_list_update`.execute(db);
    await sql`create trigger videos_list_update after update on videos when ${changed('is not')} begin
      update video_list_generations set generation = generation + 1 where scope = 'library'; end`.execute(db);
  }
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const double = dialect === 'postgres' ? 'double precision' : 'real';
  await db.schema
    .createTable('uploads')
    .addColumn('asset_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    /** the signed locations of the session stop working then; unfinished uploads are removed after it */
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('video_state', 'varchar(16)', (c) =>
      c.notNull().defaultTo('pending').check(sql`video_state in ('pending', 'receiving', 'processing', 'ready', 'failed')`))
    /** the content type the video arrived with, and its size once known (announced, Content-Range or complete) */
    .addColumn('video_content_type', 'varchar(100)')
    .addColumn('video_size', 'bigint')
    /** what processing learnt: duration (seconds), whether it made a thumbnail and a preview */
    .addColumn('duracion', sql.raw(double))
    .addColumn('has_thumbnail', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_preview', 'integer', (c) => c.notNull().defaultTo(0))
    /** why processing failed (for the administrator), null otherwise */
    .addColumn('error', 'varchar(500)')
    /** processing attempts (a restart in the middle resumes the job; too many fail it) */
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processing_started_at', 'varchar(32)')
    /** a thumbnail was uploaded and waits to be adopted by POST /api/videos or PATCH /thumbnail */
    .addColumn('thumbnail_pending', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_state_idx').on('uploads').columns(['video_state', 'expires_at']).execute();

  await db.schema.alterTable('videos').addColumn('thumbnail_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  // The list's update trigger (2026-11-22T1400-library-speed) with thumbnail_version among the shown columns.
  await createListUpdateTrigger(db, dialect, [...SHOWN, 'thumbnail_version']);
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createListUpdateTrigger(db, dialect, SHOWN);
  await db.schema.alterTable('videos').dropColumn('thumbnail_version').execute();
  await db.schema.dropTable('uploads').ifExists().execute();
}
