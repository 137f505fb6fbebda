import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generateTestVideo, mediaTools } from './ffmpeg.ts';

const run = promisify(execFile);

/**
 * Videos as cameras, phones and screen recorders write them, which not every browser plays as they
 * are: made here from a generated test video (H.264 + AAC) with ffmpeg, for the tests and
 * bench/video-rewrite.ts of processing's rewrite (the server itself never makes them).
 */
export const FOREIGN_VIDEOS = {
  /** a browser's screen recording: VP8 and Vorbis in WebM */
  webm: { extension: 'webm', args: ['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libvorbis', '-f', 'webm'] },
  /** an old camera's QuickTime file: MPEG-4 part 2 video and PCM sound, the index at the end */
  'quicktime-mpeg4': { extension: 'mov', args: ['-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'pcm_s16le', '-f', 'mov'] },
  /** a phone's recording: HEVC (tagged hvc1, as Apple's) and AAC in QuickTime, with a rotation to portrait */
  'quicktime-hevc': {
    extension: 'mov',
    args: ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-tag:v', 'hvc1', '-c:a', 'copy', '-f', 'mov'],
    // the rotation is kept only when written by a copy
    then: ['-c', 'copy', '-metadata:s:v:0', 'rotate=90', '-f', 'mov'],
  },
  /** an OBS Studio recording (its default container): H.264 and AAC in Matroska */
  matroska: { extension: 'mkv', args: ['-c', 'copy', '-f', 'matroska'] },
  /** an old camera's AVI: MPEG-4 part 2 and MP3 */
  avi: { extension: 'avi', args: ['-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'libmp3lame', '-b:a', '96k', '-f', 'avi'] },
  /** Windows Media: WMV 8 and WMA 2 in ASF */
  wmv: { extension: 'wmv', args: ['-c:v', 'wmv2', '-b:v', '600k', '-c:a', 'wmav2', '-b:a', '64k', '-f', 'asf'] },
  /** a DVD's or an old camcorder's MPEG-2 program stream */
  mpeg: { extension: 'mpg', args: ['-c:v', 'mpeg2video', '-b:v', '1M', '-c:a', 'mp2', '-b:a', '128k', '-f', 'mpeg'] },
  /** Flash video: Sorenson H.263 and MP3 */
  flv: { extension: 'flv', args: ['-c:v', 'flv', '-b:v', '600k', '-c:a', 'libmp3lame', '-b:a', '64k', '-ar', '44100', '-f', 'flv'] },
  /** a Mac's screen recording: H.264 and AAC in QuickTime, the index at the end (copied, not encoded) */
  'quicktime-h264': { extension: 'mov', args: ['-c', 'copy', '-f', 'mov'] },
  /** an MP4 whose index comes after the media (no +faststart) */
  'mp4-index-last': { extension: 'mp4', args: ['-c', 'copy', '-f', 'mp4'] },
  /** a picture 10 bits deep, which many browsers do not decode, and no sound */
  'h264-10bit': { extension: 'mp4', args: ['-an', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le', '-movflags', '+faststart', '-f', 'mp4'] },
} as const satisfies Record<string, { extension: string; args: readonly string[]; then?: readonly string[] }>;

export type ForeignVideo = keyof typeof FOREIGN_VIDEOS;

/** Writes `out`, a `seconds`-long video of the given kind, 640×360 unless told. */
export async function makeForeignVideo(out: string, kind: ForeignVideo, seconds = 2, size: { width: number; height: number } = { width: 640, height: 360 }): Promise<void> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tao-foreign-'));
  try {
    const source = path.join(dir, 'source.mp4');
    await generateTestVideo(source, { seconds, pattern: 'testsrc2', toneHz: 550, ...size });
    const made: { args: readonly string[]; then?: readonly string[] } = FOREIGN_VIDEOS[kind];
    const ffmpeg = (input: string, args: readonly string[], to: string) => run(mediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', input, ...args, to]);
    if (made.then) {
      const first = path.join(dir, `first.${FOREIGN_VIDEOS[kind].extension}`);
      await ffmpeg(source, made.args, first);
      await ffmpeg(first, made.then, path.resolve(out));
    } else {
      await ffmpeg(source, made.args, path.resolve(out));
    }
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
