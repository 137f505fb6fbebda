import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { idColumn } from './helpers.ts';

/**
 * The library: videos, tags, each user's own state of a video (rating, favourite, seen, playback
 * position), view events, and the full-text index (SQLite FTS5 or a PostgreSQL tsvector with GIN).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const double = dialect === 'postgres' ? 'double precision' : 'real';

  await idColumn(db.schema.createTable('videos'), dialect)
    .addColumn('id_externo', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('titulo', 'varchar(100)', (c) => c.notNull())
    .addColumn('descripcion', 'varchar(1024)')
    .addColumn('descripcion_corta', 'varchar(255)', (c) => c.notNull())
    .addColumn('duracion', sql.raw(double), (c) => c.notNull().defaultTo(0))
    .addColumn('organizacion', 'varchar(100)')
    .addColumn('nombre_usuario_alta', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('is_visible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('ready').check(sql`status in ('ready', 'processing', 'failed')`))
    .addColumn('has_thumbnail', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_preview', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fecha_alta', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // The list: ready videos, newest first (also the upload-date filters). It covers the columns of the
  // visibility and score filters, so a page is found without reading the (wide) rows it skips.
  await db.schema
    .createIndex('videos_list_idx')
    .on('videos')
    .columns(['status', 'fecha_alta desc', 'id desc', 'is_visible', 'organizacion', 'rating_sum', 'rating_count'])
    .execute();
  // The same columns by id: counting the videos of a tag probes this narrow index, not the rows.
  await db.schema
    .createIndex('videos_filter_by_id_idx')
    .on('videos')
    .columns(['id', 'status', 'fecha_alta', 'is_visible', 'organizacion', 'rating_sum', 'rating_count'])
    .execute();
  await db.schema.createIndex('videos_created_by_idx').on('videos').column('created_by').execute();

  await idColumn(db.schema.createTable('tags'), dialect)
    .addColumn('nombre', 'varchar(50)', (c) => c.notNull())
    /** lower-cased name: unique, so two tags never differ only in case */
    .addColumn('nombre_key', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('video_tags')
    .addColumn('video_id', 'integer', (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('video_tags_pk', ['video_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('video_tags_tag_idx').on('video_tags').columns(['tag_id', 'video_id']).execute();

  // One row per user and video they touched: rating (1–5), favourite, seen, playback position.
  await db.schema
    .createTable('video_user_states')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('video_id', 'integer', (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('puntuacion', 'integer', (c) => c.check(sql`puntuacion between 1 and 5`))
    .addColumn('favorito', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visto', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visto_at', 'varchar(32)')
    .addColumn('posicion', sql.raw(double), (c) => c.check(sql`posicion >= 0`))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('video_user_states_pk', ['user_id', 'video_id'])
    .execute();
  await db.schema.createIndex('video_user_states_video_idx').on('video_user_states').column('video_id').execute();

  // One row per opening of a video (the statistics read them).
  await idColumn(db.schema.createTable('view_events'), dialect)
    .addColumn('video_id', 'integer', (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** the user's organisation when they watched */
    .addColumn('organizacion', 'varchar(100)')
    .addColumn('viewed_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('view_events_viewed_at_idx').on('view_events').column('viewed_at').execute();
  await db.schema.createIndex('view_events_video_idx').on('view_events').columns(['video_id', 'viewed_at']).execute();
  await db.schema.createIndex('view_events_user_idx').on('view_events').columns(['user_id', 'video_id', 'viewed_at']).execute();
  await db.schema.createIndex('view_events_organizacion_idx').on('view_events').columns(['organizacion', 'viewed_at']).execute();

  if (dialect === 'postgres') {
    // Text normalised in JS (lower case, no diacritics), weighted A title, B short description and tags, C long description.
    await db.schema
      .createTable('video_search')
      .addColumn('video_id', 'integer', (c) => c.primaryKey().references('videos.id').onDelete('cascade'))
      .addColumn('document', sql`tsvector`, (c) => c.notNull())
      .execute();
    await sql`create index video_search_document_idx on video_search using gin (document)`.execute(db);
  } else {
    // rowid = videos.id. Case and diacritics folded by the tokenizer; prefix indexes for the last word.
    await sql`create virtual table videos_fts using fts5(
      titulo, descripcion_corta, etiquetas, descripcion,
      tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
    )`.execute(db);
    // Deleting a video (by any path) drops its index row; writes keep it current in the same transaction.
    await sql`create trigger videos_fts_delete after delete on videos begin
      delete from videos_fts where rowid = old.id;
    end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await db.schema.dropTable('video_search').ifExists().execute();
  } else {
    await sql`drop trigger if exists videos_fts_delete`.execute(db);
    await sql`drop table if exists videos_fts`.execute(db);
  }
  for (const table of ['view_events', 'video_user_states', 'video_tags', 'tags', 'videos']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
