import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../storage/local-storage.ts';
import { generateTestVideo, mediaTools, probe } from './ffmpeg.ts';
import { chooseLadder, HLS_MASTER, makeStreaming, measureBandwidth, readMediaPlaylist, renditionFrameRate, storyboardPlan, storyboardVtt } from './hls.ts';

const run = promisify(execFile);
const ffmpeg = (args: string[]) => run(mediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args]);

describe('the ladder of renditions', () => {
  const labels = (width: number, height: number) => chooseLadder({ width, height, frameRate: 30, hasAudio: true }).map((r) => r.label);

  it('offers each of 240–1080 not above the source, at least the lowest, and stops at 1080 for 4K (R-MED-5)', () => {
    expect(labels(1920, 1080)).toEqual([240, 360, 480, 720, 1080]);
    expect(labels(3840, 2160)).toEqual([240, 360, 480, 720, 1080]);
    expect(labels(1280, 720)).toEqual([240, 360, 480, 720]);
    expect(labels(640, 352)).toEqual([240]);
    expect(labels(426, 240)).toEqual([240]);
  });

  it('sizes a portrait or tiny source by its shorter side, keeping its aspect with even sides (R-MED-5)', () => {
    const portrait = chooseLadder({ width: 1080, height: 1920, frameRate: 30, hasAudio: true });
    expect(portrait.map((r) => [r.label, r.width, r.height])).toEqual([
      [240, 240, 426],
      [360, 360, 640],
      [480, 480, 854],
      [720, 720, 1280],
      [1080, 1080, 1920],
    ]);
    expect(chooseLadder({ width: 160, height: 90, frameRate: 15, hasAudio: false }).map((r) => [r.label, r.width, r.height])).toEqual([[90, 160, 90]]);
    expect(chooseLadder({ width: 641, height: 361, hasAudio: true }).map((r) => [r.label, r.width, r.height])).toEqual([
      [240, 426, 240],
      [360, 640, 360],
    ]);
  });

  it('keeps frame rates up to 30, halves faster ones, and gives sound 96k up to 360p and 128k above (R-MED-5)', () => {
    expect([renditionFrameRate(25), renditionFrameRate(30000 / 1001), renditionFrameRate(60), renditionFrameRate(50), renditionFrameRate(16.25), renditionFrameRate(undefined)]).toEqual([25, 30000 / 1001, 30, 25, 16, 25]);
    const ladder = chooseLadder({ width: 1920, height: 1080, frameRate: 60, hasAudio: true });
    expect(ladder.map((r) => r.audioBitrate)).toEqual([96_000, 96_000, 128_000, 128_000, 128_000]);
    expect(ladder.every((r) => r.frameRate === 30)).toBe(true);
    // peaks grow with the rung and stay within its cap
    const peaks = ladder.map((r) => r.maxVideoBitrate);
    expect([...peaks].sort((a, b) => a - b)).toEqual(peaks);
    expect(peaks.at(-1)).toBeLessThanOrEqual(4_500_000);
  });

  it('measures peak and average bandwidth from the byte ranges, ignoring a stub last segment for the peak (R-MED-5)', () => {
    const text = ['#EXTM3U', '#EXT-X-MAP:URI="hls-240p.mp4",BYTERANGE="800@0"', '#EXTINF:2.000000,', '#EXT-X-BYTERANGE:50000@800', 'hls-240p.mp4',
      '#EXTINF:2.000000,', '#EXT-X-BYTERANGE:100000@50800', 'hls-240p.mp4', '#EXTINF:0.200000,', '#EXT-X-BYTERANGE:30000@150800', 'hls-240p.mp4', '#EXT-X-ENDLIST'].join('\n');
    const facts = readMediaPlaylist(text);
    expect(facts.init).toEqual({ length: 800, offset: 0 });
    expect(measureBandwidth(facts)).toEqual({ peak: 400_000, average: Math.ceil((180_000 * 8) / 4.2) });
  });
});

