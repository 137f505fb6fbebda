import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../storage/storage.ts';
import { writeLocalFile } from '../storage/write-local-file.ts';
import { probe, progressReader, runFfmpeg, type MediaJobs, type MediaLane, type ProbeResult } from './ffmpeg.ts';
import { withLocalFile } from './thumbnails.ts';
import { makeWorkDir } from './work-dirs.ts';

/**
 * HLS renditions and storyboards of a stored video (R-MED-5 … R-MED-8): a ladder of H.264/AAC
 * renditions in fragmented MP4, one file each with byte ranges (docs/decisions/0107-hls-single-file-renditions.md),
 * segments of SEGMENT_SECONDS (docs/decisions/0106-hls-segment-length-and-starting-level.md), the
 * master playlist written here from what was measured, and a sprite of frames with its WebVTT.
 * Bitrates and the ladder: docs/decisions/0109-hls-ladder-and-bitrates.md.
 */

/** "The p" of each rung: the picture's shorter side (a portrait video's width). */
export const LADDER = [240, 360, 480, 720, 1080] as const;
/** Segment length; keyframes fall exactly on its multiples. */
export const SEGMENT_SECONDS = 2;
export const HLS_MASTER = 'hls-master.m3u8';
export const STORYBOARD_JPG = 'storyboard.jpg';
export const STORYBOARD_VTT = 'storyboard.vtt';
/** The highest frame rate a rendition keeps; a faster source is halved (60 → 30, 50 → 25). */
export const MAX_FRAME_RATE = 30;

/** Bits per pixel and frame at the rung's peak (PeerTube's "max" column), and the rung's cap in bit/s. */
const MAX_BITS_PER_PIXEL: Readonly<Record<number, number>> = { 240: 0.29, 360: 0.26, 480: 0.22, 720: 0.19, 1080: 0.17 };
const VIDEO_BITRATE_CAP: Readonly<Record<number, number>> = { 240: 400_000, 360: 800_000, 480: 1_200_000, 720: 2_500_000, 1080: 4_500_000 };
/** No rendition is starved below this, however small or slow (a tiny source). */
const VIDEO_BITRATE_FLOOR = 150_000;

export interface Rendition {
  /** the shorter side of the picture, which names the rendition (`hls-360p`) */
  label: number;
  width: number;
  height: number;
  frameRate: number;
  /** the video's peak rate (x264 maxrate), bit/s */
  maxVideoBitrate: number;
  /** AAC bit/s; 0 when the source has no sound */
  audioBitrate: number;
}

/** The nearest even number of at least 2 (H.264 4:2:0 needs even sides). */
export const even = (value: number): number => Math.max(2, 2 * Math.round(value / 2));

/** Whether a rate is one of the 1000/1001 family (23.976, 29.97, 59.94). */
const isNtsc = (fps: number) => Math.abs(fps - Math.round(fps)) > 0.01 && Math.abs(fps * 1.001 - Math.round(fps * 1.001)) < 0.005;

/**
 * The constant frame rate renditions get: the source's up to MAX_FRAME_RATE, else an integer
 * fraction of it; a whole number unless it is of the 1000/1001 family, so that a variable-rate
 * source's odd average (16.25) still puts a frame on every 2-second boundary; 25 when unknown.
 */
export function renditionFrameRate(source: number | undefined): number {
  if (!source || !(source > 0) || !Number.isFinite(source)) return 25;
  const rate = source <= MAX_FRAME_RATE + 0.5 ? source : source / Math.ceil(source / (MAX_FRAME_RATE + 0.5));
  return isNtsc(rate) ? rate : Math.max(1, Math.round(rate));
}

/** The base name of a rendition's files (`hls-360p`; three digits at least, as the media route's pattern wants). */
export const renditionName = (label: number): string => `hls-${String(label).padStart(3, '0')}p`;

/**
 * The rungs for a source of these displayed dimensions: each of LADDER not above the source's
 * shorter side (a 4K source stops at 1080), at least the lowest; a source smaller than it gets one
 * rendition at its own size. Aspect kept, sides even.
 */
