import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { idColumn } from './helpers.ts';

/**
 * Subtitles: one track per video and language (`video_subtitles`; the normalised WebVTT itself is a
 * stored file beside the video's), and each cue's plain text (`video_cues`) so that the list's text
 * search finds what is said. The languages a video has are also kept on `videos.subtitle_languages`
 * (comma-separated, sorted; null: none) for the cards and the with/without filter.
 * - SQLite: `cues_fts`, an FTS5 index over `video_cues.texto` (external content, kept by triggers),
 *   with the same tokenizer as `videos_fts`.
 * - PostgreSQL: `video_cues.document`, a tsvector of the folded text (`simple`), with a GIN index.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const double = dialect === 'postgres' ? 'double precision' : 'real';
  await db.schema
    .createTable('video_subtitles')
    .addColumn('video_id', 'integer', (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('idioma', 'varchar(35)', (c) => c.notNull())
    .addColumn('cue_count', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('video_subtitles_pk', ['video_id', 'idioma'])
    .execute();

  let cues = idColumn(db.schema.createTable('video_cues'), dialect)
    .addColumn('video_id', 'integer', (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('idioma', 'varchar(35)', (c) => c.notNull())
    .addColumn('inicio', sql.raw(double), (c) => c.notNull())
    .addColumn('fin', sql.raw(double), (c) => c.notNull())
    /** the cue's words without markup, as shown in a transcript and a search snippet */
    .addColumn('texto', 'text', (c) => c.notNull());
  if (dialect === 'postgres') cues = cues.addColumn('document', sql`tsvector`, (c) => c.notNull());
  await cues.execute();
  await db.schema.createIndex('video_cues_video_idx').on('video_cues').columns(['video_id', 'idioma', 'inicio']).execute();

  await db.schema.alterTable('videos').addColumn('subtitle_languages', 'varchar(200)').execute();

  if (dialect === 'postgres') {
    await sql`create index video_cues_document_idx on video_cues using gin (document)`.execute(db);
  } else {
    await sql`create virtual table cues_fts using fts5(
      texto, content = 'video_cues', content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
    )`.execute(db);
    await sql`create trigger video_cues_fts_insert after insert on video_cues begin
      insert into cues_fts (rowid, texto) values (new.id, new.texto);
    end`.execute(db);
    await sql`create trigger video_cues_fts_delete after delete on video_cues begin
      insert into cues_fts (cues_fts, rowid, texto) values ('delete', old.id, old.texto);
    end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') {
    await sql`drop trigger if exists video_cues_fts_delete`.execute(db);
    await sql`drop trigger if exists video_cues_fts_insert`.execute(db);
    await sql`drop table if exists cues_fts`.execute(db);
  }
  await db.schema.alterTable('videos').dropColumn('subtitle_languages').execute();
  await db.schema.dropTable('video_cues').ifExists().execute();
  await db.schema.dropTable('video_subtitles').ifExists().execute();
}
