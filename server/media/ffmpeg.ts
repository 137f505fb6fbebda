import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * ffmpeg and ffprobe: where they are, and the few jobs the library needs of them (probe an upload,
 * make its thumbnail and animated preview, make demo videos). Programs are run directly (execFile,
 * no shell), in the job slots of the server that asks (MediaJobs), at a lower CPU priority than its requests.
 */

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** The binary an installer package ships (`{ path }`), if it is installed and executable here. */
function fromPackage(name: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): string | undefined {
  try {
    const found = (createRequire(import.meta.url)(name) as { path?: unknown }).path;
    return typeof found === 'string' && executable(found) ? found : undefined;
  } catch {
    return undefined; // not installed, or no binary for this platform (the packages throw a string)
  }
}

/**
 * ffmpeg and ffprobe: the system's (on PATH) when present, else the binaries of the
 * @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe packages (a 2018 build). Throws when one
 * is missing. Looked up at every job: a few file checks, nothing beside an ffmpeg run.
 */
export function mediaTools(): MediaTools {
  const ffmpeg = onPath('ffmpeg') ?? fromPackage('@ffmpeg-installer/ffmpeg');
  const ffprobe = onPath('ffprobe') ?? fromPackage('@ffprobe-installer/ffprobe');
  if (!ffmpeg || !ffprobe) {
    throw new Error(
      `${!ffmpeg ? 'ffmpeg' : 'ffprobe'} was not found: install ffmpeg (e.g. apt-get install ffmpeg) or the npm packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe`,
    );
  }
  return { ffmpeg, ffprobe };
}

/** The first line of `ffmpeg -version` of the ffmpeg that runs (e.g. `ffmpeg version 5.1.6-0+deb12u1 …`). */
export function mediaToolsVersion(tools: MediaTools = mediaTools()): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(tools.ffmpeg, ['-hide_banner', '-version'], { timeout: 10_000, windowsHide: true }, (error, stdout) => {
      if (error) reject(error);
      else resolve(stdout.split('\n')[0]!.trim());
    });
  });
}

// ---- bounded concurrency --------------------------------------------------------------------

export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/** Runs at most `concurrency` tasks at once; the others wait their turn, first come first served. */
export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < concurrency) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over on release
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/**
 * The media job slots of one server (buildApp makes them, AppContext.media): one or two short jobs
 * at a time (probes, thumbnails, previews, pictures; two on a machine with two or more cores), and
 * rewrites of whole videos (makeBrowserPlayable) one at a time in a lane of their own, since a
 * rewrite can take most of an hour and the short jobs must not wait behind it.
 */
export interface MediaJobs {
  readonly jobs: Limiter;
  readonly rewrites: Limiter;
  /** HLS renditions and storyboards (hls.ts), one at a time: a new upload's rewrite never waits behind a ladder */
  readonly streams: Limiter;
}

export type MediaLane = 'jobs' | 'rewrites' | 'streams';

export function createMediaJobs(concurrency = Math.max(1, Math.min(2, os.availableParallelism()))): MediaJobs {
  return { jobs: createLimiter(concurrency), rewrites: createLimiter(1), streams: createLimiter(1) };
}

/** The slots of a lane; without a server's slots (a test, a one-off command) the job runs at once. */
export function slotsOf(jobs: MediaJobs | undefined, lane: MediaLane = 'jobs'): Limiter {
  return jobs ? jobs[lane] : (task) => task();
}

/** The niceness media programs run at: below the server's requests, so those come first. */
const JOB_PRIORITY = 10;

export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'MediaToolError';
  }
}

export interface RunOptions {
  /** killed after this long (default 5 minutes) */
  timeoutMs?: number;
  /** each piece of standard output as it comes (it is also collected for the answer) */
  onOutput?: (text: string) => void;
  /** kills the program (a server stopping) */
  signal?: AbortSignal;
  /** the server's slots it waits for (none: it runs at once) */
  jobs?: MediaJobs;
  /** which of them (default the short jobs') */
  lane?: MediaLane;
}

