import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../storage/local-storage.ts';
import { generateTestVideo, indexFirst, mediaTools, playbackPlan, probe, progressReader, type ProbeResult } from './ffmpeg.ts';
import { makeForeignVideo, type ForeignVideo } from './foreign-videos.ts';
import { InvalidMediaError, processVideo } from './processing.ts';

const run = promisify(execFile);

/** A hash of the picture stream's packets as stored (the same when the stream was copied, not encoded). */
async function pictureHash(file: string): Promise<string> {
  const { stdout } = await run(mediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-']);
  return stdout.trim();
}

describe('processing makes a file every browser plays', () => {
  let dir: string;
  let storage: LocalStorage;
  const sources = new Map<string, string>();
  let counter = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-processing-test-'));
    storage = new LocalStorage(path.join(dir, 'media'));
    const kinds: ForeignVideo[] = ['webm', 'quicktime-hevc', 'quicktime-mpeg4', 'quicktime-h264', 'mp4-index-last', 'h264-10bit'];
    await Promise.all(
      kinds.map(async (kind) => {
        const file = path.join(dir, `${kind}.source`);
        await makeForeignVideo(file, kind);
        sources.set(kind, file);
      }),
    );
    const playable = path.join(dir, 'playable.source');
    await generateTestVideo(playable, { seconds: 2, pattern: 'smptebars', toneHz: 440 });
    sources.set('playable', playable);
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Stores the source as an upload's video.mp4 and processes it; answers the outcome and the stored file. */
  async function processed(
    kind: string,
    onProgress?: (fraction: number) => void,
  ): Promise<{ outcome: Awaited<ReturnType<typeof processVideo>>; stored: string; info: ProbeResult }> {
    const assetId = `asset-${kind}-${(counter += 1)}`;
    await storage.write(assetId, 'video.mp4', fs.createReadStream(sources.get(kind)!));
    const outcome = await processVideo(storage, assetId, undefined, onProgress ? { onProgress } : {});
    const stored = storage.localPath(assetId, 'video.mp4');
    return { outcome, stored, info: await probe(stored) };
  }

  function expectBrowserPlayable(info: ProbeResult): void {
    expect(info.formatName).toContain('mp4');
    expect(info.majorBrand?.trim()).not.toBe('qt');
    expect(info.videoCodec).toBe('h264');
    expect(info.pixelFormat).toBe('yuv420p');
  }

  it('keeps an H.264 MP4 with its index first byte for byte', async () => {
    const progress: number[] = [];
    const { outcome, stored } = await processed('playable', (fraction) => progress.push(fraction));
    expect(outcome.converted).toEqual([]);
    expect(progress).toEqual([]);
    expect(fs.readFileSync(stored).equals(fs.readFileSync(sources.get('playable')!))).toBe(true);
  });

  it('encodes a WebM (VP8, Vorbis) as H.264 and AAC in MP4 with the index first, of the same length, with thumbnail and preview', async () => {
    const { outcome, stored, info } = await processed('webm');
    expect(outcome.converted.join('; ')).toMatch(/video vp8.*sound vorbis.*container matroska,webm/);
    expectBrowserPlayable(info);
    expect(info.audioCodec).toBe('aac');
    expect([info.width, info.height]).toEqual([640, 360]);
    expect(await indexFirst(stored)).toBe(true);
    expect(Math.abs(info.durationSeconds - 2)).toBeLessThan(0.2);
    expect(outcome.durationSeconds).toBeCloseTo(info.durationSeconds, 3);
    expect(outcome.hasThumbnail && outcome.hasPreview).toBe(true);
  }, 60_000);

  it('encodes a QuickTime file of MPEG-4 part 2 and PCM sound, reporting its progress up to the end', async () => {
    const progress: number[] = [];
    const { outcome, stored, info } = await processed('quicktime-mpeg4', (fraction) => progress.push(fraction));
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(outcome.converted.join('; ')).toMatch(/video mpeg4.*sound pcm_s16le/);
    expectBrowserPlayable(info);
    expect(info.audioCodec).toBe('aac');
    expect(await indexFirst(stored)).toBe(true);
  }, 60_000);

  it("encodes a phone's HEVC QuickTime file, turned upright as the phone meant it, and copies its AAC sound", async () => {
    const { outcome, info } = await processed('quicktime-hevc');
    expect(outcome.converted).toEqual(['video hevc yuv420p', 'QuickTime file']);
    expectBrowserPlayable(info);
    expect(info.audioCodec).toBe('aac');
    expect([info.width, info.height]).toEqual([360, 640]);
  }, 60_000);

  it('rewrites a QuickTime file of H.264 and AAC as MP4 without encoding its picture again', async () => {
    const source = sources.get('quicktime-h264')!;
    expect(await indexFirst(source)).toBe(false);
    const { outcome, stored, info } = await processed('quicktime-h264');
    expect(outcome.converted).toEqual(['QuickTime file']);
    expectBrowserPlayable(info);
    expect(info.audioCodec).toBe('aac');
    expect(await indexFirst(stored)).toBe(true);
    expect(await pictureHash(stored)).toBe(await pictureHash(source));
  }, 60_000);

  it('moves the index of an MP4 to the front, copying its streams', async () => {
    const source = sources.get('mp4-index-last')!;
    const { outcome, stored, info } = await processed('mp4-index-last');
    expect(outcome.converted).toEqual(['index after the media']);
    expectBrowserPlayable(info);
    expect(await indexFirst(stored)).toBe(true);
    expect(await pictureHash(stored)).toBe(await pictureHash(source));
  }, 60_000);

  it('encodes a 10-bit H.264 picture as 8-bit, and a video without sound stays without', async () => {
    const { outcome, info } = await processed('h264-10bit');
    expect(outcome.converted).toEqual(['video h264 yuv420p10le']);
    expectBrowserPlayable(info);
    expect(info.hasAudio).toBe(false);
  }, 60_000);

  it('an MP4 cut short is refused as not a playable video (R-MED-9)', async () => {
    const assetId = 'asset-truncated';
    const whole = fs.readFileSync(sources.get('playable')!);
    await storage.write(assetId, 'video.mp4', (await import('node:stream')).Readable.from([whole.subarray(0, Math.floor(whole.length * 0.6))]));
    await expect(processVideo(storage, assetId)).rejects.toThrow(new InvalidMediaError('the file is cut short: its last part is missing'));
  });

  it('a file that is not a video is refused and stays as it was', async () => {
    const assetId = 'asset-not-video';
    const bytes = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(4000, 7)]);
    await storage.write(assetId, 'video.mp4', (await import('node:stream')).Readable.from([bytes]));
    await expect(processVideo(storage, assetId)).rejects.toBeInstanceOf(InvalidMediaError);
    expect(fs.readFileSync(storage.localPath(assetId, 'video.mp4')).equals(bytes)).toBe(true);
  });
});