describe('the storyboard', () => {
  it('takes a frame every max(5, duration/100) seconds, at most 100, and its cues cover the whole video (R-MED-8)', () => {
    expect(storyboardPlan(12, 640, 360)).toMatchObject({ interval: 5, count: 3, columns: 3, rows: 1, tileWidth: 160, tileHeight: 90 });
    const long = storyboardPlan(3600, 1080, 1920);
    expect(long).toMatchObject({ interval: 36, count: 100, columns: 10, rows: 10, tileHeight: 284 });
    const vtt = storyboardVtt(storyboardPlan(12, 640, 360), 12);
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nstoryboard.jpg#xywh=0,0,160,90\n\n00:00:05.000 --> 00:00:10.000\nstoryboard.jpg#xywh=160,0,160,90\n\n' +
        '00:00:10.000 --> 00:00:12.000\nstoryboard.jpg#xywh=320,0,160,90\n',
    );
  });
});

/** Timestamps of the (key) frames of the file's picture, from the first one (the encoder's delay shifts them all alike). */
async function frameTimes(file: string, keyOnly: boolean): Promise<number[]> {
  const { stdout } = await run(mediaTools().ffprobe, ['-v', 'error', '-select_streams', 'v:0', ...(keyOnly ? ['-skip_frame', 'nokey'] : []), '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', file]);
  const times = stdout.split('\n').map((l) => parseFloat(l)).filter((t) => Number.isFinite(t));
  return times.map((t) => Math.round((t - times[0]!) * 1000) / 1000);
}
const keyFrameTimes = (file: string) => frameTimes(file, true);

/** The master's attributes of each rendition, in order. */
function masterRenditions(text: string): Array<Record<string, string>> {
  return text
    .split('\n')
    .filter((l) => l.startsWith('#EXT-X-STREAM-INF:'))
    .map((l) => Object.fromEntries([...l.slice(18).matchAll(/([A-Z-]+)=("[^"]*"|[^,]*)/g)].map((m) => [m[1]!, m[2]!.replace(/"/g, '')])));
}

