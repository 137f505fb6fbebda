import fs from 'node:fs';
import type { AppContext } from '../context.ts';
import { openStorage } from '../storage/open-storage.ts';
import { indexFirst, playbackPlan } from './ffmpeg.ts';
import { InvalidMediaError, probeUpload, rewriteForBrowsers } from './processing.ts';
import { withLocalFile } from './thumbnails.ts';
import { makeWorkDir, workParentOf } from './work-dirs.ts';

/** What `playable` found and did, video by video. */
export interface PlayableReport {
  videos: number;
  /** already a file every browser plays */
  kept: number;
  /** rewritten, or with `check` to be rewritten */
  rewritten: number;
  /** rows without a stored video (generated rows) */
  withoutFile: number;
  /** not media, or ffmpeg failed: left as they were */
  failed: number;
}

/**
 * `npm run cli -- playable [--check]`: makes every ready video of the library a file every browser
 * plays, as processing does for new uploads (server/media/processing.ts), for videos uploaded before
 * it did. With `check`, only says which would be rewritten. A rewrite replaces the stored file only
 * once complete, so a server may keep serving meanwhile; `line` gets one line per video.
 */
export async function makeLibraryPlayable(
  ctx: Pick<AppContext, 'db' | 'config'>,
  options: { check: boolean; line: (text: string) => void },
): Promise<PlayableReport> {
  const storage = openStorage(ctx.config);
  const workParent = workParentOf(ctx.config);
  const videos = await ctx.db.kysely.selectFrom('videos').select(['id', 'id_externo', 'titulo']).where('status', '=', 'ready').orderBy('id').execute();
  const report: PlayableReport = { videos: videos.length, kept: 0, rewritten: 0, withoutFile: 0, failed: 0 };
  for (const video of videos) {
    const name = `#${video.id} «${video.titulo}»`;
    if (!(await storage.stat(video.id_externo, 'video.mp4'))) {
      report.withoutFile += 1;
      continue;
    }
    try {
      const reasons = await withLocalFile(storage, video.id_externo, 'video.mp4', async (file) => {
        const info = await probeUpload(file);
        if (options.check) return playbackPlan(info, await indexFirst(file))?.reasons ?? [];
        const work = await makeWorkDir(workParent, 'tao-playable-');
        try {
          return (await rewriteForBrowsers(storage, video.id_externo, file, info, work)).reasons;
        } finally {
          await fs.promises.rm(work, { recursive: true, force: true });
        }
      }, workParent);
      if (reasons.length === 0) {
        report.kept += 1;
      } else {
        report.rewritten += 1;
        options.line(`${name}: ${options.check ? 'to be rewritten' : 'rewritten'} (${reasons.join(', ')})`);
      }
    } catch (error) {
      report.failed += 1;
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
      options.line(`${name}: ${error instanceof InvalidMediaError ? 'not a playable video' : 'could not be rewritten'}, left as it is: ${why}`);
    }
  }
  return report;
}

/** The report's last line. */
export function describePlayable(report: PlayableReport, check: boolean): string {
  return [
    `${report.videos} ready videos: ${report.kept} already play in every browser`,
    `${report.rewritten} ${check ? 'to be rewritten (run without --check to rewrite them)' : 'rewritten'}`,
    ...(report.withoutFile > 0 ? [`${report.withoutFile} without a stored file`] : []),
    ...(report.failed > 0 ? [`${report.failed} failed (left as they were)`] : []),
  ].join(', ') + '.';
}
