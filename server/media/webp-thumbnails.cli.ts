import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { openStorage } from '../storage/open-storage.ts';
import { writeLocalFile } from '../storage/write-local-file.ts';
import { jpegToWebp, WEBP_COPIES, withLocalFile } from './thumbnails.ts';
import { makeWorkDir, workParentOf } from './work-dirs.ts';

/** What `webp-thumbnails` found and did. */
export interface WebpThumbnailsReport {
  /** videos with a thumbnail */
  thumbnails: number;
  /** had every WebP copy already */
  had: number;
  /** copies made now (a thumbnail may be given two: the whole picture's and the card-sized one) */
  made: number;
  /** thumbnails not in storage (generated rows) */
  withoutFile: number;
  /** ffmpeg could not make a copy: the JPEG (or the other copy) is still served */
  failed: number;
}

/**
 * `npm run cli -- webp-thumbnails`: makes the WebP copies (server/media/thumbnails.ts WEBP_COPIES:
 * the whole picture's and the card-sized one) that a thumbnail stored before they were made lacks,
 * so that browsers get a fraction of the bytes (server/modules/media/routes.ts). A server may keep
 * serving meanwhile: until a copy exists the thumbnail is served without it, and a thumbnail replaced
 * while a copy was being made is not given the old picture's copy (storeThumbnail made its own). `line`
 * gets one line per failure.
 */
export async function makeWebpThumbnails(ctx: Pick<AppContext, 'db' | 'config'>, options: { line: (text: string) => void }): Promise<WebpThumbnailsReport> {
  const storage = openStorage(ctx.config);
  const workParent = workParentOf(ctx.config);
  const videos = await ctx.db.kysely.selectFrom('videos').select(['id', 'id_externo', 'titulo']).where('has_thumbnail', '=', 1).orderBy('id').execute();
  const report: WebpThumbnailsReport = { thumbnails: videos.length, had: 0, made: 0, withoutFile: 0, failed: 0 };
  for (const video of videos) {
    const asset = video.id_externo;
    const missing: Array<(typeof WEBP_COPIES)[number]> = [];
    for (const copy of WEBP_COPIES) if (!(await storage.stat(asset, copy.file))) missing.push(copy);
    if (missing.length === 0) {
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
      await withLocalFile(
        storage,
        asset,
        'thumbnail.jpg',
        async (jpeg) => {
          for (const copy of missing) {
            const webp = path.join(work, copy.file);
            await jpegToWebp(jpeg, webp, copy.maxWidth);
            // Replaced meanwhile (storeThumbnail made that picture's copies): this one is of the old picture.
            const after = await storage.stat(asset, 'thumbnail.jpg');
            if (!after || after.size !== before.size || after.modified.getTime() !== before.modified.getTime() || (await storage.stat(asset, copy.file))) continue;
            await writeLocalFile(storage, asset, copy.file, webp);
            report.made += 1;
          }
        },
        workParent,
      );
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
    `${report.thumbnails} thumbnails: ${report.made} WebP copies made, ${report.had} had them`,
    ...(report.withoutFile > 0 ? [`${report.withoutFile} without a stored file`] : []),
    ...(report.failed > 0 ? [`${report.failed} failed (their JPEG is served)`] : []),
  ].join(', ') + '.';
}