describe('HLS renditions of real videos', () => {
  let dir: string;
  let storage: LocalStorage;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-hls-test-'));
    storage = new LocalStorage(path.join(dir, 'media'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Stores `file` as the asset's video.mp4 and makes its renditions and storyboard. */
  async function streamed(assetId: string, file: string) {
    await storage.write(assetId, 'video.mp4', fs.createReadStream(file));
    const recorded: number[][] = [];
    const result = await makeStreaming(storage, assetId, { onHeights: async (heights) => void recorded.push(heights) });
    const master = fs.readFileSync(storage.localPath(assetId, HLS_MASTER), 'utf8');
    return { result, recorded, master, renditions: masterRenditions(master), local: (file: string) => storage.localPath(assetId, file) };
  }

  it('makes 2-second fMP4 segments with a key frame on each, AAC sound and a measured master, lowest first (R-MED-5, R-MED-6)', async () => {
    const source = path.join(dir, 'landscape.mp4');
    await generateTestVideo(source, { seconds: 5, pattern: 'testsrc2', toneHz: 440, width: 640, height: 360 });
    const { result, recorded, master, renditions, local } = await streamed('asset-landscape', source);
    expect(result.heights).toEqual([240, 360]);
    expect(recorded).toEqual([[240], [240, 360]]); // the master grew as each rendition was stored
    expect(master.startsWith('#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n')).toBe(true);
    expect(master).toContain('\nhls-240p.m3u8\n');
    expect(renditions.map((r) => r.RESOLUTION)).toEqual(['426x240', '640x360']);
    for (const r of renditions) {
      expect(r.CODECS).toMatch(/^avc1\.64[0-9a-f]{4},mp4a\.40\.2$/);
      expect(Number(r.BANDWIDTH)).toBeGreaterThanOrEqual(Number(r['AVERAGE-BANDWIDTH']));
      expect(Number(r['AVERAGE-BANDWIDTH'])).toBeGreaterThan(10_000);
      expect(r['FRAME-RATE']).toBe('15.000');
    }
    const playlist = fs.readFileSync(local('hls-360p.m3u8'), 'utf8');
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(playlist).toContain('#EXT-X-MAP:URI="hls-360p.mp4",BYTERANGE=');
    expect(readMediaPlaylist(playlist).durations).toEqual([2, 2, 1]);
    expect(await keyFrameTimes(local('hls-360p.mp4'))).toEqual([0, 2, 4]);
    const info = await probe(local('hls-360p.mp4'));
    expect([info.width, info.height, info.videoCodec, info.audioCodec]).toEqual([640, 360, 'h264', 'aac']);
    expect(result.storyboard).toBe(true);
    expect(fs.readFileSync(local('storyboard.vtt'), 'utf8')).toContain('storyboard.jpg#xywh=0,0,160,90');
  }, 60_000);

  it('streams a video without sound, with no mp4a in its CODECS (R-MED-6)', async () => {
    const source = path.join(dir, 'silent.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=256x144:rate=15', '-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
    const { renditions, local } = await streamed('asset-silent', source);
    expect(renditions).toHaveLength(1);
    expect(renditions[0]!.CODECS).toMatch(/^avc1\.[0-9a-f]{6}$/);
    expect((await probe(local('hls-144p.mp4'))).hasAudio).toBe(false);
  }, 30_000);

  it('streams a portrait 9:16 video and one of odd dimensions with even sides (R-MED-5)', async () => {
    const portrait = path.join(dir, 'portrait.mp4');
    const odd = path.join(dir, 'odd.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=144x256:rate=15', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', portrait]);
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=256x144:rate=15', '-t', '3', '-vf', 'scale=253:141', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv444p', odd]);
    const tall = await streamed('asset-portrait', portrait);
    expect(tall.renditions.map((r) => r.RESOLUTION)).toEqual(['144x256']);
    expect(tall.result.heights).toEqual([144]);
    const uneven = await streamed('asset-odd', odd);
    expect(uneven.renditions.map((r) => r.RESOLUTION)).toEqual(['252x140']);
    const info = await probe(uneven.local('hls-140p.mp4'));
    expect([info.width, info.height, info.pixelFormat]).toEqual([252, 140, 'yuv420p']);
  }, 30_000);

  it('gives a variable frame rate source a constant one, with key frames still every 2 s (R-MED-6)', async () => {
    const source = path.join(dir, 'vfr.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=256x144:rate=30', '-t', '5', '-vf', "select='lt(mod(n\\,10)\\,4)+between(n\\,60\\,90)'", '-fps_mode', 'vfr', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
    const { renditions, local } = await streamed('asset-vfr', source);
    const times = await frameTimes(local('hls-144p.mp4'), false);
    const steps = times.slice(1).map((t, i) => t - times[i]!);
    const frame = 1 / Number(renditions[0]!['FRAME-RATE']);
    // one frame duration throughout, where the source had bursts and gaps
    expect(steps.every((step) => Math.abs(step - frame) < 0.002)).toBe(true);
    expect(times.length).toBeGreaterThan(4 * Number(renditions[0]!['FRAME-RATE']));
    expect(await keyFrameTimes(local('hls-144p.mp4'))).toEqual([0, 2, 4]);
  }, 30_000);

  it('shows a video with rotation metadata upright: its displayed size names the rendition (R-MED-5)', async () => {
    const source = path.join(dir, 'rotated.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=256x144:rate=15', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
    rotateQuarterTurn(source);
    expect(await probe(source)).toMatchObject({ width: 144, height: 256, rotation: 270 });
    const { renditions, local } = await streamed('asset-rotated', source);
    expect(renditions.map((r) => r.RESOLUTION)).toEqual(['144x256']);
    expect(await probe(local('hls-144p.mp4'))).toMatchObject({ width: 144, height: 256, rotation: 0 });
  }, 30_000);

  it('makes a storyboard sprite of 160-pixel tiles whose cues run from 0 to the end of the video (R-MED-8)', async () => {
    const source = path.join(dir, 'long.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=128x72:rate=10', '-t', '11', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
    const { local } = await streamed('asset-storyboard', source);
    const cues = [...fs.readFileSync(local('storyboard.vtt'), 'utf8').matchAll(/(\d\d):(\d\d):(\d\d\.\d{3}) --> (\d\d):(\d\d):(\d\d\.\d{3})\nstoryboard\.jpg#xywh=(\d+),(\d+),(\d+),(\d+)/g)].map((m) => {
      const t = (h: string, mm: string, ss: string) => Number(h) * 3600 + Number(mm) * 60 + Number(ss);
      return { start: t(m[1]!, m[2]!, m[3]!), end: t(m[4]!, m[5]!, m[6]!), xywh: m.slice(7, 11).map(Number) };
    });
    expect(cues.map((c) => c.start)).toEqual([0, 5, 10]);
    expect(cues.slice(0, -1).map((c) => c.end)).toEqual([5, 10]);
    expect(cues.at(-1)!.end).toBeCloseTo((await probe(source)).durationSeconds, 1);
    expect(cues.map((c) => c.xywh)).toEqual([[0, 0, 160, 90], [160, 0, 160, 90], [320, 0, 160, 90]]);
    expect(await probe(local('storyboard.jpg'))).toMatchObject({ width: 480, height: 90 });
  }, 30_000);

  it('lists only the renditions stored when a run stops, and a later run adds the rest (R-MED-5, R-MED-7)', async () => {
    const source = path.join(dir, 'stopped.mp4');
    await generateTestVideo(source, { seconds: 3, pattern: 'smptebars', toneHz: 330, width: 640, height: 360 });
    await storage.write('asset-stopped', 'video.mp4', fs.createReadStream(source));
    const stop = new AbortController();
    const run = makeStreaming(storage, 'asset-stopped', { signal: stop.signal, onHeights: async () => stop.abort() });
    await expect(run).rejects.toThrow();
    const master = () => fs.readFileSync(storage.localPath('asset-stopped', HLS_MASTER), 'utf8');
    expect(masterRenditions(master()).map((r) => r.RESOLUTION)).toEqual(['426x240']);
    expect((await storage.list('asset-stopped')).filter((f) => f.startsWith('hls-360p'))).toEqual([]);
    const resumed = await makeStreaming(storage, 'asset-stopped');
    expect(resumed).toMatchObject({ heights: [240, 360], made: [360] });
    expect(masterRenditions(master()).map((r) => r.RESOLUTION)).toEqual(['426x240', '640x360']);
  }, 30_000);

  it('stops a 4K source\'s ladder at 1080p (R-MED-5)', async () => {
    const source = path.join(dir, '4k.mp4');
    // few frames: the test is about the ladder, not the picture
    await ffmpeg(['-f', 'lavfi', '-i', 'color=c=teal:size=3840x2160:rate=2', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
    const { result, renditions } = await streamed('asset-4k', source);
    expect(result.heights).toEqual([240, 360, 480, 720, 1080]);
    expect(renditions.map((r) => r.RESOLUTION)).toEqual(['426x240', '640x360', '854x480', '1280x720', '1920x1080']);
  }, 60_000);

  it('makes nothing again for renditions and a storyboard already stored (R-MED-7)', async () => {
    const source = path.join(dir, 'again.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=256x144:rate=15', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
    const first = await streamed('asset-again', source);
    expect(first.result).toMatchObject({ made: [144], storyboardMade: true });
    const media = fs.statSync(first.local('hls-144p.mp4')).mtimeMs;
    const second = await makeStreaming(storage, 'asset-again');
    expect(second).toEqual({ heights: [144], made: [], storyboard: true, storyboardMade: false });
    expect(fs.statSync(first.local('hls-144p.mp4')).mtimeMs).toBe(media);
  }, 30_000);
});

/** Writes a 90° display matrix into the first track header of an MP4 (ffmpeg 5.1 cannot set one itself). */
function rotateQuarterTurn(file: string): void {
  const bytes = fs.readFileSync(file);
  const at = bytes.indexOf('tkhd', 0, 'latin1');
  if (at < 0) throw new Error('no tkhd box');
  const version = bytes[at + 4]!;
  const matrix = at + 4 + (version === 1 ? 44 : 32) + 8;
  const values = [0, 0x00010000, 0, -0x00010000, 0, 0, 0, 0, 0x40000000];
  values.forEach((v, i) => bytes.writeInt32BE(v, matrix + i * 4));
  fs.writeFileSync(file, bytes);
}
