import { chaptersOf } from './chapters.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { components } from '../../../contract/openapi.gen.ts';
import type { AppContext } from '../../context.ts';
import { now, type Db, type DialectName } from '../../db/database.ts';
import type { VideoStatus } from '../../db/schema.ts';
import { MediaToolError, type MediaJobs } from '../../media/ffmpeg.ts';
import { ASSET_ID_PATTERN, mediaUrl, streamUrl, type MediaFile } from '../../media/signed-urls.ts';
import { adoptPendingThumbnail } from '../../media/thumbnails.ts';
import type { BodyOf } from '../../openapi/handlers.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { Role } from '../../plugins/security.ts';
import type { Storage } from '../../storage/storage.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { ensureTags, findTagsByIds } from '../etiquetas/etiquetas.service.ts';
import { findUpload, markThumbnailAdopted } from '../uploads/uploads.service.ts';
import { parseListQuery, type ListVideosParams } from './list-query.ts';
import { matchedWords } from './search.ts';
import {
  addToRating,
  bumpThumbnailVersion,
  countVideos,
  findListedVideos,
  findMatchedCues,
  findOwnState,
  findOwnStates,
  findTagsOfVideos,
  findVideoById,
  findVideoForViewer,
  insertVideoRow,
  listVideoIds,
  lockVideo,
  rankedPage,
  readListGenerations,
  setVideoStreaming,
  recordViewEvent,
  refreshSearchIndex,
  setVideoTags,
  updateVideoRow,
  upsertOwnState,
  type Executor,
  type MatchedCueRow,
  type OwnStateChanges,
  type VideoRow,
  type ViewedVideoRow,
  type VideoListQuery,
  type Viewer,
} from './videos.repository.ts';

export type Video = components['schemas']['Video'];
type Etiqueta = components['schemas']['Etiqueta'];
type Coincidencia = components['schemas']['Coincidencia'];
export type VideoPatch = BodyOf<'patchVideo'>;

/** What the video services need: the API passes its AppContext; the CLI (demo) builds one from the same config. */
export type VideosContext = Pick<AppContext, 'db' | 'secrets'> & Partial<Pick<AppContext, 'media' | 'searchPages'>> & { log?: Pick<FastifyBaseLogger, 'warn'> };

/** The signed-in caller. */
export interface Caller {
  userId: number;
  role: Role;
  /** the user name (the audit log names who changed a video by it) */
  user?: string;
}

/** The caller as the audit log names them. */
export const auditActor = (caller: Caller): AuditActor => ({ id: caller.userId, nombre: caller.user ?? `#${caller.userId}` });

/** The fields of a video the administrators change, by their API names (the audit log's before/after). */
const AUDITED_COLUMNS = { titulo: 'titulo', descripcion_corta: 'descripcionCorta', descripcion: 'descripcion', is_visible: 'isVisible' } as const;

/** The administrators' fields of a video row as the audit log records them (tag ids ascending, once each). */
export function auditedFields(row: Pick<VideoRow, keyof typeof AUDITED_COLUMNS>, tagIds: readonly number[]): Record<string, unknown> {
  const tags = [...new Set(tagIds)].sort((x, y) => x - y);
  return { titulo: row.titulo, descripcionCorta: row.descripcion_corta, descripcion: row.descripcion, isVisible: row.is_visible === 1, tags };
}

export const viewerOf = (caller: Caller): Viewer => ({ userId: caller.userId, isAdmin: caller.role === 'admin' });

export const notFound = () => new HttpProblem(404, 'resource-not-found', 'no such video');

/**
 * Repeats of GET /api/videos/{id} by the same user within this time are the same opening (a retried
 * or doubled request) and record no second view event.
 */
export const VIEW_REPEAT_WINDOW_MS = 10_000;

// ── answers ─────────────────────────────────────────────────────────────────────────────────────

