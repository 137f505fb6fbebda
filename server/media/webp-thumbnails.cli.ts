import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { openStorage } from '../storage/open-storage.ts';
import { writeLocalFile } from '../storage/write-local-file.ts';
import { jpegToWebp, THUMBNAIL_WEBP, withLocalFile } from './thumbnails.ts';
import { makeWorkDir, workParentOf } from './work-dirs.ts';

/** What `webp-thumbnails` found and did. */
export interface WebpThumbnailsReport {
  /** videos with a thumbnail */
  thumbnails: number;
  /** had their WebP copy already */
  had: number;
  /** copies made now */
  made: number;
  /** thumbnails not in storage (generated rows) */
  withoutFile: number;
  /** ffmpeg could not make the copy: the JPEG is still served */
  failed: number;
}

/**
 * `npm run cli -- webp-thumbnails`: makes the WebP copy (server/media/thumbnails.ts storeThumbnail)
 * of every thumbnail stored before copies were made, so that browsers get about half the bytes
 * (server/modules/media/routes.ts). A server may keep serving meanwhile: until its copy exists a
 * thumbnail is served as its JPEG, and a thumbnail replaced while its copy was being made is not
 * given the old picture's copy (it has its own already). `line` gets one line per failure.
 */
export async function makeWebpThumbnails(ctx: Pick<AppContext, 'db' | 'config'>, options: { line: (text: string) => void }): Promise<WebpThumbnailsReport> {
  const storage = openStorage(ctx.config);
  const workParent = workParentOf(ctx.config);
  const videos = await ctx.db.kysely.selectFrom('videos').select(['id', 'id_externo', 'titulo']).where('has_thumbnail', '=', 1).orderBy('id').execute();
  const report: WebpThumbnailsReport = { thumbnails: videos.length, had: 0, made: 0, withoutFile: 0, failed: 0 };
  for (const video of videos) {
    const asset = video.id_externo;
    if (await storage.stat(asset, THUMBNAIL_WEBP)) {
      report.had += 1;
      continue;
    }
    const before = await storage.stat(asset, 'thumbnail.jpg');
    if (!before) {
      report.withoutFile += 1;
      continue;
    }
    const work = await makeWorkDir(workParent, 'tao-webp-');
    try {
      const webp = path.join(work, THUMBNAIL_WEBP);
      await withLocalFile(storage, asset, 'thumbnail.jpg', (jpeg) => jpegToWebp(jpeg, webp), workParent);
      // Replaced meanwhile (storeThumbnail made that picture's copy): this one is of the old picture.
      const after = await storage.stat(asset, 'thumbnail.jpg');
      if (!after || after.size !== before.size || after.modified.getTime() !== before.modified.getTime() || (await storage.stat(asset, THUMBNAIL_WEBP))) {
        report.had += 1;
        continue;
      }
      await writeLocalFile(storage, asset, THUMBNAIL_WEBP, webp);
      report.made += 1;
    } catch (error) {
      report.failed += 1;
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
      options.line(`#${video.id} «${video.titulo}»: no WebP copy made, its JPEG is served: ${why}`);
    } finally {
      await fs.promises.rm(work, { recursive: true, force: true });
    }
  }
  return report;
}

/** The report's last line. */
export function describeWebpThumbnails(report: WebpThumbnailsReport): string {
  return [
    `${report.thumbnails} thumbnails: ${report.made} WebP copies made, ${report.had} had one`,
    ...(report.withoutFile > 0 ? [`${report.withoutFile} without a stored file`] : []),
    ...(report.failed > 0 ? [`${report.failed} failed (their JPEG is served)`] : []),
  ].join(', ') + '.';
}
