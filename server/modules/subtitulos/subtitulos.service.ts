import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { components } from '../../../contract/openapi.gen.ts';
import type { AppContext } from '../../context.ts';
import { isForeignKeyViolation } from '../../db/database-errors.ts';
import { now } from '../../db/database.ts';
import { mediaUrl, storedFileName, subtitleFile } from '../../media/signed-urls.ts';
import { HttpProblem, invalidField } from '../../plugins/problems.ts';
import type { Storage } from '../../storage/storage.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { replaceVideoCues } from '../videos/search-index.service.ts';
import { answerVideo, auditActor, notFound, type Caller } from '../videos/videos.service.ts';
import { parseSubtitleFile, SubtitleFileError, type ParsedSubtitles } from './subtitle-files.ts';
import { deleteSubtitleRow, findSubtitleRows, insertSubtitleRow, lockSubtitleRow, updateSubtitleRow } from './subtitulos.repository.ts';

/**
 * A video's subtitle tracks, one per language (R-MED-12…15, R-ADM-5…6): the list with signed
 * locations, and the administrators' adding, replacing and removing of a track. A track is a row of
 * `video_subtitles`, the normalised WebVTT in storage beside the video's files, and its cues' words
 * in the videos module's search index (replaceVideoCues), all changed together.
 */

export type Subtitulo = components['schemas']['Subtitulo'];

/** What the services need: the API passes its AppContext; the demo command builds one from the same config. */
export type SubtitlesContext = Pick<AppContext, 'db' | 'secrets'> & { log?: Pick<FastifyBaseLogger, 'warn'> };

/** The largest file accepted (PUT body): 2 MiB, some 20,000 cues. */
export const SUBTITLES_MAX_BYTES = 2 * 1024 * 1024;

const LANGUAGE_NAMES = new Intl.DisplayNames(['es'], { type: 'language', fallback: 'none' });

/**
 * The language's name in Spanish, capitalised (Español, Inglés, Portugués de Brasil), or undefined
 * when the tag names no language Intl knows (its language subtag alone must be known: `xx-ES` is none).
 */
export function languageLabel(idioma: string): string | undefined {
  try {
    const base = idioma.split('-')[0]!;
    const name = LANGUAGE_NAMES.of(idioma);
    if (!name || !LANGUAGE_NAMES.of(base)) return undefined;
    return name.charAt(0).toLocaleUpperCase('es') + name.slice(1);
  } catch {
    return undefined; // a tag Intl cannot even read
  }
}

/** 400 `validation-error` on `params.idioma` unless the tag is a language's; answers its name. */
function checkedLanguage(idioma: string): string {
  const label = languageLabel(idioma);
  if (!label) throw invalidField('params.idioma', 'is not a known language');
  return label;
}

/**
 * A track as the API answers it. The location is signed like the video's other media; `v` (not
 * signed, ignored by GET /api/media) is the second of its last change, so a replaced track gets a new
 * location and no browser plays the copy it cached.
 */
function toSubtitulo(ctx: Pick<AppContext, 'secrets'>, assetId: string, idioma: string, updatedAt: string, at = Date.now()): Subtitulo {
  const version = Math.floor(Date.parse(updatedAt) / 1000);
  return { idioma, etiqueta: languageLabel(idioma) ?? idioma, url: `${mediaUrl(ctx.secrets.urlKey, assetId, subtitleFile(idioma), at)}&v=${version}` };
}

/** The video's tracks sorted by language tag; 404 when the caller may not see the video (as getVideo). */
export async function listSubtitles(ctx: SubtitlesContext, caller: Caller, videoId: number): Promise<Subtitulo[]> {
  const { kysely } = ctx.db;
  const video = await answerVideo(ctx, kysely, caller, videoId);
  const rows = await findSubtitleRows(kysely, videoId);
  const at = Date.now();
  return rows
    .sort((a, b) => (a.idioma < b.idioma ? -1 : a.idioma > b.idioma ? 1 : 0))
    .map((row) => toSubtitulo(ctx, video.idExterno, row.idioma, row.updated_at, at));
}

/** The file's cues, or 400 `invalid-subtitles` whose detail names the line. */
function parsedOrRefused(body: Buffer, durationSeconds: number): ParsedSubtitles {
  try {
    return parseSubtitleFile(body, { durationSeconds });
  } catch (error) {
    if (error instanceof SubtitleFileError) throw new HttpProblem(400, 'invalid-subtitles', error.message);
    throw error;
  }
}