/** The average rating to two decimals; 0 without ratings. */
export function averageRating(sum: number, count: number): number {
  return count === 0 ? 0 : Math.round((sum / count) * 100) / 100;
}

/**
 * The signed GET location of a media file, signed at every answer (an HMAC costs microseconds).
 * `version` > 0 (a replaced thumbnail's) is appended as `&v=<version>`: not signed (GET /api/media
 * ignores it), it only makes the new version's location differ from the one browsers may hold.
 */
function signedMediaUrl(urlKey: Buffer, assetId: string, file: MediaFile, at: number, version = 0): string {
  const url = mediaUrl(urlKey, assetId, file, at);
  return version > 0 ? `${url}&v=${version}` : url;
}

/** A video as the contract answers it, with signed media locations (null when the file does not exist). */
export function toVideo(row: ViewedVideoRow, etiquetas: Etiqueta[], urlKey: Buffer, at: number = Date.now()): Video {
  return {
    id: row.id,
    idExterno: row.id_externo,
    titulo: row.titulo,
    descripcion: row.descripcion,
    descripcionCorta: row.descripcion_corta,
    duracion: Number(row.duracion),
    puntuacionMedia: averageRating(Number(row.rating_sum), Number(row.rating_count)),
    puntuacion: row.puntuacion ?? null,
    favorito: row.favorito === 1,
    visto: row.visto === 1,
    posicion: row.posicion === null ? null : Number(row.posicion),
    fechaAlta: row.fecha_alta,
    urlVideo: signedMediaUrl(urlKey, row.id_externo, 'video.mp4', at),
    urlThumbnail: row.has_thumbnail === 1 ? signedMediaUrl(urlKey, row.id_externo, 'thumbnail.jpg', at, Number(row.thumbnail_version)) : null,
    urlPreview: row.has_preview === 1 ? signedMediaUrl(urlKey, row.id_externo, 'preview.mp4', at) : null,
    // R-MED-5, R-MED-8: the master once a rendition is ready (it lists only stored ones), the storyboard once made
    urlHls: row.hls_heights ? streamUrl(urlKey, row.id_externo, 'hls-master.m3u8', at) : null,
    urlStoryboard: row.has_storyboard === 1 ? streamUrl(urlKey, row.id_externo, 'storyboard.vtt', at) : null,
    idiomasSubtitulos: row.subtitle_languages ? row.subtitle_languages.split(',') : [],
    capitulos: chaptersOf(row.descripcion, Number(row.duracion)),
    etiquetas,
    isVisible: row.is_visible === 1,
    organizacionId: row.organizacion,
    nombreUsuarioAlta: row.nombre_usuario_alta,
  };
}

export async function answerVideo(ctx: VideosContext, db: Executor, caller: Caller, id: number): Promise<Video> {
  return (await viewedVideo(ctx, db, caller, id)).video;
}

