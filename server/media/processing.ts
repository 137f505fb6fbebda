import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../storage/storage.ts';
import { writeLocalFile } from '../storage/write-local-file.ts';
import { boxesComplete, indexFirst, makeBrowserPlayable, makePreview, makeThumbnail, NotMediaError, playbackPlan, probe, type MediaJobs, type ProbeResult } from './ffmpeg.ts';
import { storeThumbnail, withLocalFile } from './thumbnails.ts';
import { makeWorkDir } from './work-dirs.ts';

/**
 * Processing of an uploaded video, off the request that brought it: probe (duration, a playable
 * video stream), a rewrite into a file every browser plays when it is not one already (WebM,
 * QuickTime, HEVC, 10-bit, sound other than AAC or MP3, the index at the end), a thumbnail when the
 * asset has none, the animated preview. The programs run as
 * child processes (ffmpeg.ts, at a lower priority and at most two at a time), so the event loop
 * and the requests never wait for them; the queue bounds how many videos are processed at once.
 */

export interface ProcessedVideo {
  durationSeconds: number;
  hasThumbnail: boolean;
  hasPreview: boolean;
  /** why the stored video was rewritten (empty when it was kept as uploaded) */
  converted: string[];
}

/** The file is not a playable video: the upload fails with this message. */
export class InvalidMediaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidMediaError';
  }
}

/**
 * Processes the asset's `video.mp4`. InvalidMediaError when it is not a playable video; a thumbnail
 * or preview ffmpeg cannot make is logged and left out (the video still plays). A video that must be
 * rewritten and cannot be (ffmpeg fails or runs out of time) throws ffmpeg's reason: the upload is
 * `failed` with it, and the file stays as uploaded.
 */
export async function processVideo(
  storage: Storage,
  assetId: string,
  log?: FastifyBaseLogger,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal; workParent?: string; jobs?: MediaJobs } = {},
): Promise<ProcessedVideo> {
  const workParent = options.workParent ?? os.tmpdir();
  return withLocalFile(storage, assetId, 'video.mp4', async (uploaded) => {
    const { jobs } = options;
    const probed = await probeUpload(uploaded, jobs);
    // a file cut short probes and starts playing, then stops: refused, as a file that is not a video
    if (/(?:^|,)mp4(?:,|$)/.test(probed.formatName) && (await boxesComplete(uploaded)) === false) {
      throw new InvalidMediaError('the file is cut short: its last part is missing');
    }
    const work = await makeWorkDir(workParent, 'tao-processing-');
    try {
      const { video, info, reasons } = await rewriteForBrowsers(storage, assetId, uploaded, probed, work, { ...options, ...(log ? { log } : {}) });
      const durationSeconds = info.durationSeconds;
      options.signal?.throwIfAborted();
      /** Makes `file` in the work directory, then `store`s it (by default as it is); false, logged, when either fails. */
      const made = async (
        file: 'thumbnail.jpg' | 'preview.mp4',
        make: (out: string) => Promise<void>,
        store: (out: string) => Promise<unknown> = (out) => writeLocalFile(storage, assetId, file, out),
      ): Promise<boolean> => {
        const out = path.join(work, file);
        try {
          await make(out);
          await store(out);
          return true;
        } catch (error) {
          log?.warn({ err: error, assetId }, `processing: could not make ${file}`);
          return false;
        }
      };
      const hasThumbnail =
        (await storage.stat(assetId, 'thumbnail.jpg')) !== undefined ||
        // stored with its WebP copy
        (await made('thumbnail.jpg', (out) => makeThumbnail(video, out, { durationSeconds, jobs }), (out) => storeThumbnail(storage, assetId, out, log, jobs)));
      options.signal?.throwIfAborted();
      const hasPreview = await made('preview.mp4', (out) => makePreview(video, out, { durationSeconds, jobs }));
      options.signal?.throwIfAborted();
      return { durationSeconds, hasThumbnail, hasPreview, converted: reasons };
    } finally {
      await fs.promises.rm(work, { recursive: true, force: true });
    }
  }, workParent);
}

/**
 * Makes the asset's stored `video.mp4` (here at `file`, probed as `info`) one every browser plays,
 * when it is not already: the rewrite is made in `work` and replaces `video.mp4` only once complete
 * and probed, so a process stopped in the middle leaves the file as it was. Answers the file to go on
 * with (the rewrite, or `file`), its probe, and why it was rewritten (empty: kept byte for byte).
 */
export async function rewriteForBrowsers(
  storage: Storage,
  assetId: string,
  file: string,
  info: ProbeResult,
  work: string,
  options: { log?: FastifyBaseLogger; onProgress?: (fraction: number) => void; signal?: AbortSignal; jobs?: MediaJobs } = {},
): Promise<{ video: string; info: ProbeResult; reasons: string[] }> {
  const plan = playbackPlan(info, await indexFirst(file));
  if (!plan) return { video: file, info, reasons: [] };
  const rewritten = path.join(work, 'video.mp4');
  options.log?.info({ assetId, reasons: plan.reasons, video: plan.video, audio: plan.audio }, 'processing: rewriting the video so every browser plays it');
  await makeBrowserPlayable(file, rewritten, plan, {
    durationSeconds: info.durationSeconds,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.jobs ? { jobs: options.jobs } : {}),
  });
  const rewrittenInfo = await probeUpload(rewritten, options.jobs);
  await writeLocalFile(storage, assetId, 'video.mp4', rewritten);
  return { video: rewritten, info: rewrittenInfo, reasons: plan.reasons };
}

/** The probe of a video file; InvalidMediaError when it is not media or has no moving picture. */
export async function probeUpload(file: string, jobs?: MediaJobs): Promise<ProbeResult> {
  let info;
  try {
    info = await probe(file, jobs ? { jobs } : {});
  } catch (error) {
    if (error instanceof NotMediaError) throw new InvalidMediaError(`not a video file (${error.message.replace(/^not a media file: /, '')})`);
    throw error;
  }
  if (!info.hasVideo) throw new InvalidMediaError('the file has no playable video stream');
  return info;
}

export interface ProcessingQueue {
  /** Queues the asset (once: an asset queued or running is not queued again). */
  enqueue(assetId: string): void;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  /** Takes no more jobs and waits (at most `waitMs`) for the running ones. */
  stop(waitMs?: number): Promise<void>;
}

/** Runs `job` for queued assets, at most `concurrency` at once, first queued first. A job's failure is logged. */
export function createProcessingQueue(options: { concurrency: number; job: (assetId: string) => Promise<void>; log: FastifyBaseLogger }): ProcessingQueue {
  const queued: string[] = [];
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  let idleWaiters: (() => void)[] = [];

  const next = (): void => {
    while (!stopped && running.size < options.concurrency && queued.length > 0) {
      const assetId = queued.shift()!;
      const done = options
        .job(assetId)
        .catch((error: unknown) => options.log.error({ err: error, assetId }, 'processing: job failed'))
        .finally(() => {
          running.delete(assetId);
          next();
        });
      running.set(assetId, done);
    }
    if (running.size === 0 && (queued.length === 0 || stopped)) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  return {
    enqueue(assetId) {
      if (stopped || running.has(assetId) || queued.includes(assetId)) return;
      queued.push(assetId);
      next();
    },
    idle() {
      if (running.size === 0 && queued.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async stop(waitMs = 10_000) {
      stopped = true;
      queued.length = 0;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
        timer.unref();
      });
      await Promise.race([Promise.all(running.values()), timeout]);
      clearTimeout(timer);
    },
  };
}
