import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../storage/storage.ts';
import { writeLocalFile } from '../storage/write-local-file.ts';
import { MediaToolError, mediaTools, slotsOf, type MediaJobs } from './ffmpeg.ts';
import { makeWorkDir } from './work-dirs.ts';

/**
 * Thumbnails uploaded by an administrator: the image arrives at the asset's thumbnail location and
 * waits as `thumbnail.pending` (uploads.thumbnail_pending = 1) until POST /api/videos or PATCH
 * `/thumbnail` adopts it: converted to `thumbnail.jpg` (JPEG, at most 1280 pixels wide) and its
 * WebP copy `thumbnail.webp`.
 */
export const PENDING_THUMBNAIL = 'thumbnail.pending';
export const THUMBNAIL_MAX_WIDTH = 1280;
/**
 * The thumbnail's WebP copy, served in place of `thumbnail.jpg` to a browser that accepts WebP
 * (server/modules/media/routes.ts): about half the JPEG's bytes (docs/decisions/0040-thumbnails-previews-and-webp-copies.md).
 */
export const THUMBNAIL_WEBP = 'thumbnail.webp';
/** libwebp's quality (0–100) for the copy: at 640 pixels about 45 % of the JPEG's size, no visible loss. */
export const WEBP_QUALITY = 80;
/**
 * The width of the thumbnail's card-sized WebP copy: a card is 296–405 pixels wide on a screen 640
 * pixels wide or more, so on a screen of one device pixel per CSS pixel (most office monitors) this
 * copy fills it, with a third of the 640-pixel picture's pixels. The library's cards ask for it
 * through `srcset` (GET /api/media `w=400`; docs/decisions/0040-thumbnails-previews-and-webp-copies.md).
 */
export const THUMBNAIL_SMALL_WIDTH = 400;
/** The card-sized WebP copy (THUMBNAIL_SMALL_WIDTH pixels wide at most; a narrower picture keeps its width). */
export const THUMBNAIL_SMALL_WEBP = `thumbnail-${THUMBNAIL_SMALL_WIDTH}.webp`;

/**
 * Runs `work` on a path of the stored file on this machine: the file itself when the storage is a
 * local directory, else a temporary copy (removed afterwards). Throws when the file does not exist.
 */
