import type { AppContext } from '../context.ts';
import { recordUploadStreaming } from '../modules/uploads/uploads.service.ts';
import { recordVideoStreaming } from '../modules/videos/videos.service.ts';
import { openStorage } from '../storage/open-storage.ts';
import { mediaTools, mediaToolsVersion } from './ffmpeg.ts';
import { makeStreaming, renditionName } from './hls.ts';
import { workParentOf } from './work-dirs.ts';

/** What `hls` found and did. */
export interface LibraryStreamingReport {
  /** which ffmpeg ran, and its version line */
  ffmpeg: string;
  videos: number;
  /** had every rendition of their ladder and a storyboard already */
  complete: number;
  /** renditions made now */
  renditions: number;
  storyboards: number;
  /** rows without a stored video (generated rows) */
  withoutFile: number;
  failed: number;
}

/**
 * `npm run cli -- hls`: makes the HLS renditions and storyboards that ready videos lack
 * (server/media/hls.ts makeStreaming), for videos stored before the server made them or whose run
 * was stopped. Idempotent and resumable: renditions stored are kept, so a run killed half-way goes
 * on where it was; each stored rendition is recorded at once, so the master grows as it goes. A
 * server may keep serving meanwhile. `line` gets one line per video that changed or failed,
 * `progress` the fraction of the whole run done with the video being worked on.
 */
export async function makeLibraryStreaming(
  ctx: Pick<AppContext, 'db' | 'config'>,
  options: { line: (text: string) => void; progress?: (fraction: number, what: string) => void },
): Promise<LibraryStreamingReport> {
  const tools = mediaTools();
  const storage = openStorage(ctx.config);
  const workParent = workParentOf(ctx.config);
  const db = ctx.db.kysely;
  const videos = await db.selectFrom('videos').select(['id', 'id_externo', 'titulo']).where('status', '=', 'ready').orderBy('id').execute();
  const report: LibraryStreamingReport = { ffmpeg: `${tools.ffmpeg} (${await mediaToolsVersion(tools)})`, videos: videos.length, complete: 0, renditions: 0, storyboards: 0, withoutFile: 0, failed: 0 };
  for (const [index, video] of videos.entries()) {
    const name = `#${video.id} «${video.titulo}»`;
    options.progress?.(index / Math.max(1, videos.length), name);
    if (!(await storage.stat(video.id_externo, 'video.mp4'))) {
      report.withoutFile += 1;
      continue;
    }
    const record = async (changes: { hlsHeights?: readonly number[]; hasStoryboard?: boolean }) => {
      await recordVideoStreaming(db, video.id_externo, changes);
      await recordUploadStreaming(db, video.id_externo, changes); // an upload row, when the video came from one
    };
    try {
      const result = await makeStreaming(storage, video.id_externo, {
        workParent,
        onHeights: (hlsHeights) => record({ hlsHeights }),
        onStoryboard: () => record({ hasStoryboard: true }),
        onProgress: (fraction) => options.progress?.((index + fraction) / videos.length, name),
      });
      if (result.made.length === 0 && !result.storyboardMade) {
        report.complete += 1;
        continue;
      }
      report.renditions += result.made.length;
      if (result.storyboardMade) report.storyboards += 1;
      const made = [...result.made.map(renditionName), ...(result.storyboardMade ? ['storyboard'] : [])];
      options.line(`${name}: made ${made.join(', ')}`);
    } catch (error) {
      report.failed += 1;
      options.line(`${name}: failed, its MP4 still plays: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  options.progress?.(1, '');
  return report;
}

/** The report's last lines. */
export function describeLibraryStreaming(report: LibraryStreamingReport): string {
  return [
    `ffmpeg: ${report.ffmpeg}`,
    [
      `${report.videos} ready videos: ${report.complete} had every rendition and a storyboard`,
      `${report.renditions} renditions and ${report.storyboards} storyboards made`,
      ...(report.withoutFile > 0 ? [`${report.withoutFile} without a stored file`] : []),
      ...(report.failed > 0 ? [`${report.failed} failed (their MP4 still plays)`] : []),
    ].join(', ') + '.',
  ].join('\n');
}

/** A progress bar of plain text, redrawn in place with `\r` (no dependency draws one here). */
export function progressBar(fraction: number, what: string, width = 24): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)} % ${what.slice(0, 40).padEnd(40)}`;
}