export function chooseLadder(source: { width: number; height: number; frameRate?: number | undefined; hasAudio: boolean }): Rendition[] {
  const short = Math.min(source.width, source.height);
  const portrait = source.height > source.width;
  const labels: number[] = short < LADDER[0] ? [even(Math.floor(short / 2) * 2)] : LADDER.filter((p) => p <= short);
  const frameRate = renditionFrameRate(source.frameRate);
  return labels.map((label) => {
    const long = even(((portrait ? source.height : source.width) * label) / short);
    const width = portrait ? label : long;
    const height = portrait ? long : label;
    const rung = LADDER.find((p) => p >= label) ?? 1080;
    const byPixels = width * height * Math.min(frameRate, MAX_FRAME_RATE) * MAX_BITS_PER_PIXEL[rung]!;
    return {
      label,
      width,
      height,
      frameRate,
      maxVideoBitrate: Math.round(Math.max(VIDEO_BITRATE_FLOOR, Math.min(VIDEO_BITRATE_CAP[rung]!, byPixels))),
      audioBitrate: source.hasAudio ? (label <= 360 ? 96_000 : 128_000) : 0,
    };
  });
}

/** The fps filter's rate: NTSC rates as exact fractions (29.97 → 30000/1001), others to the millisecond. */
function rateText(fps: number): string {
  return isNtsc(fps) ? `${Math.round(fps * 1.001) * 1000}/1001` : String(Math.round(fps * 1000) / 1000);
}

/** The ffmpeg arguments of one rendition (exported for the tests and the bench's report). */
export function renditionArgs(video: string, dir: string, r: Rendition, progress: boolean): string[] {
  const name = renditionName(r.label);
  const gop = String(Math.max(1, Math.round(r.frameRate * SEGMENT_SECONDS)));
  return [
    '-i', path.resolve(video),
    '-map', '0:v:0',
    ...(r.audioBitrate > 0 ? ['-map', '0:a:0'] : []),
    // constant frame rate (a variable-rate source is resampled), the rung's size, square pixels
    '-vf', `fps=${rateText(r.frameRate)},scale=${r.width}:${r.height},setsar=1,format=yuv420p`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high',
    // capped CRF: plain pictures take few bytes, busy ones never exceed the rung's peak
    '-crf', '23', '-maxrate', String(r.maxVideoBitrate), '-bufsize', String(2 * r.maxVideoBitrate),
    '-g', gop, '-keyint_min', gop, '-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`,
    ...(r.audioBitrate > 0 ? ['-c:a', 'aac', '-b:a', String(r.audioBitrate), '-ac', '2', '-ar', '48000'] : ['-an']),
    '-sn', '-dn', '-max_muxing_queue_size', '4096',
    ...(progress ? ['-progress', 'pipe:1', '-nostats'] : []),
    '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod',
    '-hls_segment_type', 'fmp4', '-hls_flags', 'single_file+independent_segments',
    '-hls_segment_filename', path.join(dir, `${name}.mp4`),
    path.join(dir, `${name}.m3u8`),
  ];
}

export interface EncodeOptions {
  durationSeconds: number;
  jobs?: MediaJobs | undefined;
  /** the lane of `jobs` (default `streams`; the demo's own slots run two at a time in `jobs`) */
  lane?: MediaLane | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((fraction: number) => void) | undefined;
}

/**
 * Encodes one rendition of `video` into `dir` (`hls-<H>p.m3u8` and `hls-<H>p.mp4`, the playlist naming
 * the media file by its bare name), in the server's stream lane, allowed 10 s per second of video
 * (15 minutes at least). Answers the two paths.
 */