export async function withLocalFile<T>(
  storage: Storage,
  assetId: string,
  file: string,
  work: (file: string) => Promise<T>,
  workParent: string = os.tmpdir(),
): Promise<T> {
  const local = storage.localPath?.(assetId, file);
  if (local !== undefined) return work(local);
  const opened = await storage.open(assetId, file);
  if (!opened) throw new Error(`${assetId}/${file} does not exist`);
  const dir = await makeWorkDir(workParent, 'tao-media-');
  try {
    const copy = path.join(dir, file);
    await fs.promises.writeFile(copy, opened.createReadStream());
    return await work(copy);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** One picture made by ffmpeg with `args`; MediaToolError (`could not <what>`, with ffmpeg's last lines) when it fails. */
function ffmpegPicture(args: string[], what: string, jobs: MediaJobs | undefined): Promise<void> {
  return slotsOf(jobs)(
    () =>
      new Promise<void>((resolve, reject) => {
        execFile(mediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], { timeout: 60_000, killSignal: 'SIGKILL', windowsHide: true }, (error, _stdout, stderr) => {
          if (!error) return resolve();
          const detail = stderr.split('\n').filter((l) => l.trim() !== '').slice(-3).join('\n');
          reject(new MediaToolError(`ffmpeg could not ${what}${detail ? `: ${detail}` : ''}`, stderr));
        });
      }),
  );
}

/** A JPEG of the image at most `maxWidth` pixels wide (smaller images keep their size); MediaToolError when it is not an image. */
export function imageToJpeg(input: string, out: string, maxWidth = THUMBNAIL_MAX_WIDTH, jobs?: MediaJobs): Promise<void> {
  return ffmpegPicture(
    ['-i', path.resolve(input), '-frames:v', '1', '-vf', `scale=w='max(2,trunc(min(${maxWidth},iw)/2)*2)':h=-2`, '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', path.resolve(out)],
    'convert the image',
    jobs,
  );
}

/**
 * A WebP of a JPEG: the same pixels, or with `maxWidth` at most that wide (the height in proportion);
 * MediaToolError when ffmpeg cannot (no libwebp, say).
 */
export function jpegToWebp(input: string, out: string, maxWidth?: number, jobs?: MediaJobs): Promise<void> {
  const scale = maxWidth === undefined ? [] : ['-vf', `scale=w='min(${maxWidth},iw)':h=-1`];
  return ffmpegPicture(
    ['-i', path.resolve(input), '-frames:v', '1', ...scale, '-c:v', 'libwebp', '-quality', String(WEBP_QUALITY), '-f', 'webp', path.resolve(out)],
    'make the WebP thumbnail',
    jobs,
  );
}

/** The WebP copies of a thumbnail: the file each is stored as, and the width it is made at most (none: the JPEG's). */
export const WEBP_COPIES: ReadonlyArray<{ file: string; maxWidth?: number }> = [{ file: THUMBNAIL_WEBP }, { file: THUMBNAIL_SMALL_WEBP, maxWidth: THUMBNAIL_SMALL_WIDTH }];

/**
 * Stores the JPEG at `jpeg` as the asset's `thumbnail.jpg` and its WebP copies (WEBP_COPIES: the
 * same picture as `thumbnail.webp`, the card-sized one as THUMBNAIL_SMALL_WEBP). The old copies go
 * first, so that a stop half-way never leaves a WebP of the previous picture beside the new JPEG
 * (the JPEG is then served in its place). A copy that cannot be made is logged and left out:
 * browsers get the JPEG. Answers whether every copy was stored.
 */
export async function storeThumbnail(storage: Storage, assetId: string, jpeg: string, log?: Pick<FastifyBaseLogger, 'warn'>, jobs?: MediaJobs): Promise<boolean> {
  for (const copy of WEBP_COPIES) await storage.remove(assetId, copy.file);
  await writeLocalFile(storage, assetId, 'thumbnail.jpg', jpeg);
  let stored = true;
  for (const copy of WEBP_COPIES) {
    const webp = `${jpeg}.${copy.file}`;
    try {
      await jpegToWebp(jpeg, webp, copy.maxWidth, jobs);
      await writeLocalFile(storage, assetId, copy.file, webp);
    } catch (error) {
      log?.warn({ err: error, assetId, file: copy.file }, 'could not make a WebP copy of the thumbnail; the JPEG is served in its place');
      stored = false;
    } finally {
      await fs.promises.rm(webp, { force: true });
    }
  }
  return stored;
}

/**
 * Adopts the asset's pending thumbnail: converts it to `thumbnail.jpg` and its WebP copy (replacing those there) and
 * removes the pending image (a WebP copy that cannot be made is logged on `log`). Answers false when none is pending; throws MediaToolError when the
 * image cannot be converted (the pending image and the previous thumbnail stay).
 */
export async function adoptPendingThumbnail(storage: Storage, assetId: string, log?: Pick<FastifyBaseLogger, 'warn'>, jobs?: MediaJobs): Promise<boolean> {
  if (!(await storage.stat(assetId, PENDING_THUMBNAIL))) return false;
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tao-thumbnail-'));
  try {
    const jpeg = path.join(work, 'thumbnail.jpg');
    await withLocalFile(storage, assetId, PENDING_THUMBNAIL, (input) => imageToJpeg(input, jpeg, THUMBNAIL_MAX_WIDTH, jobs));
    await storeThumbnail(storage, assetId, jpeg, log, jobs);
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
  await storage.remove(assetId, PENDING_THUMBNAIL);
  return true;
}