/** The video as the caller sees it; with `openedSince`, also whether the caller opened it after that instant. */
async function viewedVideo(ctx: VideosContext, db: Executor, caller: Caller, id: number, openedSince?: string): Promise<{ video: Video; openedRecently: boolean }> {
  const row = await findVideoForViewer(db, viewerOf(caller), id, openedSince);
  if (!row) throw notFound();
  const tags = await findTagsOfVideos(db, [id]);
  return { video: toVideo(row, tags.get(id) ?? [], ctx.secrets.urlKey), openedRecently: Boolean(row.opened_recently) };
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────────

/** One page of a list and the number of all matches. */
export interface ListAnswer {
  videos: Video[];
  total: number;
}

/**
 * One page of the videos the caller may see, filtered (see list-query.ts), and the number of all
 * matches, read from the database at every request. The count is skipped when the page itself
 * shows the total (a short page); PostgreSQL runs it beside the page, on another connection.
 */
export async function listVideos(ctx: VideosContext, caller: Caller, params: ListVideosParams): Promise<ListAnswer> {
  const { kysely } = ctx.db;
  const query = parseListQuery(params, ctx.db.dialect);
  const { ids, total } = query.words.length > 0 ? await searchPage(ctx, caller, query) : await filteredPage(ctx.db, viewerOf(caller), query);
  const [rows, tags, states, cues] = await Promise.all([
    findListedVideos(kysely, ids),
    findTagsOfVideos(kysely, ids),
    findOwnStates(kysely, caller.userId, ids),
    query.words.length > 0 ? findMatchedCues(kysely, ctx.db.dialect, query.words, ids, MAX_COINCIDENCIAS) : [],
  ]);
  const coincidencias = coincidenciasOf(cues, params.q ?? '');
  const byId = new Map(rows.map((row) => [row.id, row]));
  const own = new Map(states.map((state) => [state.video_id, state]));
  const at = Date.now();
  const videos: Video[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) continue; // deleted since the page was read
    const state = own.get(id);
    const viewed: ViewedVideoRow = { ...row, puntuacion: state?.puntuacion ?? null, favorito: state?.favorito ?? null, visto: state?.visto ?? null, posicion: state?.posicion ?? null };
    const video = toVideo(viewed, tags.get(id) ?? [], ctx.secrets.urlKey, at);
    const matched = coincidencias.get(id);
    if (matched) video.coincidencias = matched;
    videos.push(video);
  }
  return { videos, total };
}

/** At most this many matching cues per video of a list (the contract's maxItems). */
const MAX_COINCIDENCIAS = 3;

/**
 * The matching cues of each video of a page with their matched words (R-LIB-20), best first; a cue
 * the engine matched but in which no word folds to the query's (a tokenisation edge) is left out, so
 * every one carries at least one mark. Videos without any are absent (only their own texts matched).
 */
function coincidenciasOf(cues: readonly MatchedCueRow[], q: string): Map<number, Coincidencia[]> {
  const byVideo = new Map<number, Coincidencia[]>();
  for (const cue of cues) {
    const marcas = matchedWords(cue.texto, q);
    if (marcas.length === 0) continue;
    let list = byVideo.get(cue.video_id);
    if (!list) byVideo.set(cue.video_id, (list = []));
    list.push({ idioma: cue.idioma, inicio: Number(cue.inicio), fin: Number(cue.fin), texto: cue.texto, marcas });
  }
  return byVideo;
}

/** A page without words: the ids newest first, then the total, counted only when the page does not tell it. */
async function filteredPage(db: Db, viewer: Viewer, query: VideoListQuery): Promise<{ ids: readonly number[]; total: number }> {
  const ids = await listVideoIds(db.kysely, viewer, query);
  const shortPage = ids.length < query.limit && (ids.length > 0 || query.offset === 0);
  return { ids, total: shortPage ? query.offset + ids.length : await countVideos(db.kysely, db.dialect, viewer, query) };
}

/**
 * A page of a text search. Ranking reads every match, which is most of a list's cost on a large
 * library, so pages are remembered in the app's cache (docs/decisions/0064-text-search-page-cache.md)
 * under the generations of what they depend on, read in one statement before the page: a write that
 * changes the library, the ratings (score filter) or the caller's marks (favourite and not-seen
 * filters) makes the next request miss. Rows, tags and the caller's own state are read fresh.
 */
async function searchPage(ctx: VideosContext, caller: Caller, query: VideoListQuery): Promise<{ ids: readonly number[]; total: number }> {
  const { kysely, dialect } = ctx.db;
  const cache = ctx.searchPages;
  if (!cache) return rankedPage(kysely, dialect, viewerOf(caller), query, query.limit, query.offset);
  const generations = await readListGenerations(kysely, caller.userId);
  const viewer: Viewer = { ...viewerOf(caller), organizacion: generations.organizacion };
  const marks = query.favorited !== undefined || query.notSeen !== undefined;
  const key = JSON.stringify([
    generations.library,
    query.score ? generations.ratings : null,
    marks ? [caller.userId, generations.user] : null,
    viewer.isAdmin ? true : viewer.organizacion,
    query,
  ]);
  const remembered = cache.get(key);
  if (remembered) return remembered;
  const page = await rankedPage(kysely, dialect, viewer, query, query.limit, query.offset);
  cache.set(key, page);
  return page;
}