export async function encodeRendition(video: string, dir: string, r: Rendition, options: EncodeOptions): Promise<{ playlist: string; media: string }> {
  const name = renditionName(r.label);
  const playlist = path.join(dir, `${name}.m3u8`);
  const media = path.join(dir, `${name}.mp4`);
  await runFfmpeg(renditionArgs(video, dir, r, options.onProgress !== undefined), {
    ...(options.jobs ? { jobs: options.jobs } : {}),
    lane: options.lane ?? 'streams',
    timeoutMs: Math.max(15 * 60_000, Math.ceil(options.durationSeconds) * 10_000),
    ...(options.onProgress ? { onOutput: progressReader(options.durationSeconds, options.onProgress) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // ffmpeg names the media file as given; the playlist must name it relative to itself
  const text = await fs.promises.readFile(playlist, 'utf8');
  await fs.promises.writeFile(playlist, text.split(`${dir}${path.sep}`).join(''));
  return { playlist, media };
}

// ---- playlists ---------------------------------------------------------------------------------

export interface MediaPlaylistFacts {
  /** EXTINF of each segment, seconds */
  durations: number[];
  /** byte length of each segment */
  lengths: number[];
  /** the init section (EXT-X-MAP BYTERANGE) */
  init: { length: number; offset: number } | undefined;
}

/** The segments of a single-file fMP4 media playlist. */
export function readMediaPlaylist(text: string): MediaPlaylistFacts {
  const durations: number[] = [];
  const lengths: number[] = [];
  let init: MediaPlaylistFacts['init'];
  for (const line of text.split(/\r?\n/)) {
    const extinf = /^#EXTINF:([0-9.]+)/.exec(line);
    if (extinf) durations.push(Number(extinf[1]));
    const range = /^#EXT-X-BYTERANGE:(\d+)/.exec(line);
    if (range) lengths.push(Number(range[1]));
    const map = /^#EXT-X-MAP:.*BYTERANGE="(\d+)@(\d+)"/.exec(line);
    if (map) init = { length: Number(map[1]), offset: Number(map[2]) };
  }
  return { durations, lengths, init };
}

/**
 * Peak and average bit/s of a rendition from its segments' bytes and durations. The peak skips a
 * last segment shorter than half a segment when there are others: its key frame alone would
 * overstate the rate every other segment needs.
 */
export function measureBandwidth(facts: MediaPlaylistFacts): { peak: number; average: number } {
  const n = Math.min(facts.durations.length, facts.lengths.length);
  let peak = 0;
  let bytes = 0;
  let seconds = 0;
  for (let i = 0; i < n; i += 1) {
    const duration = facts.durations[i]!;
    const length = facts.lengths[i]!;
    bytes += length;
    seconds += duration;
    const stub = i === n - 1 && n > 1 && duration < SEGMENT_SECONDS / 2;
    if (duration > 0 && !stub) peak = Math.max(peak, (length * 8) / duration);
  }
  const average = seconds > 0 ? (bytes * 8) / seconds : 0;
  return { peak: Math.ceil(Math.max(peak, average)), average: Math.ceil(average) };
}

/** The RFC 6381 name of the H.264 stream in an MP4 init section (its avcC box): `avc1.64001f`. */
export function avcCodecOf(init: Buffer): string | undefined {
  const at = init.indexOf('avcC', 0, 'latin1');
  if (at < 0 || at + 8 > init.length) return undefined;
  const hex = (byte: number) => byte.toString(16).padStart(2, '0');
  return `avc1.${hex(init[at + 5]!)}${hex(init[at + 6]!)}${hex(init[at + 7]!)}`;
}

/** What the master playlist says of a rendition. */
export interface MasterEntry {
  label: number;
  width: number;
  height: number;
  frameRate: number;
  bandwidth: number;
  averageBandwidth: number;
  codecs: string;
}

/** The master playlist of these renditions, lowest first, naming each media playlist by its bare name. */
export function masterPlaylist(entries: readonly MasterEntry[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const e of [...entries].sort((a, b) => a.label - b.label)) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${e.bandwidth},AVERAGE-BANDWIDTH=${e.averageBandwidth},RESOLUTION=${e.width}x${e.height},CODECS="${e.codecs}",FRAME-RATE=${e.frameRate.toFixed(3)}`,
      `${renditionName(e.label)}.m3u8`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The master entry of a rendition from its playlist's text and its init section's bytes. */
export function masterEntry(r: Rendition, playlistText: string, init: Buffer): MasterEntry {
  const { peak, average } = measureBandwidth(readMediaPlaylist(playlistText));
  const video = avcCodecOf(init);
  if (!video) throw new Error(`${renditionName(r.label)}: no H.264 stream in its init section`);
  return {
    label: r.label,
    width: r.width,
    height: r.height,
    frameRate: r.frameRate,
    bandwidth: peak,
    averageBandwidth: average,
    codecs: r.audioBitrate > 0 ? `${video},mp4a.40.2` : video,
  };
}

// ---- storyboard --------------------------------------------------------------------------------

export const STORYBOARD_TILE_WIDTH = 160;
export const STORYBOARD_MAX_FRAMES = 100;
const STORYBOARD_COLUMNS = 10;

export interface StoryboardPlan {
  /** seconds between frames: max(5, duration / 100) */
  interval: number;
  count: number;
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
}

/** One frame every max(5, duration/100) seconds (at most 100), tiles 160 pixels wide in rows of 10. */
export function storyboardPlan(durationSeconds: number, width: number, height: number): StoryboardPlan {
  const interval = Math.max(5, durationSeconds / STORYBOARD_MAX_FRAMES);
  const count = Math.min(STORYBOARD_MAX_FRAMES, Math.max(1, Math.ceil(durationSeconds / interval - 1e-9)));
  const columns = Math.min(STORYBOARD_COLUMNS, count);
  return { interval, count, columns, rows: Math.ceil(count / columns), tileWidth: STORYBOARD_TILE_WIDTH, tileHeight: even((STORYBOARD_TILE_WIDTH * height) / width) };
}

const vttTime = (s: number) => {
  const ms = Math.round(s * 1000);
  const hh = String(Math.floor(ms / 3_600_000)).padStart(2, '0');
  const mm = String(Math.floor(ms / 60_000) % 60).padStart(2, '0');
  const ss = String(Math.floor(ms / 1000) % 60).padStart(2, '0');
  return `${hh}:${mm}:${ss}.${String(ms % 1000).padStart(3, '0')}`;
};

/** The WebVTT thumbnails: a cue per tile, `storyboard.jpg#xywh=…`, the last one ending with the video. */
export function storyboardVtt(plan: StoryboardPlan, durationSeconds: number): string {
  const cues = ['WEBVTT', ''];
  for (let i = 0; i < plan.count; i += 1) {
    const start = i * plan.interval;
    const end = i === plan.count - 1 ? Math.max(durationSeconds, start + 0.001) : (i + 1) * plan.interval;
    const x = (i % plan.columns) * plan.tileWidth;
    const y = Math.floor(i / plan.columns) * plan.tileHeight;
    cues.push(`${vttTime(start)} --> ${vttTime(end)}`, `${STORYBOARD_JPG}#xywh=${x},${y},${plan.tileWidth},${plan.tileHeight}`, '');
  }
  return cues.join('\n');
}

/** Makes `storyboard.jpg` and `storyboard.vtt` of `video` in `dir` (the first frame at or after each interval). */
export async function makeStoryboard(
  video: string,
  dir: string,
  plan: StoryboardPlan,
  options: { durationSeconds: number; jobs?: MediaJobs | undefined; lane?: MediaLane | undefined; signal?: AbortSignal | undefined },
): Promise<{ jpg: string; vtt: string }> {
  const jpg = path.join(dir, STORYBOARD_JPG);
  const vtt = path.join(dir, STORYBOARD_VTT);
  const filter = `select='gte(t\\,selected_n*${plan.interval.toFixed(3)})',scale=${plan.tileWidth}:${plan.tileHeight},setsar=1,tile=${plan.columns}x${plan.rows}`;
  await runFfmpeg(['-i', path.resolve(video), '-map', '0:v:0', '-an', '-vf', filter, '-fps_mode', 'vfr', '-frames:v', '1', '-q:v', '4', '-f', 'image2', '-c:v', 'mjpeg', jpg], {
    ...(options.jobs ? { jobs: options.jobs } : {}),
    lane: options.lane ?? 'streams',
    timeoutMs: Math.max(5 * 60_000, Math.ceil(options.durationSeconds) * 2_000),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  await fs.promises.writeFile(vtt, storyboardVtt(plan, options.durationSeconds));
  return { jpg, vtt };
}

// ---- the whole stage over storage --------------------------------------------------------------

export interface StreamingOptions {
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'> | undefined;
  jobs?: MediaJobs | undefined;
  /** the lane of `jobs` its ffmpeg runs in (default `streams`) */
  lane?: MediaLane | undefined;
  signal?: AbortSignal | undefined;
  workParent?: string | undefined;
  /** after the master lists these heights (ascending): record them (the database's hls_heights) */
  onHeights?: ((heights: number[]) => Promise<void>) | undefined;
  /** after the storyboard is stored */
  onStoryboard?: (() => Promise<void>) | undefined;
  /** the fraction (0–1) of this video's missing work done */
  onProgress?: ((fraction: number) => void) | undefined;
}

export interface StreamingResult {
  /** the heights the master lists now */
  heights: number[];
  /** those made by this run (the others were stored already) */
  made: number[];
  storyboard: boolean;
  storyboardMade: boolean;
}

async function readStored(storage: Storage, assetId: string, file: string, range?: { start: number; end: number }): Promise<Buffer> {
  const opened = await storage.open(assetId, file);
  if (!opened) throw new Error(`${assetId}/${file} does not exist`);
  const chunks: Buffer[] = [];
  for await (const chunk of opened.createReadStream(range)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The init section of a rendition's media file (at most its first 64 KiB). */
async function initOf(read: (range: { start: number; end: number }) => Promise<Buffer>, playlistText: string): Promise<Buffer> {
  const init = readMediaPlaylist(playlistText).init;
  return read(init ? { start: init.offset, end: init.offset + init.length - 1 } : { start: 0, end: 65_535 });
}

/**
 * Makes what the asset lacks of its HLS renditions and storyboard, from its stored `video.mp4`:
 * renditions lowest first, each stored media file first and playlist second, then the master
 * rewritten with every stored rendition and `onHeights` told; the storyboard after the lowest.
 * Renditions and a storyboard already stored are kept (a stopped run goes on where it was). A
 * failure throws; what was stored before it stays listed and consistent.
 */
export async function makeStreaming(storage: Storage, assetId: string, options: StreamingOptions = {}): Promise<StreamingResult> {
  const { jobs, signal, lane } = options;
  return withLocalFile(storage, assetId, 'video.mp4', async (source) => {
    const info: ProbeResult = await probe(source, jobs ? { jobs } : {});
    if (!info.hasVideo || !info.width || !info.height) throw new Error('the stored video has no moving picture to stream');
    const durationSeconds = info.durationSeconds;
    const ladder = chooseLadder({ width: info.width, height: info.height, frameRate: info.frameRate, hasAudio: info.hasAudio });
    const entries = new Map<number, MasterEntry>();
    for (const r of ladder) {
      const name = renditionName(r.label);
      if (!(await storage.stat(assetId, `${name}.mp4`)) || !(await storage.stat(assetId, `${name}.m3u8`))) continue;
      const text = (await readStored(storage, assetId, `${name}.m3u8`)).toString('utf8');
      entries.set(r.label, masterEntry(r, text, await initOf((range) => readStored(storage, assetId, `${name}.mp4`, range), text)));
    }
    let storyboard = (await storage.stat(assetId, STORYBOARD_JPG)) !== undefined && (await storage.stat(assetId, STORYBOARD_VTT)) !== undefined;
    const missing = ladder.filter((r) => !entries.has(r.label));
    const work = await makeWorkDir(options.workParent ?? os.tmpdir(), 'tao-hls-');
    const heights = () => [...entries.keys()].sort((a, b) => a - b);
    const publish = async () => {
      const master = path.join(work, HLS_MASTER);
      await fs.promises.writeFile(master, masterPlaylist([...entries.values()]));
      await writeLocalFile(storage, assetId, HLS_MASTER, master);
      await options.onHeights?.(heights());
    };
    const steps = missing.length + (storyboard ? 0 : 1);
    let done = 0;
    const progress = (fraction: number) => options.onProgress?.(Math.min(1, (done + fraction) / Math.max(1, steps)));
    const made: number[] = [];
    let storyboardMade = false;
    try {
      // a run stopped after storing a rendition but before publishing it
      if (entries.size > 0) {
        const stored = (await storage.stat(assetId, HLS_MASTER)) ? (await readStored(storage, assetId, HLS_MASTER)).toString('utf8') : '';
        if (stored !== masterPlaylist([...entries.values()])) await publish();
      }
      const storyboardFrom = async (video: string) => {
        if (storyboard) return;
        signal?.throwIfAborted();
        const plan = storyboardPlan(durationSeconds, info.width!, info.height!);
        const { jpg, vtt } = await makeStoryboard(video, work, plan, { durationSeconds, jobs, lane, signal });
        await writeLocalFile(storage, assetId, STORYBOARD_JPG, jpg);
        await writeLocalFile(storage, assetId, STORYBOARD_VTT, vtt);
        storyboard = true;
        storyboardMade = true;
        await options.onStoryboard?.();
        done += 1;
        progress(0);
      };
      for (const r of missing) {
        signal?.throwIfAborted();
        const name = renditionName(r.label);
        const started = Date.now();
        const { playlist, media } = await encodeRendition(source, work, r, { durationSeconds, jobs, lane, signal, onProgress: progress });
        const text = await fs.promises.readFile(playlist, 'utf8');
        const handle = await fs.promises.open(media, 'r');
        let init: Buffer;
        try {
          init = await initOf(async ({ start, end }) => {
            const buffer = Buffer.alloc(end - start + 1);
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
            return buffer.subarray(0, bytesRead);
          }, text);
        } finally {
          await handle.close();
        }
        const entry = masterEntry(r, text, init);
        // the media file before its playlist, the playlist before the master that names it
        await writeLocalFile(storage, assetId, `${name}.mp4`, media);
        await writeLocalFile(storage, assetId, `${name}.m3u8`, playlist);
        entries.set(r.label, entry);
        await publish();
        made.push(r.label);
        done += 1;
        options.log?.info({ assetId, rendition: name, seconds: (Date.now() - started) / 1000, bandwidth: entry.bandwidth }, 'streaming: rendition ready');
        // the storyboard from the lowest rendition: small to decode, and ready before the larger ones
        if (r === ladder[0]) await storyboardFrom(media);
        await fs.promises.rm(media, { force: true });
      }
      await storyboardFrom(source);
    } finally {
      await fs.promises.rm(work, { recursive: true, force: true });
    }
    return { heights: heights(), made, storyboard, storyboardMade };
  }, options.workParent);
}
