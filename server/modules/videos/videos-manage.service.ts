import type { AppContext } from '../../context.ts';
import type { BodyOf } from '../../openapi/handlers.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { Storage } from '../../storage/storage.ts';
import type { DialectName } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/database-errors.ts';
import { findUserById } from '../accounts/users.service.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { deleteUpload, findUpload, findUploadForUpdate, markThumbnailAdopted, type UploadRow } from '../uploads/uploads.service.ts';
import { deleteVideoRow, findTagsOfVideos, findVideoByExternalId, lockVideo, type Executor, type VideoRow } from './videos.repository.ts';
import {
  adoptThumbnail,
  answerVideo,
  auditedFields,
  checkTagIds,
  insertVideoIn,
  notFound,
  optionalText,
  requiredText,
  TEXT_LIMITS,
  type Caller,
  type Video,
} from './videos.service.ts';

/**
 * The administrators' management of videos: creating one from an uploaded asset and deleting one
 * with its files (the field changes and the thumbnail replacement are PATCH: videos.service.ts).
 */

export type VideoCreate = BodyOf<'createVideo'>;

type ManageContext = Pick<AppContext, 'db' | 'secrets' | 'log'> & Partial<Pick<AppContext, 'media'>>;

type FieldError = { field: string; message: string };

/** The texts of a new video, trimmed and checked (R-ADM-2); every failing field is named at once. */
function checkTexts(body: VideoCreate): { titulo: string; descripcionCorta: string; descripcion: string | null } {
  const titulo = requiredText(body.titulo, TEXT_LIMITS.titulo);
  const descripcionCorta = requiredText(body.descripcionCorta, TEXT_LIMITS.descripcionCorta);
  const descripcion = optionalText(body.descripcion, TEXT_LIMITS.descripcion);
  const errors: FieldError[] = [];
  if (typeof titulo === 'object') errors.push({ field: 'body.titulo', ...titulo });
  if (typeof descripcionCorta === 'object') errors.push({ field: 'body.descripcionCorta', ...descripcionCorta });
  if (typeof descripcion === 'object' && descripcion !== null) errors.push({ field: 'body.descripcion', ...descripcion });
  if (errors.length > 0) throw new HttpProblem(400, 'validation-error', `${errors[0]!.field}: ${errors[0]!.message}`, errors);
  return { titulo: titulo as string, descripcionCorta: descripcionCorta as string, descripcion: descripcion as string | null };
}

export const alreadyUsed = () => new HttpProblem(409, 'conflict', 'this asset already belongs to a video');

/** The asset's upload, when a video may be made from it: 404 unknown, 409 not complete / processing / used, 422 failed. */
export function usableUpload(upload: UploadRow | undefined): UploadRow {
  if (!upload) throw new HttpProblem(404, 'resource-not-found', 'no upload with this asset id');
  switch (upload.video_state) {
    case 'ready':
      return upload;
    case 'failed':
      throw new HttpProblem(422, 'invalid-media', `the uploaded file is not a playable video${upload.error ? `: ${upload.error}` : ''}`);
    case 'processing':
      throw new HttpProblem(409, 'conflict', 'the uploaded video is still being processed');
    default:
      throw new HttpProblem(409, 'conflict', 'the video of this upload has not arrived complete');
  }
}

/**
 * Creates a video from an uploaded asset (POST /api/videos). Checks the texts and tags (400), the
 * asset (404 unknown; 409 not complete, processing or already used; 422 processing failed), then
 * adopts a thumbnail uploaded to the session's thumbnail location (converted before the
 * transaction; 422 when it is not an image), and inserts the ready video in one transaction with
 * what processing learnt (duration, preview, thumbnail) and the signed-in administrator's name and
 * organisation. The list's generation triggers make it appear in lists at once.
 */