describe('progressReader', () => {
  it("reads ffmpeg's -progress blocks, split anywhere, as the fraction of the video written", () => {
    const seen: number[] = [];
    const read = progressReader(40, (fraction) => seen.push(fraction));
    const output =
      'frame=10\nout_time_us=-9223372036854775807\nout_time=-577014:32:22.775808\nprogress=continue\n' +
      'frame=250\nout_time_us=10000000\nout_time=00:00:10.000000\nprogress=continue\n' +
      'out_time=00:00:30.500000\nprogress=continue\nout_time=00:01:00.000000\nprogress=end\n';
    for (let i = 0; i < output.length; i += 7) read(output.slice(i, i + 7));
    expect(seen).toEqual([0.25, 30.5 / 40, 1, 1]);
  });
});

describe('playbackPlan', () => {
  const base: ProbeResult = {
    durationSeconds: 10,
    hasVideo: true,
    hasAudio: true,
    videoCodec: 'h264',
    pixelFormat: 'yuv420p',
    audioCodec: 'aac',
    videoStream: 0,
    audioStream: 1,
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    majorBrand: 'isom',
  };

  it('leaves H.264 (8-bit 4:2:0) with AAC or MP3 or no sound in an MP4 whose index is first', () => {
    expect(playbackPlan(base, true)).toBeUndefined();
    expect(playbackPlan({ ...base, audioCodec: 'mp3' }, true)).toBeUndefined();
    expect(playbackPlan({ ...base, pixelFormat: 'yuvj420p' }, true)).toBeUndefined();
    const { audioCodec: _, audioStream: __, ...silent } = base;
    expect(playbackPlan({ ...silent, hasAudio: false }, true)).toBeUndefined();
  });

  it('encodes what browsers do not all play, and copies what they do', () => {
    expect(playbackPlan({ ...base, videoCodec: 'hevc' }, true)).toMatchObject({ video: 'encode', audio: 'copy', videoStream: 0, audioStream: 1 });
    expect(playbackPlan({ ...base, pixelFormat: 'yuv422p' }, true)).toMatchObject({ video: 'encode' });
    expect(playbackPlan({ ...base, audioCodec: 'opus' }, true)).toMatchObject({ video: 'copy', audio: 'encode' });
    expect(playbackPlan({ ...base, majorBrand: 'qt  ' }, true)).toMatchObject({ video: 'copy', audio: 'copy', reasons: ['QuickTime file'] });
    expect(playbackPlan(base, false)).toMatchObject({ video: 'copy', audio: 'copy', reasons: ['index after the media'] });
    expect(playbackPlan({ ...base, formatName: 'matroska,webm', videoCodec: 'vp9', audioCodec: 'opus' }, false)).toMatchObject({ video: 'encode', audio: 'encode' });
  });

  it('maps the moving picture, not cover art listed before it', () => {
    expect(playbackPlan({ ...base, videoCodec: 'hevc', videoStream: 2, audioStream: 0 }, true)).toMatchObject({ videoStream: 2, audioStream: 0 });
  });
});