/**
 * One video with the caller's own rating, favourite, seen mark and playback position; 404 when it
 * does not exist or the caller may not see it. This is the opening of a video: it records a view
 * event (not again for a repeat within VIEW_REPEAT_WINDOW_MS).
 */
export async function getVideo(ctx: VideosContext, caller: Caller, id: number): Promise<Video> {
  const db = ctx.db.kysely;
  const at = Date.now();
  const since = new Date(at - VIEW_REPEAT_WINDOW_MS).toISOString();
  // A repeat is told by the video's own statement (it takes no write lock); only a first opening records a view.
  const { video, openedRecently } = await viewedVideo(ctx, db, caller, id, since);
  if (!openedRecently) await recordViewEvent(db, id, caller.userId, new Date(at).toISOString(), since);
  return video;
}

// ── changing ────────────────────────────────────────────────────────────────────────────────────

const USER_PATHS: ReadonlySet<string> = new Set(['/puntuacion', '/favorito', '/visto', '/posicion']);

/** R-ADM-2 lengths, counted in characters (code points) of the text without the spaces at either end. */
export const TEXT_LIMITS = {
  titulo: { min: 3, max: 100 },
  descripcionCorta: { min: 3, max: 255 },
  descripcion: { min: 3, max: 1024 },
} as const;

const badValue = (field: string, message: string) => new HttpProblem(400, 'validation-error', `${field}: ${message}`, [{ field, message }]);

const isBlank = (text: string | null | undefined) => text === null || text === undefined || text.trim() === '';

/**
 * A required text (title, short description): trimmed; blank (empty or only spaces) is missing.
 * Answers the text to store, or the message of the rule it breaks.
 */
export function requiredText(value: string, limits: { min: number; max: number }): string | { message: string } {
  if (isBlank(value)) return { message: 'is required' };
  const text = value.trim();
  const length = [...text].length;
  if (length < limits.min || length > limits.max) {
    return { message: `must have ${limits.min} to ${limits.max} characters (not counting spaces at either end)` };
  }
  return text;
}

/** The optional long description: blank or null is none (null); else as a required text. */
export function optionalText(value: string | null | undefined, limits: { min: number; max: number }): string | null | { message: string } {
  return isBlank(value) ? null : requiredText(value!, limits);
}

/** A checked text, or a 400 naming its field. */
function checked<T extends string | null>(result: T | { message: string }, field: string): T {
  if (typeof result === 'object' && result !== null) throw badValue(field, result.message);
  return result;
}

/** Throws a 400 naming `field` unless every tag id exists. */
export async function checkTagIds(db: Executor, ids: readonly number[], field: string): Promise<void> {
  if (ids.length === 0) return;
  const found = await findTagsByIds(db, ids);
  if (found.length !== new Set(ids).size) {
    const known = new Set(found.map((t) => t.id));
    throw badValue(field, `no tag with id ${ids.filter((t) => !known.has(t)).join(', ')}`);
  }
}

/** What a patch asks, checked. */
interface CheckedPatch {
  own: OwnStateChanges;
  changes: Parameters<typeof updateVideoRow>[2];
  tagIds?: number[];
  /** adopt the thumbnail waiting at the asset's thumbnail location */
  thumbnail: boolean;
}