/** Runs a program with arguments (no shell) in a media-job slot; answers its standard output. */
function run(program: string, args: string[], options: RunOptions = {}): Promise<string> {
  return slotsOf(options.jobs, options.lane)(
    () =>
      new Promise<string>((resolve, reject) => {
        const child = execFile(
          program,
          args,
          {
            timeout: options.timeoutMs ?? 5 * 60_000,
            killSignal: 'SIGKILL',
            maxBuffer: 16 * 1024 * 1024,
            windowsHide: true,
            ...(options.signal ? { signal: options.signal } : {}),
          },
          (error, stdout, stderr) => {
            if (!error) return resolve(stdout);
            const detail = stderr
              .split('\n')
              .filter((line) => line.trim() !== '' && !line.startsWith('Fontconfig'))
              .slice(-5)
              .join('\n');
            const why = options.signal?.aborted
              ? 'was stopped (the server is stopping)'
              : error.killed
                ? 'was stopped (time limit)'
                : `failed (${error.code ?? error.signal ?? 'error'})`;
            reject(new MediaToolError(`${path.basename(program)} ${why}${detail ? `: ${detail}` : ''}`, stderr));
          },
        );
        if (options.onOutput) {
          const onOutput = options.onOutput;
          child.stdout?.setEncoding('utf8');
          child.stdout?.on('data', (text: string) => onOutput(text));
        }
        if (child.pid !== undefined) {
          try {
            os.setPriority(child.pid, JOB_PRIORITY);
          } catch {
            // not permitted here: run at normal priority
          }
        }
      }),
  );
}

const ffmpeg = (args: string[], options?: RunOptions) => run(mediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], options);

/** ffmpeg with `args` (after `-hide_banner -nostdin -loglevel error -y`), in a media-job slot at the job priority; answers its standard output. */
export const runFfmpeg = ffmpeg;

// ---- probe -----------------------------------------------------------------------------------

export interface ProbeResult {
  /** seconds (0 when unknown) */
  durationSeconds: number;
  /** frames a second of the moving picture (its average; 0 when unknown) */
  frameRate?: number;
  /** a moving picture: a video stream that is not a still image or cover art */
  hasVideo: boolean;
  hasAudio: boolean;
  /** the picture as shown: a stream with 90° or 270° rotation metadata has its coded sides swapped */
  width?: number;
  height?: number;
  /** the rotation metadata (degrees, 0 when none) ffmpeg applies when it decodes */
  rotation?: number;
  videoCodec?: string;
  /** e.g. yuv420p (what browsers play) */
  pixelFormat?: string;
  /** the first sound stream's codec, e.g. aac */
  audioCodec?: string;
  /** the file's stream numbers of the moving picture and of the first sound */
  videoStream?: number;
  audioStream?: number;
  /** ffprobe's format name, e.g. `mov,mp4,m4a,3gp,3g2,mj2` */
  formatName: string;
  /** an ISO/QuickTime file's brand (`isom`, `mp42`, `qt  ` for QuickTime) */
  majorBrand?: string;
}

/** A file ffprobe cannot read as media at all. */
export class NotMediaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotMediaError';
  }
}

interface FfprobeStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  duration?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

/** `30000/1001` → 29.97; 0 when unknown. */
function rate(value: string | undefined): number {
  const [num, den] = (value ?? '').split('/').map(Number);
  return num && den && Number.isFinite(num / den) ? num / den : 0;
}

/** The rotation metadata of a stream (display matrix or the older `rotate` tag), in degrees 0–359. */
function rotationOf(stream: FfprobeStream | undefined): number {
  const degrees = stream?.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? Number(stream?.tags?.rotate ?? 0);
  return Number.isFinite(degrees) ? (((Math.round(degrees) % 360) + 360) % 360) : 0;
}

/** Still images, and text files ffprobe reads as text-mode "video" (a `.txt` is ANSI art to it). */
const NOT_MOVING_PICTURE_FORMAT = /(?:^|,)(?:image2|[a-z0-9]+_pipe|png|apng|webp|bmp|tiff|tty|bin|xbin|adf|idf)(?:,|$)/;
const TEXT_MODE_CODECS: ReadonlySet<string> = new Set(['ansi', 'bintext', 'xbin', 'idf']);

