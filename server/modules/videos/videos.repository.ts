import { CompiledQuery, sql, type Insertable, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database, Flag, VideosTable, VideoUserStatesTable } from '../../db/schema.ts';
import { countView, forgetViewsOfVideo } from '../statistics/statistics.service.ts';
import { cueCondition, foldedWords, FTS_WEIGHTS, ftsMatchExpression, tsQueryText, tsVectorOf, type SearchDocument } from './search.ts';

/** The Kysely queries of the videos module. Every function takes the database or a transaction. */
export type Executor = Kysely<Database>;

export type VideoRow = Selectable<VideosTable>;
export type NewVideoRow = Insertable<VideosTable>;

/** Who is looking: administrators see every ready video; users the visible ones and their organisation's. */
export interface Viewer {
  userId: number;
  isAdmin: boolean;
  /** the user's organisation when already read (the list reads it with the generations); else the queries read it */
  organizacion?: string | null;
}

/** A video as one user sees it: the row and that user's own state. */
export interface ViewedVideoRow extends ListedVideoRow {
  puntuacion: number | null;
  favorito: Flag | null;
  visto: Flag | null;
  posicion: number | null;
}

export interface VideoListQuery {
  /** words to match (see search.ts); empty: no text filter */
  words: string[];
  /** at least one of these tags */
  tagIds?: number[];
  /** true: only the viewer's favourites; false: only the others */
  favorited?: boolean;
  /** true: only videos the viewer has not seen; false: only seen ones */
  notSeen?: boolean;
  /** compared with the rounded average rating (0 when none) */
  score?: { op: 'eq' | 'gte' | 'lte'; value: number };
  /** fecha_alta ≥ uploadedFrom and < uploadedBefore (ISO instants) */
  uploadedFrom?: string;
  uploadedBefore?: string;
  /** true: only videos with at least one subtitle track; false: only those without (R-LIB-22) */
  subtitled?: boolean;
  limit: number;
  offset: number;
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────────

const VIDEO_COLUMNS = sql.raw(
  'v.id, v.id_externo, v.titulo, v.descripcion, v.descripcion_corta, v.duracion, v.organizacion, v.nombre_usuario_alta, ' +
    'v.is_visible, v.has_thumbnail, v.thumbnail_version, v.has_preview, v.hls_heights, v.has_storyboard, v.subtitle_languages, v.rating_sum, v.rating_count, v.fecha_alta',
);

/** The average rating rounded half up to a whole star, 0 without ratings; integer arithmetic on both dialects. */
const ROUNDED_SCORE = sql.raw('(case when v.rating_count = 0 then 0 else (2 * v.rating_sum + v.rating_count) / (2 * v.rating_count) end)');

const SCORE_OPERATORS = { eq: sql.raw('='), gte: sql.raw('>='), lte: sql.raw('<=') } as const;

const joinAnd = (conditions: RawBuilder<unknown>[]) => sql.join(conditions, sql` and `);

/** Ready videos the viewer may see. */
function visibleTo(viewer: Viewer): RawBuilder<unknown>[] {
  const conditions = [sql`v.status = 'ready'`];
  if (viewer.isAdmin) return conditions;
  if (viewer.organizacion === undefined) {
    // users.organizacion null never equals anything: users without an organisation see visible videos only
    conditions.push(sql`(v.is_visible = 1 or v.organizacion = (select u.organizacion from users u where u.id = ${viewer.userId}))`);
  } else if (viewer.organizacion === null) {
    conditions.push(sql`v.is_visible = 1`);
  } else {
    conditions.push(sql`(v.is_visible = 1 or v.organizacion = ${viewer.organizacion})`);
  }
  return conditions;
}

/**
 * The conditions of the filters. `tagsBy`: `exists` suits a page (walking the list newest first, it
 * stops after the page), `in` suits a count (it starts from the tags' videos).
 */
function filterConditions(viewer: Viewer, query: VideoListQuery, tagsBy: 'exists' | 'in'): RawBuilder<unknown>[] {
  const conditions = visibleTo(viewer);
  if (query.tagIds && query.tagIds.length > 0) {
    const tags = sql.join(query.tagIds);
    conditions.push(
      tagsBy === 'exists'
        ? sql`exists (select 1 from video_tags vt where vt.video_id = v.id and vt.tag_id in (${tags}))`
        : sql`v.id in (select vt.video_id from video_tags vt where vt.tag_id in (${tags}))`,
    );
  }
  // The viewer's marks: the set of the viewer's marked videos, read once (not a probe per video);
  // a video without a row of the viewer's is neither favourite nor seen.
  const marked = (mark: RawBuilder<unknown>) => sql`(select s.video_id from video_user_states s where s.user_id = ${viewer.userId} and ${mark} = 1)`;
  if (query.favorited !== undefined) conditions.push(sql`v.id ${sql.raw(query.favorited ? 'in' : 'not in')} ${marked(sql`s.favorito`)}`);
  if (query.notSeen !== undefined) conditions.push(sql`v.id ${sql.raw(query.notSeen ? 'not in' : 'in')} ${marked(sql`s.visto`)}`);
  if (query.score) conditions.push(sql`${ROUNDED_SCORE} ${SCORE_OPERATORS[query.score.op]} ${query.score.value}`);
  if (query.uploadedFrom) conditions.push(sql`v.fecha_alta >= ${query.uploadedFrom}`);
  if (query.uploadedBefore) conditions.push(sql`v.fecha_alta < ${query.uploadedBefore}`);
  if (query.subtitled !== undefined) conditions.push(sql.raw(`v.subtitle_languages is ${query.subtitled ? 'not null' : 'null'}`));
  return conditions;
}

/**
 * The text matches with their rank (R-LIB-19), as materialized CTEs: only (id, group, rank) leave
 * them, so the documents and cues are read once and never sorted (they spilled to disk for common
 * words). `m`: the videos whose own texts match (group 0, by bm25 / ts_rank); `c`: the videos with
 * at least one matching cue, any language, every word within one cue (group 1 unless also in `m`,
 * by the number of matching cues: counting needs no per-cue rank, which would cost as much again).
 * `u`: their union, one row per video (docs/decisions/0118-caption-search-ranking.md).
 */
function textMatch(dialect: DialectName, words: string[]): { matches: RawBuilder<unknown>; group: RawBuilder<unknown>; rank: RawBuilder<unknown> } | undefined {
  if (words.length === 0) return undefined;
  if (dialect === 'postgres') {
    const tsq = sql`to_tsquery('simple', ${tsQueryText(words)})`;
    return {
      matches: sql`with m as materialized (select s.video_id, -ts_rank(s.document, ${tsq})::float8 as rank from video_search s where s.document @@ ${tsq}),
        c as materialized (select k.video_id, -count(*)::float8 as rank from video_cues k where ${cueCondition(words, 'k')} group by k.video_id),
        u as (select video_id, 0 as grp, rank from m union all select c.video_id, 1 as grp, c.rank from c where not exists (select 1 from m where m.video_id = c.video_id))`,
      group: sql`u.grp`,
      rank: sql`u.rank`,
    };
  }
  const expression = ftsMatchExpression(words);
  return {
    matches: sql`with m as materialized (select rowid as video_id, bm25(videos_fts, ${FTS_WEIGHTS}) as rank from videos_fts where videos_fts match ${expression}),
      c as materialized (select k.video_id, -count(*) as rank from cues_fts f join video_cues k indexed by video_cues_id_video_idx on k.id = f.rowid where cues_fts match ${expression} group by k.video_id),
      u as (select video_id, 0 as grp, rank from m union all select c.video_id, 1 as grp, c.rank from c where c.video_id not in (select video_id from m))`,
    group: sql`u.grp`,
    rank: sql`u.rank`,
  };
}

/** Only the text matches, unranked (to count them): the videos whose own texts or whose cues match. */
function textFilter(dialect: DialectName, words: string[]): RawBuilder<unknown> | undefined {
  if (words.length === 0) return undefined;
  if (dialect === 'postgres') {
    const tsq = sql`to_tsquery('simple', ${tsQueryText(words)})`;
    return sql`v.id in (select s.video_id from video_search s where s.document @@ ${tsq} union select k.video_id from video_cues k where ${cueCondition(words, 'k')})`;
  }
  const expression = ftsMatchExpression(words);
  return sql`v.id in (select rowid from videos_fts where videos_fts match ${expression}
    union select k.video_id from cues_fts f join video_cues k indexed by video_cues_id_video_idx on k.id = f.rowid where cues_fts match ${expression})`;
}

/**
 * The user's own state of the video `v` (puntuacion, favorito, visto, posicion; null without a row):
 * one primary-key lookup per column. SQLite answers these several times faster than the same
 * columns through `left join video_user_states` (about 30 against 150 µs for one video).
 */
const ownStateColumns = (userId: number) =>
  sql.join(
    (['puntuacion', 'favorito', 'visto', 'posicion'] as const).map(
      (column) => sql`(select s.${sql.raw(column)} from video_user_states s where s.user_id = ${userId} and s.video_id = v.id) as ${sql.raw(column)}`,
    ),
  );
const NEWEST = sql`v.fecha_alta desc, v.id desc`;

/**
 * The ids of one page of the videos the viewer may see that pass the filters (without a text
 * query: with one, see rankedPage), newest first. Found on the list index (newest first, it
 * covers the visibility and score columns) and stops after the page.
 */
export async function listVideoIds(db: Executor, viewer: Viewer, query: VideoListQuery): Promise<number[]> {
  const result = await sql<{ id: number }>`select v.id from videos v
    where ${joinAnd(filterConditions(viewer, query, 'exists'))}
    order by ${NEWEST} limit ${query.limit} offset ${query.offset}`.execute(db);
  return result.rows.map((r) => r.id);
}

/** One page of ids, best first, and how many there are in all. */
export interface RankedPage {
  ids: number[];
  total: number;
}

/**
 * The videos the viewer may see that match the text query and pass the filters: those whose own
 * texts match first, then those that match only in their cues, each best match first, then newest: `limit` ids from `offset`, and the number of all matches, from one statement (ranking
 * reads every match anyway; counting them apart read them twice). A page past the end has no row to
 * carry the total: it is then counted apart.
 */
export async function rankedPage(db: Executor, dialect: DialectName, viewer: Viewer, query: VideoListQuery, limit: number, offset: number): Promise<RankedPage> {
  const match = textMatch(dialect, query.words);
  if (!match) throw new Error('rankedPage needs words to match');
  const result = await sql<{ id: number; total: number | string }>`${match.matches}
    select v.id, count(*) over () as total from u join videos v on v.id = u.video_id
    where ${joinAnd(filterConditions(viewer, query, 'exists'))}
    order by ${match.group}, ${match.rank}, ${NEWEST} limit ${limit} offset ${offset}`.execute(db);
  const first = result.rows[0];
  if (first) return { ids: result.rows.map((r) => r.id), total: Number(first.total) };
  return { ids: [], total: offset === 0 ? 0 : await countVideos(db, dialect, viewer, query) };
}

/** Whether a list query filters by anything but who may see what. */
const isUnfiltered = (query: VideoListQuery) =>
  query.words.length === 0 && !query.tagIds?.length && query.favorited === undefined && query.notSeen === undefined &&
  !query.score && !query.uploadedFrom && !query.uploadedBefore && query.subtitled === undefined;

/**
 * How many ready videos the viewer may see, from the counts kept by triggers (migration
 * 2026-11-29T1000-list-counts): the same rule as visibleTo, over a few rows.
 */
async function countVisible(db: Executor, viewer: Viewer): Promise<number> {
  let scope: RawBuilder<unknown> = sql`true`;
  if (!viewer.isAdmin) {
    const organizacion = viewer.organizacion === undefined ? sql`(select u.organizacion from users u where u.id = ${viewer.userId})` : viewer.organizacion;
    scope = organizacion === null ? sql`c.is_visible = 1` : sql`(c.is_visible = 1 or (c.has_organizacion = 1 and c.organizacion = ${organizacion}))`;
  }
  const result = await sql<{ n: number | string | null }>`select sum(c.n) as n from video_list_counts c where ${scope}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/** Whether a list query filters by tags, perhaps a score, and nothing else. */
const isTagsAndScore = (query: VideoListQuery) =>
  query.words.length === 0 && !!query.tagIds?.length && query.favorited === undefined && query.notSeen === undefined &&
  !query.uploadedFrom && !query.uploadedBefore && query.subtitled === undefined;

/**
 * How many ready videos the viewer may see carry one of the tags (and have the score), from the
 * narrow index of video_tag_filters alone (migration 2026-11-29T1100-tag-filter-counts), by the same
 * rules as visibleTo and ROUNDED_SCORE.
 */
async function countTagged(db: Executor, viewer: Viewer, query: VideoListQuery): Promise<number> {
  const conditions = [sql`f.tag_id in (${sql.join(query.tagIds!)})`, sql`f.ready = 1`];
  if (query.score) conditions.push(sql`f.score ${SCORE_OPERATORS[query.score.op]} ${query.score.value}`);
  if (!viewer.isAdmin) {
    const organizacion = viewer.organizacion === undefined ? sql`(select u.organizacion from users u where u.id = ${viewer.userId})` : viewer.organizacion;
    conditions.push(organizacion === null ? sql`f.is_visible = 1` : sql`(f.is_visible = 1 or f.organizacion = ${organizacion})`);
  }
  const result = await sql<{ n: number }>`select count(*) as n from (select distinct f.video_id from video_tag_filters f
    where ${joinAnd(conditions)}) t`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/** How many videos the viewer may see pass the filters. */
export async function countVideos(db: Executor, dialect: DialectName, viewer: Viewer, query: VideoListQuery): Promise<number> {
  if (isUnfiltered(query)) return countVisible(db, viewer);
  if (isTagsAndScore(query)) return countTagged(db, viewer, query);
  const conditions = filterConditions(viewer, query, 'in');
  const text = textFilter(dialect, query.words);
  if (text) conditions.push(text);
  const result = await sql<{ n: number }>`select count(*) as n from videos v where ${joinAnd(conditions)}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/** A cue that matches a text query, as the list shows it beside its video. */
export interface MatchedCueRow {
  video_id: number;
  idioma: string;
  inicio: number;
  fin: number;
  texto: string;
}

/**
 * The best `perVideo` cues of each of these videos that match the words (R-LIB-20): the shortest
 * first (the words are the most of it; on such short documents bm25 and ts_rank mostly say the
 * same, and this order is the same on both databases), then the earliest. One statement for a page,
 * read after ranking it. SQLite checks each matching cue's video on the narrow id index and reads
 * the rows of the page's cues only; PostgreSQL takes the matching cues off the GIN index (as cheap
 * as the ranking's: exact lexemes, see cueCondition) and keeps those of the page's videos.
 */
export async function findMatchedCues(db: Executor, dialect: DialectName, words: string[], videoIds: readonly number[], perVideo: number): Promise<MatchedCueRow[]> {
  if (words.length === 0 || videoIds.length === 0) return [];
  const ids = sql.join(videoIds);
  const matched =
    dialect === 'postgres'
      ? sql`from video_cues k where k.video_id in (${ids}) and ${cueCondition(words, 'k')}`
      : sql`from cues_fts f join video_cues k indexed by video_cues_id_video_idx on k.id = f.rowid
          where cues_fts match ${ftsMatchExpression(words)} and k.video_id in (${ids})`;
  const result = await sql<MatchedCueRow>`select video_id, idioma, inicio, fin, texto from (
      select k.video_id, k.idioma, k.inicio, k.fin, k.texto, row_number() over (partition by k.video_id order by length(k.texto), k.inicio, k.id) as n
      ${matched}) t
    where n <= ${perVideo} order by video_id, n`.execute(db);
  return result.rows;
}

/** What a list shows of a video that is the same for every viewer. */
export interface ListedVideoRow {
  id: number;
  id_externo: string;
  titulo: string;
  descripcion: string | null;
  descripcion_corta: string;
  duracion: number;
  organizacion: string | null;
  nombre_usuario_alta: string;
  is_visible: Flag;
  has_thumbnail: Flag;
  /** bumped when the thumbnail is replaced (its location then carries `&v=<version>`) */
  thumbnail_version: number;
  has_preview: Flag;
  /** the HLS renditions ready ("240,360"); null: none */
  hls_heights: string | null;
  has_storyboard: Flag;
  /** the subtitle tracks' languages ("en,es"); null: none */
  subtitle_languages: string | null;
  rating_sum: number;
  rating_count: number;
  fecha_alta: string;
}

/** These videos as lists show them to everyone (no visibility check: their ids come from a list query), in no order. */
export async function findListedVideos(db: Executor, ids: readonly number[]): Promise<ListedVideoRow[]> {
  if (ids.length === 0) return [];
  const result = await sql<ListedVideoRow>`select v.id, v.id_externo, v.titulo, v.descripcion, v.descripcion_corta, v.duracion,
    v.organizacion, v.nombre_usuario_alta, v.is_visible, v.has_thumbnail, v.thumbnail_version, v.has_preview, v.hls_heights, v.has_storyboard, v.subtitle_languages,
    v.rating_sum, v.rating_count, v.fecha_alta from videos v where v.id in (${sql.join(ids)})`.execute(db);
  return result.rows;
}

/** A user's own state of a video of a list. */
export interface OwnListedState {
  video_id: number;
  puntuacion: number | null;
  favorito: Flag;
  visto: Flag;
  posicion: number | null;
}

/** The user's own state of these videos (those the user has one of), in no order: read at every request. */
export async function findOwnStates(db: Executor, userId: number, ids: readonly number[]): Promise<OwnListedState[]> {
  if (ids.length === 0) return [];
  const result = await sql<OwnListedState>`select video_id, puntuacion, favorito, visto, posicion from video_user_states
    where user_id = ${userId} and video_id in (${sql.join(ids)})`.execute(db);
  return result.rows;
}

/** The generation counters of what lists depend on (migration 2026-11-22T1400-library-speed), and the viewer's organisation. */
export interface ListGenerations {
  library: number;
  ratings: number;
  /** of the user's favourite and seen marks */
  user: number;
  organizacion: string | null;
}

/** One statement, so that all are read together; before anything they are the generations of is read. */
export async function readListGenerations(db: Executor, userId: number): Promise<ListGenerations> {
  const result = await sql<{ library: number | null; ratings: number | null; own: number | null; organizacion: string | null }>`select
    (select generation from video_list_generations where scope = 'library') as library,
    (select generation from video_list_generations where scope = 'ratings') as ratings,
    (select generation from video_list_generations where scope = ${`user:${userId}`}) as own,
    (select organizacion from users where id = ${userId}) as organizacion`.execute(db);
  const row = result.rows[0];
  return {
    library: Number(row?.library ?? 0),
    ratings: Number(row?.ratings ?? 0),
    user: Number(row?.own ?? 0),
    organizacion: row?.organizacion ?? null,
  };
}

/** Bumps the library generation, for writes no trigger sees (the FTS5 table takes none). */
async function bumpLibraryGeneration(db: Executor): Promise<void> {
  await sql`update video_list_generations set generation = generation + 1 where scope = 'library'`.execute(db);
}

/** A video as one user sees it, with `openedSince` also whether they opened it since (1/0 on SQLite, a boolean on PostgreSQL). */
type OpenedVideoRow = ViewedVideoRow & { opened_recently?: number | boolean };

/**
 * One ready video as the viewer sees it; undefined when it does not exist or the viewer may not see
 * it. With `openedSince`, in the same statement, whether the viewer opened it after that instant
 * (`opened_recently`: an opening is then a repeat, see recordViewEvent).
 */
export async function findVideoForViewer(db: Executor, viewer: Viewer, id: number, openedSince?: string): Promise<OpenedVideoRow | undefined> {
  const opened =
    openedSince === undefined
      ? sql``
      : sql`, exists (select 1 from view_events e where e.user_id = ${viewer.userId} and e.video_id = v.id and e.viewed_at > ${openedSince}) as opened_recently`;
  const result = await sql<OpenedVideoRow>`select ${VIDEO_COLUMNS}, ${ownStateColumns(viewer.userId)}${opened} from videos v
    where v.id = ${id} and ${joinAnd(visibleTo(viewer))}`.execute(db);
  return result.rows[0];
}

export function findVideoById(db: Executor, id: number): Promise<VideoRow | undefined> {
  return db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findVideoByExternalId(db: Executor, idExterno: string): Promise<VideoRow | undefined> {
  return db.selectFrom('videos').selectAll().where('id_externo', '=', idExterno).executeTakeFirst();
}

/** The tags of several videos in one query, by name within each video. */
export async function findTagsOfVideos(db: Executor, videoIds: readonly number[]): Promise<Map<number, Array<{ id: number; nombre: string }>>> {
  const byVideo = new Map<number, Array<{ id: number; nombre: string }>>();
  if (videoIds.length === 0) return byVideo;
  // Plain SQL, not the query builder: every opening of a video reads its tags, and building and
  // compiling this statement was a tenth of the server's CPU per opening (docs/decisions/0059-benchmarks-and-results.md).
  const { rows } = await sql<{ video_id: number; id: number; nombre: string }>`select vt.video_id, t.id, t.nombre
    from video_tags vt join tags t on t.id = vt.tag_id
    where vt.video_id in (${sql.join(videoIds)}) order by t.nombre_key, t.id`.execute(db);
  for (const row of rows) {
    let list = byVideo.get(row.video_id);
    if (!list) byVideo.set(row.video_id, (list = []));
    list.push({ id: row.id, nombre: row.nombre });
  }
  return byVideo;
}

// ── writing ─────────────────────────────────────────────────────────────────────────────────────

export function insertVideoRow(db: Executor, video: NewVideoRow): Promise<VideoRow> {
  return db.insertInto('videos').values(video).returningAll().executeTakeFirstOrThrow();
}

export function updateVideoRow(db: Executor, id: number, changes: Partial<Omit<NewVideoRow, 'id'>>): Promise<VideoRow | undefined> {
  return db.updateTable('videos').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** A new thumbnail was adopted: the video has one, and its location changes (`&v=<version>`) so caches fetch it. */
export async function bumpThumbnailVersion(db: Executor, id: number, at: string): Promise<void> {
  await db
    .updateTable('videos')
    .set({ has_thumbnail: 1, thumbnail_version: sql<number>`thumbnail_version + 1`, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/**
 * Deletes a video; its tags, the users' own states and its view events go with it (foreign keys
 * `on delete cascade`, enforced on SQLite too: `foreign_keys = ON`), its search entry too (SQLite
 * trigger, PostgreSQL cascade). Its views are first taken off the statistics' counters, in the same
 * transaction (opened here when `db` is not one). Answers the deleted row, undefined when there was none.
 */
export async function deleteVideoRow(db: Executor, dialect: DialectName, id: number): Promise<VideoRow | undefined> {
  if (!db.isTransaction) return db.transaction().execute((trx) => deleteVideoRow(trx, dialect, id));
  await forgetViewsOfVideo(db, dialect, id);
  return db.deleteFrom('videos').where('id', '=', id).returningAll().executeTakeFirst();
}

/** Replaces the tags of a video. */
export async function setVideoTags(db: Executor, videoId: number, tagIds: readonly number[]): Promise<void> {
  await db.deleteFrom('video_tags').where('video_id', '=', videoId).execute();
  if (tagIds.length > 0) {
    await db
      .insertInto('video_tags')
      .values([...new Set(tagIds)].map((tag_id) => ({ video_id: videoId, tag_id })))
      .execute();
  }
}

/**
 * Rewrites the search index entry of these videos from their current title, descriptions and tags.
 * Every write of those (video or tag) calls it in the same transaction. Remembered lists are
 * forgotten (the library generation is bumped: no trigger sees the FTS5 table).
 */
export async function refreshSearchIndex(db: Executor, dialect: DialectName, videoIds: readonly number[]): Promise<void> {
  if (videoIds.length === 0) return;
  await bumpLibraryGeneration(db);
  const videos = await db
    .selectFrom('videos')
    .select(['id', 'titulo', 'descripcion_corta', 'descripcion'])
    .where('id', 'in', videoIds)
    .execute();
  const tags = await findTagsOfVideos(db, videoIds);
  for (const v of videos) {
    const doc: SearchDocument = {
      titulo: v.titulo,
      descripcionCorta: v.descripcion_corta,
      descripcion: v.descripcion,
      etiquetas: (tags.get(v.id) ?? []).map((t) => t.nombre),
    };
    if (dialect === 'postgres') {
      await sql`insert into video_search (video_id, document) values (${v.id}, ${tsVectorOf(doc)})
        on conflict (video_id) do update set document = excluded.document`.execute(db);
    } else {
      await sql`delete from videos_fts where rowid = ${v.id}`.execute(db);
      await sql`insert into videos_fts (rowid, titulo, descripcion_corta, etiquetas, descripcion)
        values (${v.id}, ${doc.titulo}, ${doc.descripcionCorta}, ${doc.etiquetas.join(' ')}, ${doc.descripcion ?? ''})`.execute(db);
    }
  }
}

/** One cue of a subtitle track as the search in what is said keeps it. */
export interface CueText {
  /** seconds */
  inicio: number;
  fin: number;
  /** the words without markup */
  texto: string;
}

/**
 * Replaces the video's cues in one language (none: removes them) and the languages the video lists,
 * in the caller's transaction; the list's cached pages go with the library generation (R-LIB-19).
 * SQLite's triggers keep cues_fts; PostgreSQL's tsvector is made here from the folded words.
 */
export async function replaceVideoCues(db: Executor, dialect: DialectName, videoId: number, idioma: string, cues: readonly CueText[]): Promise<void> {
  await bumpLibraryGeneration(db);
  await db.deleteFrom('video_cues').where('video_id', '=', videoId).where('idioma', '=', idioma).execute();
  // Rows of 5 values (6 on PostgreSQL): 150 per statement stays under every bound-parameter limit.
  for (let i = 0; i < cues.length; i += 150) {
    const rows = cues.slice(i, i + 150).map((cue) =>
      dialect === 'postgres'
        ? sql`(${videoId}, ${idioma}, ${cue.inicio}, ${cue.fin}, ${cue.texto}, to_tsvector('simple', ${foldedWords(cue.texto)}))`
        : sql`(${videoId}, ${idioma}, ${cue.inicio}, ${cue.fin}, ${cue.texto})`,
    );
    const columns = dialect === 'postgres' ? sql`(video_id, idioma, inicio, fin, texto, document)` : sql`(video_id, idioma, inicio, fin, texto)`;
    await sql`insert into video_cues ${columns} values ${sql.join(rows)}`.execute(db);
  }
  const languages = await db.selectFrom('video_cues').select('idioma').distinct().where('video_id', '=', videoId).orderBy('idioma').execute();
  await db
    .updateTable('videos')
    .set({ subtitle_languages: languages.length ? languages.map((l) => l.idioma).join(',') : null })
    .where('id', '=', videoId)
    .execute();
}

/** Many cues of many videos, column by column (the generator's bulk load). */
export interface CueColumns {
  videoIds: number[];
  idiomas: string[];
  inicios: number[];
  fines: number[];
  textos: string[];
}

/**
 * Adds cues in bulk, in the caller's transaction (docs/decisions/0119-caption-generator-bulk-load.md):
 * multi-row inserts (SQLite, as many rows as its 32,766 parameters allow) or one array per column
 * (PostgreSQL, `unnest`, the tsvector made in the statement from the words folded here). The videos'
 * subtitle_languages are the caller's (it knows them); the list's pages are forgotten.
 */
export async function insertCuesInBulk(db: Executor, dialect: DialectName, cues: CueColumns): Promise<void> {
  const count = cues.videoIds.length;
  if (count === 0) return;
  await bumpLibraryGeneration(db);
  if (dialect === 'postgres') {
    const chunk = 50_000;
    for (let from = 0; from < count; from += chunk) {
      const part = <T>(values: T[]) => values.slice(from, from + chunk);
      await sql`insert into video_cues (video_id, idioma, inicio, fin, texto, document)
        select x.v, x.l, x.s, x.e, x.t, to_tsvector('simple', x.f)
        from unnest(${part(cues.videoIds)}::integer[], ${part(cues.idiomas)}::varchar[], ${part(cues.inicios)}::float8[], ${part(cues.fines)}::float8[],
          ${part(cues.textos)}::text[], ${part(cues.textos).map(foldedWords)}::text[]) as x(v, l, s, e, t, f)`.execute(db);
    }
    return;
  }
  const chunk = Math.floor(32_766 / 5);
  const row = '(?, ?, ?, ?, ?)';
  const textFor = (rows: number) => `insert into video_cues (video_id, idioma, inicio, fin, texto) values ${Array.from({ length: rows }, () => row).join(', ')}`;
  const full = textFor(chunk);
  for (let from = 0; from < count; from += chunk) {
    const rows = Math.min(chunk, count - from);
    const parameters: unknown[] = new Array(rows * 5);
    for (let r = 0, i = from; r < rows; r++, i++) {
      parameters[r * 5] = cues.videoIds[i];
      parameters[r * 5 + 1] = cues.idiomas[i];
      parameters[r * 5 + 2] = cues.inicios[i];
      parameters[r * 5 + 3] = cues.fines[i];
      parameters[r * 5 + 4] = cues.textos[i];
    }
    await db.executeQuery(CompiledQuery.raw(rows === chunk ? full : textFor(rows), parameters));
  }
}

/**
 * Runs a bulk load of cues (`work`, in the caller's transaction) with the indexes of video_cues
 * dropped and made again once afterwards, exactly as they were (their definitions read from the
 * database); on SQLite the trigger that feeds cues_fts is off too and cues_fts is rebuilt from
 * video_cues at the end. Building an index once is much cheaper than millions of insertions into it
 * (ADR 0119); the rebuild re-reads every cue, so this is for loads that are most of them.
 */
export async function bulkLoadingCues<T>(db: Executor, dialect: DialectName, work: () => Promise<T>): Promise<T> {
  const indexes =
    dialect === 'postgres'
      ? (await sql<{ name: string; definition: string }>`select i.indexname as name, i.indexdef as definition from pg_indexes i
          where i.schemaname = current_schema() and i.tablename = 'video_cues'
            and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = current_schema()::regnamespace)`.execute(db)).rows
      : (await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master
          where type = 'index' and tbl_name = 'video_cues' and sql is not null`.execute(db)).rows;
  const trigger =
    dialect === 'sqlite'
      ? (await sql<{ definition: string }>`select sql as definition from sqlite_master where type = 'trigger' and name = 'video_cues_fts_insert'`.execute(db)).rows[0]
      : undefined;
  // PostgreSQL: room to sort the GIN index in memory (for this transaction only)
  if (dialect === 'postgres') await sql`set local maintenance_work_mem = '512MB'`.execute(db);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db);
  if (trigger) await sql`drop trigger video_cues_fts_insert`.execute(db);
  const result = await work();
  for (const index of indexes) await sql.raw(index.definition).execute(db);
  if (trigger) {
    await sql.raw(trigger.definition).execute(db);
    await sql`insert into cues_fts (cues_fts) values ('rebuild')`.execute(db);
  }
  return result;
}

/** The cues of the video in one language, in order of time (a transcript). */
export async function findVideoCues(db: Executor, videoId: number, idioma: string): Promise<CueText[]> {
  return db
    .selectFrom('video_cues')
    .select(['inicio', 'fin', 'texto'])
    .where('video_id', '=', videoId)
    .where('idioma', '=', idioma)
    .orderBy('inicio')
    .orderBy('id')
    .execute();
}

/** The videos that carry a tag (their index entries change when it is renamed). */
export async function videoIdsWithTag(db: Executor, tagId: number): Promise<number[]> {
  const rows = await db.selectFrom('video_tags').select('video_id').where('tag_id', '=', tagId).execute();
  return rows.map((r) => r.video_id);
}

/**
 * Locks a video's row until the transaction ends (PostgreSQL; SQLite runs one write transaction at a
 * time), so concurrent ratings of it are applied one after the other. False: no such video.
 */
/** Records the asset's video's HLS renditions and storyboard (nothing when no video was made of it yet). */
export async function setVideoStreaming(db: Executor, assetId: string, changes: { hls_heights?: string | null; has_storyboard?: Flag }): Promise<void> {
  await db.updateTable('videos').set(changes).where('id_externo', '=', assetId).execute();
}

export async function lockVideo(db: Executor, dialect: DialectName, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('videos')
    .select('id')
    .where('id', '=', id)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  return row !== undefined;
}

export type OwnState = Selectable<VideoUserStatesTable>;

export function findOwnState(db: Executor, userId: number, videoId: number): Promise<OwnState | undefined> {
  return db.selectFrom('video_user_states').selectAll().where('user_id', '=', userId).where('video_id', '=', videoId).executeTakeFirst();
}

export interface OwnStateChanges {
  puntuacion?: number;
  favorito?: boolean;
  /** true: seen (the first time is kept); false: not seen */
  visto?: boolean;
  posicion?: number | null;
}

/** Creates or changes a user's own state of a video (only the given fields). */
export async function upsertOwnState(db: Executor, userId: number, videoId: number, changes: OwnStateChanges, at: string): Promise<void> {
  const flag = (b: boolean): Flag => (b ? 1 : 0);
  const values = {
    user_id: userId,
    video_id: videoId,
    puntuacion: changes.puntuacion ?? null,
    favorito: flag(changes.favorito ?? false),
    visto: flag(changes.visto ?? false),
    visto_at: changes.visto ? at : null,
    posicion: changes.posicion ?? null,
    updated_at: at,
  };
  await db
    .insertInto('video_user_states')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['user_id', 'video_id']).doUpdateSet((eb) => ({
        updated_at: eb.ref('excluded.updated_at'),
        ...(changes.puntuacion !== undefined ? { puntuacion: eb.ref('excluded.puntuacion') } : {}),
        ...(changes.favorito !== undefined ? { favorito: eb.ref('excluded.favorito') } : {}),
        ...(changes.visto === true ? { visto: eb.ref('excluded.visto'), visto_at: sql<string>`coalesce(video_user_states.visto_at, excluded.visto_at)` } : {}),
        ...(changes.visto === false ? { visto: eb.ref('excluded.visto'), visto_at: eb.ref('excluded.visto_at') } : {}),
        ...(changes.posicion !== undefined ? { posicion: eb.ref('excluded.posicion') } : {}),
      })),
    )
    .execute();
}

/** Adds to a video's rating sum and count (same transaction as the rating itself). */
export async function addToRating(db: Executor, videoId: number, sumDelta: number, countDelta: number): Promise<void> {
  await db
    .updateTable('videos')
    .set({ rating_sum: sql<number>`rating_sum + ${sumDelta}`, rating_count: sql<number>`rating_count + ${countDelta}` })
    .where('id', '=', videoId)
    .execute();
}

/**
 * Records one opening of a video, with the user's organisation at that moment; not when the same
 * user opened the same video since `since` (a retried or repeated request). True: recorded. The
 * statistics' counters count it in the same transaction (opened here when `db` is not one).
 *
 * A write statement takes the database's write lock even when it inserts nothing, so a caller that
 * may repeat itself tells a repeat first with a read: a video's opening (getVideo) asks it in the
 * video's own statement (findVideoForViewer's `openedSince`) and calls this only for a first
 * opening. The insert keeps its own check, for two openings at once.
 */
export async function recordViewEvent(db: Executor, videoId: number, userId: number, at: string, since: string): Promise<boolean> {
  if (!db.isTransaction) {
    try {
      return await db.transaction().execute((trx) => recordViewEvent(trx, videoId, userId, at, since));
    } catch (error) {
      // The video (or the user) was deleted between reading it and recording the view (PostgreSQL
      // checks the reference when the deletion commits): there is nothing left to count.
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }
  const result = await sql<{ organizacion: string | null }>`insert into view_events (video_id, user_id, organizacion, viewed_at)
    select ${videoId}, u.id, u.organizacion, ${at} from users u
    where u.id = ${userId} and not exists (
      select 1 from view_events e where e.user_id = ${userId} and e.video_id = ${videoId} and e.viewed_at > ${since})
    returning organizacion`.execute(db);
  const recorded = result.rows[0];
  if (!recorded) return false;
  await countView(db, { videoId, userId, organizacion: recorded.organizacion, at });
  return true;
}

/** A write refused because a row it refers to is gone (PostgreSQL 23503, SQLite's FOREIGNKEY constraint). */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

// ── batches and file replacement (videos-batch.service.ts, videos-replace.service.ts) ───────────

/**
 * The ready videos among `ids` (those an administrator sees), locked until the transaction ends on
 * PostgreSQL, in id order so that two batches over the same videos never deadlock; in id order.
 */
export function lockReadyVideos(db: Executor, dialect: DialectName, ids: readonly number[]): Promise<VideoRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('videos')
    .selectAll()
    .where('id', 'in', ids)
    .where('status', '=', 'ready')
    .orderBy('id')
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .execute();
}

/** What a video takes of the asset that replaces its file. */
export type VideoAssetChanges = Pick<NewVideoRow, 'id_externo' | 'duracion' | 'has_thumbnail' | 'has_preview' | 'hls_heights' | 'has_storyboard' | 'updated_at'>;

/** Points the video at another asset; the thumbnail's version is bumped, so its location changes too. */
export async function swapVideoAsset(db: Executor, id: number, changes: VideoAssetChanges): Promise<void> {
  await db
    .updateTable('videos')
    .set({ ...changes, thumbnail_version: sql<number>`thumbnail_version + 1` })
    .where('id', '=', id)
    .execute();
}

/** Clears the users' saved playback positions of the video past `seconds` (a shorter new file); answers how many. */
export async function clearPositionsPast(db: Executor, videoId: number, seconds: number): Promise<number> {
  const result = await db
    .updateTable('video_user_states')
    .set({ posicion: null })
    .where('video_id', '=', videoId)
    .where('posicion', '>', seconds)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