/** Reads and checks the operations (texts, tag ids); 400 naming `body.N.value` for the first bad one. */
async function checkPatch(db: Executor, operations: VideoPatch): Promise<CheckedPatch> {
  const patch: CheckedPatch = { own: {}, changes: {}, thumbnail: false };
  for (const [index, op] of operations.entries()) {
    const field = `body.${index}.value`;
    switch (op.path) {
      case '/puntuacion':
        patch.own.puntuacion = op.value;
        break;
      case '/favorito':
        patch.own.favorito = op.value;
        break;
      case '/visto':
        patch.own.visto = op.value;
        break;
      case '/posicion':
        patch.own.posicion = op.value;
        break;
      case '/isVisible':
        patch.changes.is_visible = op.value ? 1 : 0;
        break;
      case '/titulo':
        patch.changes.titulo = checked(requiredText(op.value, TEXT_LIMITS.titulo), field);
        break;
      case '/shortDescription':
        patch.changes.descripcion_corta = checked(requiredText(op.value, TEXT_LIMITS.descripcionCorta), field);
        break;
      case '/descripcion':
        patch.changes.descripcion = checked(optionalText(op.value, TEXT_LIMITS.descripcion), field);
        break;
      case '/etiquetas':
        await checkTagIds(db, op.value, field);
        patch.tagIds = op.value;
        break;
      case '/thumbnail':
        patch.thumbnail = true;
        break;
    }
  }
  return patch;
}

/**
 * Adopts the asset's uploaded thumbnail (converted to thumbnail.jpg). False when its image is gone
 * already: an earlier adoption converted it and then did not commit, so thumbnail.jpg holds it.
 * 422 `invalid-media` when the uploaded file is not an image ffmpeg reads (it stays pending).
 */
export async function adoptThumbnail(storage: Storage, assetId: string, log?: Pick<FastifyBaseLogger, 'warn'>, jobs?: MediaJobs): Promise<boolean> {
  try {
    return await adoptPendingThumbnail(storage, assetId, log, jobs);
  } catch (error) {
    if (error instanceof MediaToolError) throw new HttpProblem(422, 'invalid-media', 'the uploaded thumbnail is not an image that can be read');
    throw error;
  }
}

/**
 * Applies a JSON Patch to a video, in one transaction. `/puntuacion`, `/favorito`, `/visto` and
 * `/posicion` are the caller's own (any user who may see the video); `/isVisible`, `/titulo`,
 * `/descripcion`, `/shortDescription`, `/etiquetas` and `/thumbnail` are for administrators (403
 * unauthorized-role for users). A rating updates the video's sum and count in the same
 * transaction. `/thumbnail` adopts the picture uploaded to the asset's thumbnail location (409
 * conflict when none waits): it is converted before the transaction (the whole patch checked first,
 * so a refused patch converts nothing) and the transaction bumps the thumbnail's version. Answers
 * the video as the caller now sees it.
 */
