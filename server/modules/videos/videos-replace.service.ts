import type { AppContext } from '../../context.ts';
import { now } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/database-errors.ts';
import type { BodyOf } from '../../openapi/handlers.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { Storage } from '../../storage/storage.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { deleteUpload, findUpload, findUploadForUpdate, markThumbnailAdopted } from '../uploads/uploads.service.ts';
import { alreadyUsed, usableUpload } from './videos-manage.service.ts';
import { clearPositionsPast, findVideoByExternalId, findVideoById, findVideoForViewer, lockVideo, swapVideoAsset } from './videos.repository.ts';
import { adoptThumbnail, answerVideo, auditActor, notFound, viewerOf, type Caller, type Video } from './videos.service.ts';

/**
 * Replacing a video's file with a newly uploaded one (PUT /api/videos/{id}/archivo;
 * docs/decisions/0128-video-file-replacement.md). R-ADM-13, R-ADM-14.
 */

export type VideoFileReplacement = BodyOf<'replaceVideoFile'>;

type ReplaceContext = Pick<AppContext, 'db' | 'secrets' | 'log'> & Partial<Pick<AppContext, 'media'>>;

/** The stored subtitle tracks of an asset (`subtitulos-<idioma>.vtt`, the subtitulos module's files). */
const SUBTITLE_FILE = /^subtitulos-[a-z0-9_-]+\.vtt$/;

/** Copies one file of an asset to another through the storage (streamed, never held whole). */
async function copyFile(storage: Storage, from: string, to: string, file: string): Promise<void> {
  const opened = await storage.open(from, file);
  if (!opened) return; // removed meanwhile
  await storage.write(to, file, opened.createReadStream());
}

/**
 * The video takes the asset of a processed upload as its file. Checked first (404 unknown video or
 * asset; 409 the asset is not ready, is this video's or another's; 422 its processing failed), a
 * thumbnail uploaded to the session adopted; then in one transaction, with the video and the upload
 * locked: the subtitle files copied to the new asset, the video's asset, duration, thumbnail,
 * preview, HLS renditions and storyboard swapped (the thumbnail's version bumped), positions past
 * the new duration cleared, the old upload session deleted, and the audit entry
 * (`video.file-replaced`). Everything else of the video (id, texts, tags, ratings, favourites,
 * views, subtitle rows) is its own row's or keyed by its id, so it stays. After the commit the old
 * asset's files are deleted (a failure logged: the sweep removes files nobody owns). The new
 * upload's HLS stage, if still running, goes on recording on the video: it finds it by asset id.
 */
export async function replaceVideoFile(ctx: ReplaceContext, storage: Storage, caller: Caller, id: number, body: VideoFileReplacement): Promise<Video> {
  const { kysely, dialect } = ctx.db;
  const assetId = body.idExterno;
  const video = await findVideoForViewer(kysely, viewerOf(caller), id);
  if (!video) throw notFound();
  if (video.id_externo === assetId) throw new HttpProblem(409, 'conflict', 'this asset is the video\'s file already');
  if (await findVideoByExternalId(kysely, assetId)) throw alreadyUsed();
  const upload = usableUpload(await findUpload(kysely, assetId));
  const adopted = upload.thumbnail_pending === 1 && (await adoptThumbnail(storage, assetId, ctx.log, ctx.media));
  const hasThumbnail = adopted || upload.has_thumbnail === 1 || (await storage.stat(assetId, 'thumbnail.jpg')) !== undefined;

  const at = now();
  const copied: string[] = [];
  let old: { assetId: string; duracion: number };
  try {
    old = await kysely.transaction().execute(async (trx) => {
      if (!(await lockVideo(trx, dialect, id))) throw notFound();
      const row = await findVideoById(trx, id);
      if (row?.status !== 'ready') throw notFound();
      // locked: an HLS rendition of the new asset finishing now is recorded after the swap, on the video
      const current = usableUpload(await findUploadForUpdate(trx, dialect, assetId));
      if (await findVideoByExternalId(trx, assetId)) throw alreadyUsed();
      // in the transaction, the video locked: a track written meanwhile waits, and is not left behind on the old asset
      for (const file of (await storage.list(row.id_externo)).filter((name) => SUBTITLE_FILE.test(name))) {
        copied.push(file);
        await copyFile(storage, row.id_externo, assetId, file);
      }
      const duracion = Number(current.duracion ?? 0);
      await swapVideoAsset(trx, id, {
        id_externo: assetId,
        duracion,
        has_thumbnail: hasThumbnail ? 1 : 0,
        has_preview: current.has_preview,
        hls_heights: current.hls_heights,
        has_storyboard: current.has_storyboard,
        updated_at: at,
      });
      if (current.thumbnail_pending === 1) await markThumbnailAdopted(trx, assetId);
      await clearPositionsPast(trx, id, duracion);
      await deleteUpload(trx, row.id_externo);
      const before = { idExterno: row.id_externo, duracion: Number(row.duracion) };
      await recordAudit(trx, {
        actor: auditActor(caller),
        action: 'video.file-replaced',
        subjectType: 'video',
        subjectId: id,
        before,
        after: { idExterno: assetId, duracion },
        detail: row.titulo,
        at,
      });
      return { assetId: row.id_externo, duracion: before.duracion };
    });
  } catch (error) {
    // the copies would otherwise go with the upload into another video
    for (const file of copied) await storage.remove(assetId, file).catch((e: unknown) => ctx.log.warn({ err: e, assetId, file }, 'videos: a copied subtitle file could not be removed'));
    if (isUniqueViolation(error)) throw alreadyUsed(); // another request made a video of it meanwhile
    throw error;
  }
  try {
    await storage.deleteAsset(old.assetId);
  } catch (error) {
    ctx.log.warn({ err: error, videoId: id, assetId: old.assetId }, 'videos: the files of a replaced video file could not be deleted');
  }
  return answerVideo(ctx, kysely, caller, id);
}