/** Duration and streams of a media file; NotMediaError when it is not one. */
export async function probe(file: string, options?: RunOptions): Promise<ProbeResult> {
  let output: string;
  try {
    output = await run(mediaTools().ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path.resolve(file)], options);
  } catch (error) {
    if (error instanceof MediaToolError && !/stopped/.test(error.message)) throw new NotMediaError(`not a media file: ${error.message}`);
    throw error;
  }
  const info = JSON.parse(output) as { format?: { duration?: string; format_name?: string; tags?: { major_brand?: string } }; streams?: FfprobeStream[] };
  const streams = info.streams ?? [];
  const formatName = info.format?.format_name ?? '';
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const majorBrand = info.format?.tags?.major_brand;
  const seconds = (value: string | undefined) => (value !== undefined && Number.isFinite(Number(value)) ? Number(value) : 0);
  const durationSeconds = seconds(info.format?.duration) || Math.max(0, ...streams.map((s) => seconds(s.duration)));
  const rotation = rotationOf(video);
  const sideways = rotation === 90 || rotation === 270;
  const width = sideways ? video?.height : video?.width;
  const height = sideways ? video?.width : video?.height;
  return {
    durationSeconds,
    frameRate: rate(video?.avg_frame_rate) || rate(video?.r_frame_rate),
    hasVideo:
      video !== undefined && durationSeconds > 0 && !NOT_MOVING_PICTURE_FORMAT.test(formatName) && !TEXT_MODE_CODECS.has(video.codec_name ?? ''),
    hasAudio: audio !== undefined,
    ...(width ? { width } : {}),
    ...(height ? { height } : {}),
    ...(video ? { rotation } : {}),
    ...(video?.codec_name ? { videoCodec: video.codec_name } : {}),
    ...(video?.pix_fmt ? { pixelFormat: video.pix_fmt } : {}),
    ...(audio?.codec_name ? { audioCodec: audio.codec_name } : {}),
    ...(video?.index !== undefined ? { videoStream: video.index } : {}),
    ...(audio?.index !== undefined ? { audioStream: audio.index } : {}),
    formatName,
    ...(majorBrand ? { majorBrand } : {}),
  };
}

// ---- thumbnails and previews ------------------------------------------------------------------

const seconds = (s: number) => s.toFixed(3);

async function nonEmpty(file: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(file)).size > 0;
  } catch {
    return false;
  }
}

/** A JPEG thumbnail `width` pixels wide (default 640) of the frame at ~10 % of the video. */
export async function makeThumbnail(video: string, out: string, options: { width?: number; durationSeconds?: number; jobs?: MediaJobs } = {}): Promise<void> {
  const width = options.width ?? 640;
  const jobs = options.jobs ? { jobs: options.jobs } : {};
  const duration = options.durationSeconds ?? (await probe(video, jobs)).durationSeconds;
  const frame = (at: number) =>
    ffmpeg(['-ss', seconds(at), '-i', path.resolve(video), '-map', '0:v:0', '-frames:v', '1', '-update', '1', '-vf', `scale=${width}:-2`, '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', path.resolve(out)], jobs);
  await fs.promises.rm(out, { force: true });
  await frame(duration * 0.1);
  if (!(await nonEmpty(out))) await frame(0); // a seek past the last frame writes nothing
  if (!(await nonEmpty(out))) throw new MediaToolError('ffmpeg made no thumbnail: the video has no frame', '');
}

/**
 * A short, muted animated preview (mp4, H.264 yuv420p, +faststart), `width` pixels wide (default
 * 320), 12 frames a second: four 1.5-second moments of a video of 12 seconds or more, else its first
 * seconds from ~10 %, at most 4 seconds.
 */
export async function makePreview(video: string, out: string, options: { width?: number; durationSeconds?: number; jobs?: MediaJobs } = {}): Promise<void> {
  const width = options.width ?? 320;
  const jobs = options.jobs ? { jobs: options.jobs } : {};
  const duration = options.durationSeconds ?? (await probe(video, jobs)).durationSeconds;
  const clips: { start: number; length: number }[] =
    duration >= 12
      ? [0.15, 0.35, 0.55, 0.75].map((at) => ({ start: duration * at, length: 1.5 }))
      : [{ start: duration * 0.1, length: Math.max(0.5, Math.min(4, duration * 0.9)) }];
  const inputs = clips.flatMap((c) => ['-ss', seconds(c.start), '-t', seconds(c.length), '-i', path.resolve(video)]);
  const scaled = clips.map((_, i) => `[${i}:v:0]scale=${width}:-2,setsar=1,fps=12,setpts=PTS-STARTPTS[v${i}]`);
  const joined = `${clips.map((_, i) => `[v${i}]`).join('')}concat=n=${clips.length}:v=1:a=0,format=yuv420p[out]`;
  await ffmpeg([
    ...inputs,
    '-filter_complex',
    [...scaled, joined].join(';'),
    '-map',
    '[out]',
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '30',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    path.resolve(out),
  ], jobs);
}