export async function patchVideo(ctx: VideosContext, caller: Caller, id: number, operations: VideoPatch, storage?: Storage): Promise<Video> {
  if (caller.role !== 'admin' && operations.some((op) => !USER_PATHS.has(op.path))) {
    throw new HttpProblem(403, 'unauthorized-role', 'only administrators change a video\'s visibility, texts, tags and thumbnail');
  }
  const { kysely, dialect } = ctx.db;
  let assetId: string | undefined;
  if (operations.some((op) => op.path === '/thumbnail')) {
    if (!storage) throw new Error('patchVideo: adopting a thumbnail needs the media storage');
    const video = await findVideoForViewer(kysely, viewerOf(caller), id);
    if (!video) throw notFound();
    await checkPatch(kysely, operations);
    assetId = video.id_externo;
    const upload = await findUpload(kysely, assetId);
    if (upload?.thumbnail_pending !== 1) throw new HttpProblem(409, 'conflict', 'no thumbnail has been uploaded for this video');
    await adoptThumbnail(storage, assetId, ctx.log, ctx.media);
  }
  const at = now();
  await kysely.transaction().execute(async (trx) => {
    if (!(await lockVideo(trx, dialect, id))) throw notFound();
    if (!(await findVideoForViewer(trx, viewerOf(caller), id))) throw notFound();
    const { own, changes, tagIds, thumbnail } = await checkPatch(trx, operations);
    const audited = Object.keys(changes).length > 0 || tagIds !== undefined || thumbnail;
    const before = audited ? await findVideoById(trx, id) : undefined;
    const tagsBefore = audited ? ((await findTagsOfVideos(trx, [id])).get(id) ?? []).map((t) => t.id) : [];

    if (own.puntuacion !== undefined) {
      const previous = (await findOwnState(trx, caller.userId, id))?.puntuacion ?? null;
      await addToRating(trx, id, own.puntuacion - (previous ?? 0), previous === null ? 1 : 0);
    }
    if (Object.keys(own).length > 0) await upsertOwnState(trx, caller.userId, id, own, at);
    if (Object.keys(changes).length > 0) await updateVideoRow(trx, id, { ...changes, updated_at: at });
    if (tagIds) await setVideoTags(trx, id, tagIds);
    if (changes.titulo !== undefined || changes.descripcion_corta !== undefined || changes.descripcion !== undefined || tagIds) {
      await refreshSearchIndex(trx, dialect, [id]);
    }
    if (thumbnail && assetId !== undefined) {
      await bumpThumbnailVersion(trx, id, at);
      await markThumbnailAdopted(trx, assetId);
    }
    if (before) await auditEdit(trx, caller, id, before, tagsBefore, { changes, tagIds, thumbnail }, at);
  });
  return answerVideo(ctx, kysely, caller, id);
}

/**
 * The audit row of an administrator's edit: the fields the patch named, before and after (only those
 * whose value changed; a thumbnail replacement as `thumbnail: true`). A patch that changes nothing
 * records nothing. The batch edit (videos-batch.service.ts) records each video's the same way.
 */
export async function auditEdit(
  trx: Executor,
  caller: Caller,
  id: number,
  row: VideoRow,
  tagsBefore: number[],
  patch: Pick<CheckedPatch, 'changes' | 'tagIds' | 'thumbnail'>,
  at: string,
): Promise<void> {
  const old = auditedFields(row, tagsBefore);
  const next = auditedFields({ ...row, ...patch.changes } as VideoRow, patch.tagIds ?? tagsBefore);
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const named = [...Object.keys(patch.changes).map((c) => AUDITED_COLUMNS[c as keyof typeof AUDITED_COLUMNS]), ...(patch.tagIds ? ['tags'] : [])];
  for (const field of named) {
    if (JSON.stringify(old[field]) !== JSON.stringify(next[field])) {
      before[field] = old[field];
      after[field] = next[field];
    }
  }
  if (patch.thumbnail) after.thumbnail = true;
  if (Object.keys(after).length === 0) return;
  await recordAudit(trx, { actor: auditActor(caller), action: 'video.edited', subjectType: 'video', subjectId: id, before, after, detail: row.titulo, at });
}

// ── creating (demo command, upload work, tests, benchmark) ──────────────────────────────────────

/** A video to insert. Texts are stored as given (trimmed); tags by id and/or by name (created when missing). */
export interface NewVideo {
  /** the asset id (AssetId pattern: 8–64 of A-Z a-z 0-9 _ -) */
  idExterno: string;
  titulo: string;
  descripcion?: string | null;
  descripcionCorta: string;
  /** seconds (default 0) */
  duracion?: number;
  organizacion?: string | null;
  nombreUsuarioAlta: string;
  /** the uploading user's id */
  createdBy?: number | null;
  /** default true */
  isVisible?: boolean;
  /** default 'ready' (listed); the upload work inserts 'processing' and marks it ready later */
  status?: VideoStatus;
  hasThumbnail?: boolean;
  hasPreview?: boolean;
  /** HLS renditions already ready (ascending) and whether a storyboard exists (a video made of an upload whose renditions were made first) */
  hlsHeights?: readonly number[];
  hasStoryboard?: boolean;
  /** default now */
  fechaAlta?: string | Date;
  tagIds?: number[];
  /** tag names; missing tags are created (names unique ignoring case) */
  tagNames?: string[];
}