/** A stored file's bytes (a track is at most a few MiB), or undefined when there is none. */
async function readStored(storage: Storage, assetId: string, name: string): Promise<Buffer | undefined> {
  const opened = await storage.open(assetId, name);
  if (!opened) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface PutResult {
  subtitulo: Subtitulo;
  /** a new language (201) rather than a replaced track (200) */
  created: boolean;
}

/**
 * Adds or replaces the video's track in one language (PUT): the language checked (400
 * `validation-error`), the video (404), the file read and normalised (400 `invalid-subtitles`), then
 * in one transaction the row, the cues and the audit entry, and last the file. Audited as
 * `subtitles.put` (subject the video; before and after the language and its number of cues), naming
 * `actor` (by default the caller; null: the command line).
 */
export async function putSubtitles(
  ctx: SubtitlesContext,
  storage: Storage,
  caller: Caller,
  videoId: number,
  idioma: string,
  body: Buffer,
  actor: AuditActor | null = auditActor(caller),
): Promise<PutResult> {
  checkedLanguage(idioma);
  const { kysely, dialect } = ctx.db;
  const video = await answerVideo(ctx, kysely, caller, videoId);
  const parsed = parsedOrRefused(body, video.duracion);
  const name = storedFileName(subtitleFile(idioma));
  const at = now();
  const cues = parsed.cues.map((cue) => ({ inicio: cue.startMs / 1000, fin: cue.endMs / 1000, texto: cue.text }));

  // Nothing half-published, in one transaction: first the cues, whose statement updates the video's
  // row and so locks it (PostgreSQL; SQLite has one writer): another change of its tracks, or a
  // replacement of its file (which copies the tracks to the new asset), takes turns with this one, and
  // the asset read next is the current one. The file is written last, what it replaces kept in memory
  // first. Any failure from the write on (the write itself, which may have stored the file before
  // failing, as an object store's lost answer can; or the commit) rolls the rows back and puts the
  // previous file back, or removes the new one.
  let assetId = video.idExterno;
  let replaced: { previous: Buffer | undefined } | undefined;
  let created: boolean;
  try {
    created = await kysely.transaction().execute(async (trx) => {
      await replaceVideoCues(trx, dialect, videoId, idioma, cues);
      const current = await answerVideo(ctx, trx, caller, videoId);
      if (current.duracion !== video.duracion) parsedOrRefused(body, current.duracion); // its file was replaced meanwhile
      assetId = current.idExterno;
      const inserted = await insertSubtitleRow(trx, { video_id: videoId, idioma, cue_count: cues.length, updated_at: at });
      const before = inserted ? undefined : await lockSubtitleRow(trx, dialect, videoId, idioma);
      if (!inserted) await updateSubtitleRow(trx, videoId, idioma, { cue_count: cues.length, updated_at: at });
      await recordAudit(trx, {
        actor,
        action: 'subtitles.put',
        subjectType: 'video',
        subjectId: videoId,
        before: before ? { idioma, cues: before.cue_count } : null,
        after: { idioma, cues: cues.length },
        detail: idioma,
        at,
      });
      replaced = { previous: await readStored(storage, assetId, name) };
      await storage.write(assetId, name, Readable.from([Buffer.from(parsed.vtt, 'utf8')]));
      return inserted;
    });
  } catch (error) {
    if (replaced) await restoreFile(ctx, storage, assetId, name, replaced.previous);
    if (isForeignKeyViolation(error)) throw notFound(); // the video was deleted since it was read
    throw error;
  }
  return { subtitulo: toSubtitulo(ctx, assetId, idioma, at), created };
}

/** Puts back the file a failed change replaced (or removes the one it added); a failure here is only logged. */
async function restoreFile(ctx: SubtitlesContext, storage: Storage, assetId: string, name: string, previous: Buffer | undefined): Promise<void> {
  try {
    if (previous) await storage.write(assetId, name, Readable.from([previous]));
    else await storage.remove(assetId, name);
  } catch (error) {
    ctx.log?.warn({ err: error, assetId, file: name }, 'subtitulos: the file of a failed change could not be put back');
  }
}

/**
 * Removes the video's track in one language (DELETE): 404 `resource-not-found` for a video the caller
 * may not see or a language it has no track in. The row, the cues and the audit entry
 * (`subtitles.delete`) in one transaction; the file after the commit (a failure to delete it is
 * logged: a file no row names is never listed).
 */
export async function deleteSubtitles(
  ctx: SubtitlesContext,
  storage: Storage,
  caller: Caller,
  videoId: number,
  idioma: string,
  actor: AuditActor | null = auditActor(caller),
): Promise<void> {
  const { kysely, dialect } = ctx.db;
  // The cues first: their statement locks the video's row (as in putSubtitles), so the asset read
  // next is the one the track's file is on, even while the video's file is being replaced.
  const assetId = await kysely.transaction().execute(async (trx) => {
    await replaceVideoCues(trx, dialect, videoId, idioma, []);
    const current = await answerVideo(ctx, trx, caller, videoId);
    const row = await deleteSubtitleRow(trx, videoId, idioma);
    if (!row) throw new HttpProblem(404, 'resource-not-found', `the video has no subtitles in ${idioma}`);
    await recordAudit(trx, {
      actor,
      action: 'subtitles.delete',
      subjectType: 'video',
      subjectId: videoId,
      before: { idioma, cues: row.cue_count },
      after: null,
      detail: idioma,
    });
    return current.idExterno;
  });
  const name = storedFileName(subtitleFile(idioma));
  try {
    await storage.remove(assetId, name);
  } catch (error) {
    ctx.log?.warn({ err: error, videoId, file: name }, 'subtitulos: the file of a removed track could not be deleted');
  }
}