// ---- a file every browser plays -------------------------------------------------------------

/** What a conversion does with each stream; `undefined` from playbackPlan: the file plays as it is. */
export interface PlaybackPlan {
  video: 'copy' | 'encode';
  audio: 'copy' | 'encode' | 'none';
  /** the input's stream numbers (ffmpeg's `-map 0:<n>`) */
  videoStream: number;
  audioStream?: number;
  /** why the file is rewritten, for the log */
  reasons: string[];
}

/** Sound every browser plays inside MP4. */
const BROWSER_AUDIO: ReadonlySet<string> = new Set(['aac', 'mp3']);
/** Pixel formats of H.264 every browser decodes (8-bit 4:2:0). */
const BROWSER_PIXEL_FORMATS: ReadonlySet<string> = new Set(['yuv420p', 'yuvj420p']);

/**
 * Whether the top-level `moov` box (the index) comes before `mdat` (the media), so a browser can
 * start playing before it has the whole file. False for a file that is not ISO/QuickTime boxes.
 */
export async function indexFirst(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(16);
    for (let offset = 0; offset + 8 <= size; ) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      if (bytesRead < 8) return false;
      const type = header.toString('latin1', 4, 8);
      if (type === 'moov') return true;
      if (type === 'mdat') return false;
      let boxSize = header.readUInt32BE(0);
      if (boxSize === 1) {
        if (bytesRead < 16) return false;
        boxSize = Number(header.readBigUInt64BE(8));
      }
      if (boxSize < 8) return false; // 0 (to the end of the file) or broken
      offset += boxSize;
    }
    return false;
  } finally {
    await handle.close();
  }
}

/**
 * Whether the top-level ISO/QuickTime boxes of the file end exactly at its end: false when the last
 * one runs past it (a file cut short: ffprobe reads its index and it plays, until the bytes stop);
 * undefined for a file that is not such boxes.
 */
export async function boxesComplete(file: string): Promise<boolean | undefined> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    while (offset + 8 <= size) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      let boxSize = header.readUInt32BE(0);
      if (!/^[\x20-\x7e]{4}$/.test(header.toString('latin1', 4, 8))) return offset === 0 ? undefined : false;
      if (boxSize === 0) return true; // to the end of the file
      if (boxSize === 1) {
        if (bytesRead < 16) return false;
        boxSize = Number(header.readBigUInt64BE(8));
      }
      if (boxSize < 8) return offset === 0 ? undefined : false;
      offset += boxSize;
    }
    return offset === size;
  } finally {
    await handle.close();
  }
}

/**
 * What must change for the file to play in every browser, progressively: H.264 in 8-bit 4:2:0,
 * AAC or MP3 sound (or none), in an MP4 file (not QuickTime, WebM or Matroska) whose index comes
 * first. `undefined` when it already is such a file: it is then kept byte for byte.
 */
export function playbackPlan(info: ProbeResult, indexIsFirst: boolean): PlaybackPlan | undefined {
  const reasons: string[] = [];
  const videoOk = info.videoCodec === 'h264' && BROWSER_PIXEL_FORMATS.has(info.pixelFormat ?? '');
  if (!videoOk) reasons.push(`video ${info.videoCodec ?? 'unknown'}${info.pixelFormat ? ` ${info.pixelFormat}` : ''}`);
  const audio = !info.hasAudio ? 'none' : BROWSER_AUDIO.has(info.audioCodec ?? '') ? 'copy' : 'encode';
  if (audio === 'encode') reasons.push(`sound ${info.audioCodec ?? 'unknown'}`);
  const isoFile = /(?:^|,)mp4(?:,|$)/.test(info.formatName);
  if (!isoFile) reasons.push(`container ${info.formatName}`);
  else if (info.majorBrand?.trim() === 'qt') reasons.push('QuickTime file');
  else if (!indexIsFirst) reasons.push('index after the media');
  if (reasons.length === 0) return undefined;
  return {
    video: videoOk ? 'copy' : 'encode',
    audio,
    videoStream: info.videoStream ?? 0,
    ...(audio !== 'none' && info.audioStream !== undefined ? { audioStream: info.audioStream } : {}),
    reasons,
  };
}

