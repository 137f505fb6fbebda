/**
 * How fast the HLS stage (server/media/hls.ts makeStreaming) makes a video's whole ladder and its
 * storyboard on this machine: a generated 60 s 1080p30 source with sound (a moving test pattern,
 * H.264 at CRF 20), stored on a local directory, streamed as the server streams an upload (240p to
 * 1080p, x264 veryfast, ffmpeg at niceness 10, one rendition at a time). Prints the realtime factor
 * (seconds of video per second of wall time), the ffmpeg version and the ladder's bytes over the
 * source's.
 *
 *   npx tsx bench/transcode.ts
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { mediaTools, mediaToolsVersion } from '../server/media/ffmpeg.ts';
import { makeStreaming, renditionName } from '../server/media/hls.ts';
import { LocalStorage } from '../server/storage/local-storage.ts';
import { markdownTable, reportSection } from './report.ts';

const SECONDS = 60;
const run = promisify(execFile);

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-transcode-'));
  try {
    const tools = mediaTools();
    const version = await mediaToolsVersion(tools);
    const source = path.join(dir, 'source.mp4');
    await run(tools.ffmpeg, [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
      '-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', source,
    ]);
    const storage = new LocalStorage(path.join(dir, 'media'));
    const assetId = 'bench-transcode';
    await storage.write(assetId, 'video.mp4', fs.createReadStream(source));
    const load = os.loadavg().map((l) => l.toFixed(2)).join(', ');
    const started = process.hrtime.bigint();
    const result = await makeStreaming(storage, assetId, { workParent: dir });
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    const sourceBytes = fs.statSync(source).size;
    const rows: string[][] = [];
    let ladderBytes = 0;
    for (const height of result.heights) {
      const bytes = fs.statSync(storage.localPath(assetId, `${renditionName(height)}.mp4`)).size;
      ladderBytes += bytes;
      rows.push([`${height}p`, `${(bytes / 1e6).toFixed(1)} MB`, `${((bytes * 8) / SECONDS / 1e6).toFixed(2)} Mbit/s`]);
    }
    const realtime = SECONDS / wall;
    console.log(`${version}\n${result.heights.length} renditions + storyboard of ${SECONDS} s 1080p30 in ${wall.toFixed(1)} s: ${realtime.toFixed(2)}× realtime; ladder / source ${(ladderBytes / sourceBytes).toFixed(2)}`);
    reportSection(
      'transcode',
      'HLS ladder of one video',
      `The HLS stage (server/media/hls.ts makeStreaming) on a generated ${SECONDS} s 1080p30 source with sound (testsrc2, H.264 CRF 20, ` +
        `${(sourceBytes / 1e6).toFixed(1)} MB): ${result.heights.map((h) => `${h}p`).join(', ')} and the storyboard, one rendition at a time at niceness 10. ` +
        `${version}; ${os.availableParallelism()} cores, load average ${load} at the start, ${new Date().toISOString().slice(0, 10)}. ` +
        `A test pattern is easier to encode than a camera's picture.\n\n` +
        markdownTable(['measure', 'value'], [
          ['wall time, whole ladder + storyboard', `${wall.toFixed(1)} s`],
          ['realtime factor (source s / wall s)', `${realtime.toFixed(2)}×`],
          ['an hour of such video', `${(3600 / realtime / 60).toFixed(0)} min`],
          ['ladder storage / source size', `${(ladderBytes / sourceBytes).toFixed(2)} (${(ladderBytes / 1e6).toFixed(1)} MB)`],
        ]) +
        '\n\n' +
        markdownTable(['rendition', 'file', 'average rate'], rows),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