/** Inserts a video with its tags and its search index entry, inside a transaction the caller runs. */
export async function insertVideoIn(trx: Executor, dialect: DialectName, video: NewVideo): Promise<VideoRow> {
  if (!ASSET_ID_PATTERN.test(video.idExterno)) throw new Error(`invalid asset id "${video.idExterno}"`);
  const at = now();
  const fechaAlta = video.fechaAlta === undefined ? at : new Date(video.fechaAlta).toISOString();
  const named = video.tagNames?.length ? await ensureTags(trx, video.tagNames, at) : [];
  const row = await insertVideoRow(trx, {
    id_externo: video.idExterno,
    titulo: video.titulo.trim(),
    descripcion: video.descripcion?.trim() ? video.descripcion.trim() : null,
    descripcion_corta: video.descripcionCorta.trim(),
    duracion: video.duracion ?? 0,
    organizacion: video.organizacion ?? null,
    nombre_usuario_alta: video.nombreUsuarioAlta,
    created_by: video.createdBy ?? null,
    is_visible: video.isVisible === false ? 0 : 1,
    status: video.status ?? 'ready',
    has_thumbnail: video.hasThumbnail ? 1 : 0,
    has_preview: video.hasPreview ? 1 : 0,
    hls_heights: video.hlsHeights?.length ? video.hlsHeights.join(',') : null,
    has_storyboard: video.hasStoryboard ? 1 : 0,
    fecha_alta: fechaAlta,
    updated_at: at,
  });
  const tagIds = [...new Set([...(video.tagIds ?? []), ...named.map((t) => t.id)])];
  await setVideoTags(trx, row.id, tagIds);
  await refreshSearchIndex(trx, dialect, [row.id]);
  return row;
}

/**
 * Inserts a video with its tags (by id and/or name, missing names created) and indexes it for
 * search, in one transaction. The demo command and tests use it; answers the stored row.
 */
export function insertVideo(db: Db, video: NewVideo): Promise<VideoRow> {
  return db.kysely.transaction().execute((trx) => insertVideoIn(trx, db.dialect, video));
}

/**
 * Records the HLS renditions ready (ascending) and the storyboard of the video made of this asset,
 * if one was made (R-MED-5): `urlHls` and `urlStoryboard` follow.
 */
export async function recordVideoStreaming(db: Executor, assetId: string, changes: { hlsHeights?: readonly number[]; hasStoryboard?: boolean }): Promise<void> {
  await setVideoStreaming(db, assetId, {
    ...(changes.hlsHeights !== undefined ? { hls_heights: changes.hlsHeights.length > 0 ? changes.hlsHeights.join(',') : null } : {}),
    ...(changes.hasStoryboard !== undefined ? { has_storyboard: changes.hasStoryboard ? 1 : 0 } : {}),
  });
}

/** What media processing learns about a video: its state, length and which derived files exist. */
export interface VideoMediaChanges {
  status?: VideoStatus;
  duracion?: number;
  hasThumbnail?: boolean;
  hasPreview?: boolean;
}

/** Records media processing results (e.g. `{ status: 'ready', duracion: 93.5, hasThumbnail: true, hasPreview: true }`). */
export async function updateVideoMedia(db: Db, id: number, changes: VideoMediaChanges): Promise<VideoRow | undefined> {
  return updateVideoRow(db.kysely, id, {
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    ...(changes.duracion !== undefined ? { duracion: changes.duracion } : {}),
    ...(changes.hasThumbnail !== undefined ? { has_thumbnail: changes.hasThumbnail ? 1 : 0 } : {}),
    ...(changes.hasPreview !== undefined ? { has_preview: changes.hasPreview ? 1 : 0 } : {}),
    updated_at: now(),
  });
}