/** The longest side of a video that has to be encoded again (a larger one is scaled down to it). */
export const ENCODED_MAX_SIDE = 1920;

/**
 * Writes `out`: the video's first picture and sound streams in MP4 with the index first (+faststart),
 * copied where the plan says so, else encoded as H.264 (yuv420p, CRF 23, at most ENCODED_MAX_SIDE
 * pixels on its longest side, even sizes) and AAC. Allowed 10 seconds per second of video, at least 15 minutes.
 */
export async function makeBrowserPlayable(
  video: string,
  out: string,
  plan: PlaybackPlan,
  options: { durationSeconds: number; onProgress?: (fraction: number) => void; signal?: AbortSignal; jobs?: MediaJobs },
): Promise<void> {
  const videoArgs =
    plan.video === 'copy'
      ? ['-c:v', 'copy']
      : [
          '-vf',
          `scale=w='min(iw,${ENCODED_MAX_SIDE})':h='min(ih,${ENCODED_MAX_SIDE})':force_original_aspect_ratio=decrease,scale=w='trunc(iw/2)*2':h='trunc(ih/2)*2',setsar=1`,
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '23',
          '-pix_fmt',
          'yuv420p',
          '-profile:v',
          'high',
        ];
  const audioArgs = plan.audio === 'none' ? ['-an'] : plan.audio === 'copy' ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '160k'];
  await ffmpeg(
    [
      '-i',
      path.resolve(video),
      '-map',
      `0:${plan.videoStream}`,
      ...(plan.audio === 'none' ? [] : ['-map', plan.audioStream !== undefined ? `0:${plan.audioStream}` : '0:a:0']),
      ...videoArgs,
      ...audioArgs,
      '-sn',
      '-dn',
      '-max_muxing_queue_size',
      '4096',
      '-movflags',
      '+faststart',
      ...(options.onProgress ? ['-progress', 'pipe:1', '-nostats'] : []),
      '-f',
      'mp4',
      path.resolve(out),
    ],
    {
      ...(options.jobs ? { jobs: options.jobs } : {}),
      lane: 'rewrites',
      timeoutMs: Math.max(15 * 60_000, Math.ceil(options.durationSeconds) * 10_000),
      ...(options.onProgress ? { onOutput: progressReader(options.durationSeconds, options.onProgress) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
}

/**
 * Reads ffmpeg's `-progress` output (`key=value` lines, a block per report ending `progress=…`) and
 * calls `report` with the fraction of the video written so far (0–1, from `out_time`).
 */
export function progressReader(durationSeconds: number, report: (fraction: number) => void): (text: string) => void {
  let pending = '';
  return (text) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const time = /^out_time=(\d+):(\d\d):(\d\d(?:\.\d+)?)\s*$/.exec(line);
      if (time && durationSeconds > 0) {
        const at = Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3]);
        report(Math.min(1, Math.max(0, at / durationSeconds)));
      } else if (/^progress=end\s*$/.test(line)) report(1);
    }
  };
}

// ---- generated test videos ----------------------------------------------------------------------

/** lavfi sources cheap enough to make many short videos quickly. */
export const TEST_PATTERNS = ['testsrc2', 'smptebars', 'testsrc', 'smptehdbars', 'rgbtestsrc', 'pal100bars', 'yuvtestsrc', 'cellauto'] as const;
export type TestPattern = (typeof TEST_PATTERNS)[number];