export async function createVideo(ctx: ManageContext, storage: Storage, caller: Caller, body: VideoCreate): Promise<Video> {
  const { kysely, dialect } = ctx.db;
  const texts = checkTexts(body);
  await checkTagIds(kysely, body.tags, 'body.tags');
  const author = await findUserById(kysely, caller.userId);
  if (!author) throw new HttpProblem(401, 'invalid-access-token', 'the signed-in user no longer exists');

  const assetId = body.idExterno;
  if (await findVideoByExternalId(kysely, assetId)) throw alreadyUsed();
  const upload = usableUpload(await findUpload(kysely, assetId));
  const adopted = upload.thumbnail_pending === 1 && (await adoptThumbnail(storage, assetId, ctx.log, ctx.media));
  const hasThumbnail = adopted || upload.has_thumbnail === 1 || (await storage.stat(assetId, 'thumbnail.jpg')) !== undefined;

  let id: number;
  try {
    id = await kysely.transaction().execute(async (trx) => {
      // locked: an HLS rendition finishing now records its height on this video once it exists
      const current = usableUpload(await findUploadForUpdate(trx, dialect, assetId));
      if (await findVideoByExternalId(trx, assetId)) throw alreadyUsed();
      const row = await insertVideoIn(trx, dialect, {
        idExterno: assetId,
        ...texts,
        duracion: Number(current.duracion ?? 0),
        organizacion: author.organizacion,
        nombreUsuarioAlta: author.nombre,
        createdBy: author.id,
        isVisible: body.isVisible,
        status: 'ready',
        hasThumbnail,
        hasPreview: current.has_preview === 1,
        hlsHeights: current.hls_heights ? current.hls_heights.split(',').map(Number) : [],
        hasStoryboard: current.has_storyboard === 1,
        tagIds: body.tags,
      });
      if (current.thumbnail_pending === 1) await markThumbnailAdopted(trx, assetId);
      await recordAudit(trx, {
        actor: { id: author.id, nombre: author.username },
        action: 'video.created',
        subjectType: 'video',
        subjectId: row.id,
        after: { idExterno: assetId, ...auditedFields(row, body.tags) },
        detail: row.titulo,
        at: row.fecha_alta,
      });
      return row.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyUsed(); // another request made a video of it meanwhile
    throw error;
  }
  return answerVideo(ctx, kysely, caller, id);
}

/**
 * Deletes a video (DELETE /api/videos/{id}): in one transaction its row (tags, the users' own
 * states, view events and search entry go with it; its views leave the statistics' counters) and
 * its asset's upload row; after the commit the asset's files. A failure to delete the files is
 * logged (the row is gone either way: a video without files is never left behind, files without a
 * row may be). The audit log records it, with the video's fields and tags, in the same transaction
 * (`actor` null: the command line or a job).
 */
export async function deleteVideo(ctx: ManageContext, storage: Storage, id: number, actor: AuditActor | null = null): Promise<void> {
  const deleted = await ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await deleteVideoIn(trx, ctx.db.dialect, id, actor);
    if (!row) throw notFound();
    return row;
  });
  try {
    await storage.deleteAsset(deleted.id_externo);
  } catch (error) {
    ctx.log.warn({ err: error, videoId: id, assetId: deleted.id_externo }, 'videos: the files of a deleted video could not be deleted');
  }
}

/**
 * deleteVideo's rows and audit entry, in the caller's transaction (the batch delete runs several in
 * one); the files are the caller's to delete after the commit. Undefined when there is no such video.
 */
export async function deleteVideoIn(trx: Executor, dialect: DialectName, id: number, actor: AuditActor | null): Promise<VideoRow | undefined> {
  if (!(await lockVideo(trx, dialect, id))) return undefined;
  const tagIds = ((await findTagsOfVideos(trx, [id])).get(id) ?? []).map((t) => t.id);
  const row = await deleteVideoRow(trx, dialect, id);
  if (!row) return undefined;
  await deleteUpload(trx, row.id_externo);
  await recordAudit(trx, {
    actor,
    action: 'video.deleted',
    subjectType: 'video',
    subjectId: id,
    before: { idExterno: row.id_externo, ...auditedFields(row, tagIds) },
    detail: row.titulo,
  });
  return row;
}
