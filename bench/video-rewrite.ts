/**
 * How fast processing makes an upload a file every browser plays (server/media/processing.ts): the
 * rewrite of three kinds of video as people send them — a phone's HEVC QuickTime file (encoded again
 * as H.264), a browser's WebM screen recording (VP8 and Vorbis: both encoded), a Mac's QuickTime
 * screen recording of H.264 and AAC (only the container and the index change: copied). Each source is
 * 10 s long, made here by ffmpeg from a test pattern at 15 frames a second; ffmpeg runs at normal
 * priority with nothing else to do. The figure to plan with is frames encoded per second: at 30
 * frames a second, an hour of such video takes `108,000 / fps` seconds.
 *
 *   npx tsx bench/video-rewrite.ts [rounds]     (default 3)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { indexFirst, makeBrowserPlayable, playbackPlan, probe, TEST_FPS } from '../server/media/ffmpeg.ts';
import { makeForeignVideo, type ForeignVideo } from '../server/media/foreign-videos.ts';
import { formatSummary, markdownTable, reportSection, summarize } from './report.ts';

const SECONDS = 10;
const CASES: Array<{ kind: ForeignVideo; label: string; size: { width: number; height: number } }> = [
  { kind: 'quicktime-hevc', label: "a phone's HEVC QuickTime file, 1080p (portrait)", size: { width: 1920, height: 1080 } },
  { kind: 'webm', label: "a browser's WebM screen recording (VP8, Vorbis), 720p", size: { width: 1280, height: 720 } },
  { kind: 'quicktime-h264', label: "a Mac's QuickTime screen recording (H.264, AAC), 1080p", size: { width: 1920, height: 1080 } },
];

async function main(): Promise<void> {
  const rounds = Math.max(1, Number(process.argv[2] ?? 3));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-rewrite-'));
  try {
    const rows: string[][] = [];
    for (const { kind, label, size } of CASES) {
      const source = path.join(dir, `${kind}.source`);
      await makeForeignVideo(source, kind, SECONDS, size);
      const info = await probe(source);
      const plan = playbackPlan(info, await indexFirst(source));
      if (!plan) throw new Error(`${kind}: expected a rewrite`);
      const seconds: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const out = path.join(dir, `${kind}-${round}.mp4`);
        const started = process.hrtime.bigint();
        await makeBrowserPlayable(source, out, plan, { durationSeconds: info.durationSeconds });
        seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
        fs.rmSync(out, { force: true });
      }
      const time = summarize(seconds);
      const fps = summarize(seconds.map((s) => (info.durationSeconds * TEST_FPS) / s));
      const hourAt30 = (3600 * 30) / fps.median / 60;
      const what = `picture ${plan.video === 'copy' ? 'copied' : 'encoded'}, sound ${plan.audio === 'copy' ? 'copied' : plan.audio === 'none' ? 'none' : 'encoded'}`;
      console.log(`${kind}: ${what}; ${time.median.toFixed(2)} s for ${SECONDS} s; ${fps.median.toFixed(0)} frames/s`);
      rows.push([label, what, formatSummary(time, 2, 's'), formatSummary(fps, 0, 'frames/s'), `${hourAt30 < 1 ? '< 1' : hourAt30.toFixed(0)} min`]);
    }
    reportSection(
      'video-rewrite',
      'Rewriting uploads for every browser',
      `Processing rewrites an upload that not every browser plays as H.264 and AAC in MP4 with its index first ` +
        `(server/media/processing.ts; an MP4 that already plays everywhere is kept as sent and costs nothing here). ` +
        `Each source is ${SECONDS} s of a test pattern at ${TEST_FPS} frames a second, made here; ${rounds} rounds each, ` +
        `ffmpeg at normal priority (the server runs it at niceness 10, below the requests). A test pattern is easier to ` +
        `encode than a camera's picture: real footage takes longer. The wizard shows the rewrite's progress ` +
        `('Procesando el video… 40 %').\n\n` +
        markdownTable(['upload', 'rewrite', `time for ${SECONDS} s of video`, 'speed', 'an hour at 30 frames/s'], rows),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