export interface TestVideoOptions {
  seconds: number;
  pattern: TestPattern;
  /** the sine tone of the sound track */
  toneHz: number;
  /** written over the picture (with a running clock) when a font is available */
  label?: string;
  /** rotates the colours (degrees), so videos of one pattern differ */
  hue?: number;
  /** grain changing every frame (ffmpeg noise strength 1–100): a camera-like bitrate instead of a pattern's few kbit/s */
  noise?: number;
  width?: number;
  height?: number;
  /** the slots it waits for (none: it runs at once) */
  jobs?: MediaJobs;
}

const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/TTF/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  '/usr/share/fonts/liberation-sans/LiberationSans-Bold.ttf',
  '/Library/Fonts/Arial.ttf',
  '/System/Library/Fonts/Supplemental/Arial.ttf',
];

/** A font file for drawtext, whose path needs no escaping in a filter graph. */
function labelFont(): string | undefined {
  return FONT_CANDIDATES.find((f) => /^[\w/.-]+$/.test(f) && fs.existsSync(f));
}

/** Frames a second of test videos: smooth enough for test patterns, and much cheaper to encode than 25. */
export const TEST_FPS = 15;

function source(pattern: TestPattern, width: number, height: number): string {
  if (pattern === 'cellauto') return `cellauto=size=${width / 2}x${height / 2}:rate=${TEST_FPS}:rule=30,scale=${width}:${height}:flags=neighbor`;
  return `${pattern}=size=${width}x${height}:rate=${TEST_FPS}`;
}

/**
 * A short test video: a lavfi pattern with a sine tone, H.264 (yuv420p) + AAC in mp4 with
 * +faststart, 640x360 by default, encoded with the ultrafast preset.
 */
export async function generateTestVideo(out: string, options: TestVideoOptions): Promise<void> {
  const width = options.width ?? 640;
  const height = options.height ?? 360;
  if (width % 4 !== 0 || height % 4 !== 0) throw new Error('width and height must be multiples of 4');
  if (!(options.seconds > 0 && options.seconds <= 600)) throw new Error('seconds must be from 0 to 600');
  const filters = [source(options.pattern, width, height)];
  if (options.hue) filters.push(`hue=h=${Math.round(options.hue)}`);
  if (options.noise) filters.push(`noise=alls=${Math.round(Math.min(100, Math.max(1, options.noise)))}:allf=t`);
  const font = labelFont();
  let textDir: string | undefined;
  try {
    if (font && options.label) {
      // The texts go through files, so no character of a label needs filter-graph escaping.
      textDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tao-label-'));
      const labelFile = path.join(textDir, 'label.txt');
      const clockFile = path.join(textDir, 'clock.txt');
      await fs.promises.writeFile(labelFile, options.label.replace(/[\r\n]+/g, ' '));
      await fs.promises.writeFile(clockFile, '%{pts:hms}');
      // A bold sans glyph is about 0.62 em wide: long labels get a smaller size so they fit.
      const base = Math.round(height / 12);
      const size = Math.max(10, Math.min(base, Math.floor((width * 0.9) / (0.64 * [...options.label].length))));
      filters.push(
        `drawtext=fontfile=${font}:textfile=${labelFile}:expansion=none:fontsize=${size}:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=${Math.round(size / 3)}:x=(w-tw)/2:y=h-th-${base}`,
        `drawtext=fontfile=${font}:textfile=${clockFile}:fontsize=${Math.round(base * 0.7)}:fontcolor=yellow:box=1:boxcolor=black@0.5:x=w-tw-${Math.round(base / 3)}:y=${Math.round(base / 3)}`,
      );
    }
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      filters.join(','),
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${Math.round(options.toneHz)}:sample_rate=44100`,
      '-t',
      seconds(options.seconds),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '30',
      '-pix_fmt',
      'yuv420p',
      '-g',
      String(TEST_FPS * 2),
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-ac',
      '1',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      path.resolve(out),
    ], options.jobs ? { jobs: options.jobs } : {});
  } finally {
    if (textDir) await fs.promises.rm(textDir, { recursive: true, force: true });
  }
}

/** The bytes of a test video made by generateTestVideo in a temporary directory, removed afterwards. */
export async function testVideoBytes(options: TestVideoOptions): Promise<Buffer> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tao-test-video-'));
  try {
    const file = path.join(dir, 'video.mp4');
    await generateTestVideo(file, options);
    return await fs.promises.readFile(file);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
