import crypto from 'node:crypto';
import os from 'node:os';
import { finished, PassThrough, Readable, type Transform } from 'node:stream';
import type { components } from '../../../contract/openapi.gen.ts';
import type { AppContext } from '../../context.ts';
import { now } from '../../db/database.ts';
import { makeStreaming } from '../../media/hls.ts';
import { createProcessingQueue, InvalidMediaError, processVideo, type ProcessingQueue } from '../../media/processing.ts';
import { signedLocation } from '../../media/signed-urls.ts';
import { PENDING_THUMBNAIL } from '../../media/thumbnails.ts';
import { removeAbandonedWorkDirs, workParentOf } from '../../media/work-dirs.ts';
import type { BodyOf } from '../../openapi/handlers.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import { PartialOffsetError, StorageLimitError, type Storage } from '../../storage/storage.ts';
import { acceptsType, ACCEPTED_TYPES, sniffingStream, UnrecognisedContentError, type UploadKind } from './content-sniffing.ts';
import type { Executor } from './uploads.repository.ts';
import {
  claimProcessing,
  claimStreaming,
  finishStreaming,
  listStreamable,
  renewStreamingClaim,
  deleteUpload,
  finishClaim,
  findUpload,
  findVideoOfAsset,
  insertUpload,
  knownAssets,
  listAbandoned,
  listClaimable,
  markThumbnailPending,
  MAX_PROCESSING_ATTEMPTS,
  recordProcessingProgress,
  releaseClaims,
  renewClaim,
  updateUpload,
  type UploadChanges,
  type UploadRow,
} from './uploads.repository.ts';

// What the videos module uses of an upload: find its asset's session, adopt its thumbnail, drop the session with the video.
export { deleteUpload, findUpload, findUploadForUpdate, markThumbnailAdopted, type UploadRow } from './uploads.repository.ts';

/** What the HLS stage learnt: the heights the master lists now (ascending), a storyboard stored. */
export interface StreamingChanges {
  hlsHeights?: readonly number[];
  hasStoryboard?: boolean;
}

/**
 * Records the asset's HLS heights and storyboard on its upload row, and (`alsoOn`, the videos
 * module's recordVideoStreaming as wired by routes.ts) on the video made of it, in one
 * transaction. False when the upload row is gone (discarded, or its video deleted).
 */
export async function recordUploadStreaming(db: Executor, assetId: string, changes: StreamingChanges, alsoOn?: (trx: Executor) => Promise<void>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const held = await updateUpload(trx, assetId, {
      ...(changes.hlsHeights !== undefined ? { hls_heights: changes.hlsHeights.length > 0 ? changes.hlsHeights.join(',') : null } : {}),
      ...(changes.hasStoryboard !== undefined ? { has_storyboard: changes.hasStoryboard ? 1 : 0 } : {}),
      updated_at: now(),
    });
    if (held) await alsoOn?.(trx);
    return held;
  });
}

type UploadSession = components['schemas']['UploadSession'];
type UploadState = components['schemas']['UploadThumbnailSession'];

/** How often at most the progress of a video's rewrite is written to the database. */
export const PROGRESS_EVERY_MS = 1000;
/** The largest thumbnail image a location takes. */
export const MAX_THUMBNAIL_BYTES = 20 * 1024 * 1024;
/** An upload no video was made from is removed this long after its locations expired; partial files this long after their last byte. */
export const ABANDONED_AFTER_MS = 24 * 3600 * 1000;
/** How often abandoned uploads are looked for (also once at start). */
export const SWEEP_EVERY_MS = 3600 * 1000;
/** How often an instance with room in its queue looks for videos nobody is processing (another instance's, or one that died). */
export const PROCESSING_POLL_MS = 5_000;
/** The stored name of an uploaded video (the media location serves it). */
const VIDEO_FILE = 'video.mp4';

/** The part of the video a request carries (`bytes first-last/total`), or a question about the offset (`bytes *\/total`). */
export type ContentRange = { kind: 'part'; first: number; last: number; total: number } | { kind: 'query'; total: number };

export interface IncomingFile {
  assetId: string;
  /** the request body as it arrives; undefined when none was sent */
  body: Readable | undefined;
  contentType: string | undefined;
  contentLength: number | undefined;
  range?: ContentRange | undefined;
  /** ends this transfer: a newer request for the same file takes over */
  cancel: () => void;
}

/** A video request's outcome: complete (204) or not yet (202); `offset` is the bytes received. */
export interface Received {
  complete: boolean;
  offset: number;
}

const COMPLETE: ReadonlySet<string> = new Set(['processing', 'ready', 'failed']);
const isComplete = (row: UploadRow) => COMPLETE.has(row.video_state);

/** The body broke off (the client went away, or a newer request for the file took over). */
function brokeOff(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException | undefined;
  return e?.message === 'aborted' || ['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE'].includes(e?.code ?? '');
}

/**
 * The body as a stream of its own (through `into`): a refusal by the checks or by storage ends this
 * stream, not the request, so the problem can still be answered; the request breaking off ends it too.
 */
function detached(body: Readable, into: Transform = new PassThrough()): Readable {
  // a refusal may come before storage reads the stream; storage finds it in the stream's errored state
  into.on('error', () => {});
  body.pipe(into);
  finished(body, (error) => {
    if (error) into.destroy(error);
  });
  return into;
}

const unsupported = (kind: UploadKind, detail?: string) =>
  new HttpProblem(415, 'unsupported-media-type', detail ?? `this location takes ${ACCEPTED_TYPES[kind].join(', ')}`);

export interface ProcessingOptions {
  /** names this server process in the leases it holds (default: host, process id and a random part) */
  instanceId?: string;
  leaseMs?: number;
  pollMs?: number;
  /** make HLS renditions and the storyboard once a video is ready (default true) */
  streaming?: boolean;
  /** records the HLS stage's progress on the video made of the asset (routes.ts: the videos module's recordVideoStreaming) */
  recordOnVideo?: (db: Executor, assetId: string, changes: StreamingChanges) => Promise<void>;
}

/**
 * Upload sessions: signed locations, the files arriving at them (a video resumably, in parts; the
 * thumbnail whole), and the processing of complete videos. One per server process; several
 * processes on one database share the processing through leases (claimProcessing): each video is
 * processed by one of them, and by another when its lease runs out.
 */
export function createUploadsService(ctx: AppContext, storage: Storage, options: ProcessingOptions = {}) {
  const { db, config, log } = ctx;
  const instanceId = (options.instanceId ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`).slice(0, 100);
  // how long a claim on a video's processing lasts unless renewed (renewed every third of it while the job runs)
  const leaseMs = options.leaseMs ?? config.processingLeaseSeconds * 1000;
  const pollMs = options.pollMs ?? PROCESSING_POLL_MS;
  const maxVideo = config.maxUploadBytes;
  /** The transfer in progress of each asset's video (`<asset>`): a newer request ends it and waits for it. */
  const transfers = new Map<string, { cancel: () => void; done: Promise<void> }>();
  const queue: ProcessingQueue = createProcessingQueue({ concurrency: config.processingConcurrency, job: processUpload, log });
  /** The HLS stage of ready videos, one at a time, after their processing job (docs/decisions/0108-hls-stage-after-ready.md). */
  const streamingQueue: ProcessingQueue = createProcessingQueue({ concurrency: 1, job: streamUpload, log });
  /** Aborted when the instance stops: the media programs of the jobs still running are killed. */
  const stopping = new AbortController();
  /** Aborted as soon as the instance starts stopping: the HLS stage is not waited for. */
  const stoppingStreams = new AbortController();
  /** The processing jobs running here: stopped when their upload is discarded or their lease is lost. */
  const jobs = new Map<string, { controller: AbortController; done: Promise<void> }>();

  const location = (assetId: string, file: UploadKind, expires: number) => ({
    uploadUrl: signedLocation(ctx.secrets.urlKey, 'PUT', `/api/uploads/${assetId}/${file}`, expires),
  });
  const expiry = () => Math.floor(Date.now() / 1000) + config.uploadUrlTtlSeconds;

  function checkAnnounced(kind: UploadKind, info: { contentType: string; size: number } | undefined): void {
    if (!info) return;
    if (!acceptsType(kind, info.contentType)) throw unsupported(kind);
    const max = kind === 'video' ? maxVideo : MAX_THUMBNAIL_BYTES;
    if (info.size > max) throw new HttpProblem(413, 'payload-too-large', `the ${kind} may have at most ${max} bytes`);
  }

  async function createUpload(userId: number, body: BodyOf<'createUpload'>): Promise<UploadSession> {
    checkAnnounced('video', body?.video);
    checkAnnounced('thumbnail', body?.thumbnail);
    const assetId = crypto.randomBytes(12).toString('hex');
    const expires = expiry();
    const at = now();
    await insertUpload(db.kysely, {
      asset_id: assetId,
      created_by: userId,
      created_at: at,
      expires_at: new Date(expires * 1000).toISOString(),
      video_content_type: body?.video?.contentType ?? null,
      video_size: body?.video?.size ?? null,
      updated_at: at,
    });
    return { assetId, video: location(assetId, 'video', expires), thumbnail: location(assetId, 'thumbnail', expires) };
  }

  /** Bytes of the video stored: the complete file's size, else the partial file's. */
  async function received(row: UploadRow): Promise<number> {
    // The size recorded when it arrived: processing may have rewritten the stored file since.
    if (isComplete(row)) return row.video_size !== null ? Number(row.video_size) : ((await storage.stat(row.asset_id, VIDEO_FILE))?.size ?? 0);
    const held = (await storage.partialSize(row.asset_id, VIDEO_FILE)) ?? 0;
    // A server killed between the commit and the state change holds the whole file, committed
    // (arrivedWhole's 'committed'; the offset query completes it): every byte is there, not none.
    if (held === 0 && row.video_size !== null && (await arrivedWhole(row, 0, Number(row.video_size))) === 'committed') return Number(row.video_size);
    return held;
  }

  async function getUpload(assetId: string): Promise<UploadState> {
    const expires = expiry();
    const row = await findUpload(db.kysely, assetId);
    if (!row) {
      // an asset of a video that never had an upload session (the demo library)
      const video = await findVideoOfAsset(db.kysely, assetId);
      if (!video) throw new HttpProblem(404, 'resource-not-found', 'no such asset');
      const size = (await storage.stat(assetId, VIDEO_FILE))?.size ?? 0;
      return { assetId, thumbnail: location(assetId, 'thumbnail', expires), estado: 'ready', recibido: size, duracion: video.duracion === null ? null : Number(video.duracion), procesado: null, error: null };
    }
    // fresh locations keep the session from being swept as abandoned
    const expiresAt = new Date(expires * 1000).toISOString();
    if (row.expires_at < expiresAt) await updateUpload(db.kysely, assetId, { expires_at: expiresAt });
    return {
      assetId,
      thumbnail: location(assetId, 'thumbnail', expires),
      ...(isComplete(row) ? {} : { video: location(assetId, 'video', expires) }),
      estado: row.video_state,
      recibido: await received(row),
      duracion: row.duracion === null ? null : Number(row.duracion),
      procesado: row.video_state === 'processing' ? row.processing_progress : null,
      error: row.error,
    };
  }

  /** Runs `work` as the asset's one video transfer: a transfer still in progress (a client that went away unnoticed) is ended first. */
  async function asTheTransfer<T>(assetId: string, cancel: () => void, work: () => Promise<T>): Promise<T> {
    let finish!: () => void;
    const mine = { cancel, done: new Promise<void>((resolve) => (finish = resolve)) };
    const previous = transfers.get(assetId);
    transfers.set(assetId, mine);
    try {
      if (previous) {
        previous.cancel();
        await previous.done;
      }
      return await work();
    } finally {
      if (transfers.get(assetId) === mine) transfers.delete(assetId);
      finish();
    }
  }

  async function receiveVideo(file: IncomingFile): Promise<Received> {
    const { assetId, range } = file;
    return asTheTransfer(assetId, file.cancel, async () => {
      const row = await findUpload(db.kysely, assetId);
      if (!row) throw new HttpProblem(404, 'resource-not-found', 'no such upload');
      if (isComplete(row)) {
        const size = await received(row);
        if (range?.kind === 'query') return { complete: true, offset: size };
        throw new HttpProblem(409, 'conflict', 'the video has already been received completely', undefined, { 'Upload-Offset': String(size) });
      }
      const total = range?.total ?? file.contentLength;
      if (total !== undefined && total > maxVideo) throw new HttpProblem(413, 'payload-too-large', `the video may have at most ${maxVideo} bytes`);
      if (range?.kind === 'query') {
        const held = (await storage.partialSize(assetId, VIDEO_FILE)) ?? 0;
        const whole = await arrivedWhole(row, held, range.total);
        if (whole) return completeVideo(assetId, range.total, whole === 'partial');
        return { complete: false, offset: held };
      }

      if (!acceptsType('video', file.contentType)) throw unsupported('video');
      if (range) checkPart(range, file.contentLength);
      const offset = range ? range.first : 0;
      if (range) {
        const held = (await storage.partialSize(assetId, VIDEO_FILE)) ?? 0;
        if (held !== offset) throw offsetMismatch(held);
        if (held > 0 && row.video_size !== null && Number(row.video_size) !== range.total) {
          throw new HttpProblem(400, 'validation-error', `the video being received has ${row.video_size} bytes, not ${range.total}`);
        }
      } else {
        await storage.discardPartial(assetId, VIDEO_FILE); // a whole file starts over
      }
      if (offset === 0) {
        await updateUpload(db.kysely, assetId, { video_state: 'receiving', video_content_type: file.contentType ?? null, video_size: total ?? null, updated_at: now() });
      }
      const body = file.body ?? emptyBody();
      let size: number;
      try {
        const source = detached(body, offset === 0 ? sniffingStream('video') : undefined);
        size = await storage.appendPartial(assetId, VIDEO_FILE, source, { offset, maxBytes: range ? range.last + 1 : maxVideo });
      } catch (error) {
        throw await refusal(assetId, error, range);
      }
      if (total !== undefined && size < total) return { complete: false, offset: size };
      return completeVideo(assetId, size, true);
    });
  }

  /** The video has arrived whole: its file made visible (`commit`: from the partial file), then processed. */
  async function completeVideo(assetId: string, size: number, commit: boolean): Promise<Received> {
    if (commit) await storage.commitPartial(assetId, VIDEO_FILE);
    await updateUpload(db.kysely, assetId, {
      video_state: 'processing',
      video_size: size,
      attempts: 0,
      error: null,
      claimed_by: null,
      claimed_until: null,
      updated_at: now(),
    });
    // With PROCESSING=off a worker's poll finds it (docs/decisions/0111-processing-workers.md).
    if (config.processing) queue.enqueue(assetId);
    return { complete: true, offset: size };
  }

  /**
   * Whether every byte of a video still `receiving` had arrived when the server stopped before taking
   * it as complete (killed between storing the last part and the commit, or between the commit and
   * the state change): the bytes held are the whole file the client announces. The client's offset
   * query then completes it (204) instead of answering an offset with nothing left to send.
   */
  async function arrivedWhole(row: UploadRow, held: number, total: number): Promise<'partial' | 'committed' | false> {
    if (total <= 0 || (row.video_size !== null && Number(row.video_size) !== total)) return false;
    if (held === total) return 'partial';
    if (held === 0 && row.video_size !== null && (await storage.stat(row.asset_id, VIDEO_FILE))?.size === total) return 'committed';
    return false;
  }

  function checkPart(range: Extract<ContentRange, { kind: 'part' }>, contentLength: number | undefined): void {
    if (range.first > range.last || range.last >= range.total) {
      throw new HttpProblem(400, 'validation-error', 'Content-Range: the part must lie within the file', [{ field: 'header.content-range', message: 'is out of range' }]);
    }
    if (contentLength !== undefined && contentLength !== range.last - range.first + 1) {
      throw new HttpProblem(400, 'validation-error', 'the body is not as long as its Content-Range says', [{ field: 'header.content-range', message: 'does not match Content-Length' }]);
    }
  }

  const offsetMismatch = (held: number) =>
    new HttpProblem(409, 'upload-offset-mismatch', `${held} bytes have been received: send the part that starts there`, undefined, { 'Upload-Offset': String(held) });

  /** The problem a failed append answers; a refused file is dropped, the bytes of a transfer that broke off kept. */
  async function refusal(assetId: string, error: unknown, range: ContentRange | undefined): Promise<unknown> {
    const drop = async () => {
      await storage.discardPartial(assetId, VIDEO_FILE);
      await updateUpload(db.kysely, assetId, { video_state: 'pending', updated_at: now() });
    };
    if (error instanceof UnrecognisedContentError) {
      await drop();
      return unsupported('video', error.message);
    }
    if (error instanceof StorageLimitError) {
      if (range?.kind === 'part' && range.last + 1 <= maxVideo) return new HttpProblem(400, 'validation-error', 'the body is longer than its Content-Range says');
      await drop();
      return new HttpProblem(413, 'payload-too-large', `the video may have at most ${maxVideo} bytes`);
    }
    if (error instanceof PartialOffsetError) return offsetMismatch(error.size);
    if (brokeOff(error)) {
      const held = (await storage.partialSize(assetId, VIDEO_FILE)) ?? 0;
      log.info({ assetId, held }, 'uploads: a video transfer broke off; its bytes are kept for resuming');
      return new HttpProblem(400, 'validation-error', `the body broke off; ${held} bytes are kept: ask for the offset and send the rest`);
    }
    return error;
  }

  async function receiveThumbnail(file: IncomingFile): Promise<void> {
    const { assetId } = file;
    if (file.range) throw new HttpProblem(400, 'validation-error', 'a thumbnail is sent whole, without Content-Range');
    const row = await findUpload(db.kysely, assetId);
    if (!row && !(await findVideoOfAsset(db.kysely, assetId))) throw new HttpProblem(404, 'resource-not-found', 'no such asset');
    if (!acceptsType('thumbnail', file.contentType)) throw unsupported('thumbnail');
    const tooLarge = () => new HttpProblem(413, 'payload-too-large', `the thumbnail may have at most ${MAX_THUMBNAIL_BYTES} bytes`);
    if (file.contentLength !== undefined && file.contentLength > MAX_THUMBNAIL_BYTES) throw tooLarge();
    try {
      await storage.write(assetId, PENDING_THUMBNAIL, detached(file.body ?? emptyBody(), sniffingStream('thumbnail')), { maxBytes: MAX_THUMBNAIL_BYTES });
    } catch (error) {
      if (error instanceof UnrecognisedContentError) throw unsupported('thumbnail', error.message);
      if (error instanceof StorageLimitError) throw tooLarge();
      if (brokeOff(error)) throw new HttpProblem(400, 'validation-error', 'the body broke off; send the thumbnail again');
      throw error;
    }
    const at = now();
    await markThumbnailPending(db.kysely, assetId, at, row?.expires_at ?? new Date(expiry() * 1000).toISOString());
  }

  /**
   * One processing attempt of a complete video, under a lease: `ready` with what it learnt, or
   * `failed` with why. Nothing is done when another instance holds the video's lease (or it is no
   * longer processing); the outcome is recorded only while this instance still holds it.
   */
  async function processUpload(assetId: string): Promise<void> {
    const at = new Date();
    const attempts = await claimProcessing(db.kysely, assetId, instanceId, at.toISOString(), new Date(at.getTime() + leaseMs).toISOString());
    if (attempts === undefined) return; // deleted, done, or being processed by another instance
    const finish = async (changes: UploadChanges) => {
      if (!(await finishClaim(db.kysely, assetId, instanceId, { ...changes, updated_at: now() }))) {
        log.warn({ assetId, instanceId }, 'processing: the lease ran out before the job ended; its outcome is left to the instance that took over');
      }
    };
    const fail = (error: string) => finish({ video_state: 'failed', error: error.slice(0, 500) });
    if (attempts > MAX_PROCESSING_ATTEMPTS) {
      await fail(`processing was interrupted ${MAX_PROCESSING_ATTEMPTS} times`);
      return;
    }
    const job = new AbortController();
    let ended!: () => void;
    jobs.set(assetId, { controller: job, done: new Promise<void>((resolve) => (ended = resolve)) });
    const renewal = setInterval(() => {
      renewClaim(db.kysely, assetId, instanceId, new Date(Date.now() + leaseMs).toISOString())
        .then((held) => {
          if (held) return;
          // Discarded (the row is gone) or taken over by another instance: its work would be thrown away.
          log.warn({ assetId, instanceId }, 'processing: lost the lease of a video being processed; stopping it');
          job.abort();
        })
        .catch((error: unknown) => log.warn({ err: error, assetId }, 'processing: could not renew the lease'));
    }, Math.max(1, Math.floor(leaseMs / 3)));
    renewal.unref();
    // The rewrite's progress, recorded when its whole percent changes, at most every PROGRESS_EVERY_MS.
    let recorded = -1;
    let recordedAt = 0;
    const onProgress = (fraction: number) => {
      const percent = Math.floor(fraction * 100);
      if (percent === recorded || (Date.now() - recordedAt < PROGRESS_EVERY_MS && percent < 100)) return;
      recorded = percent;
      recordedAt = Date.now();
      recordProcessingProgress(db.kysely, assetId, instanceId, percent).catch((error: unknown) =>
        log.warn({ err: error, assetId }, 'processing: could not record the progress'),
      );
    };
    try {
      const result = await processVideo(storage, assetId, log, { onProgress, signal: AbortSignal.any([stopping.signal, job.signal]), workParent: workParentOf(config), jobs: ctx.media });
      await finish({
        video_state: 'ready',
        duracion: result.durationSeconds,
        has_thumbnail: result.hasThumbnail ? 1 : 0,
        has_preview: result.hasPreview ? 1 : 0,
        error: null,
        stream_state: options.streaming !== false ? 'pending' : null,
      });
      // R-MED-5: the MP4 plays from now on; the renditions follow under a lease of their own (R-OPS-7)
      if (options.streaming !== false && (await findUpload(db.kysely, assetId))?.video_state === 'ready') streamingQueue.enqueue(assetId);
    } catch (error) {
      if (stopping.signal.aborted) {
        log.info({ assetId }, 'processing: stopped with the instance; the next start (or another instance) processes it again');
        return;
      }
      if (job.signal.aborted) {
        log.info({ assetId }, 'processing: stopped (the upload was discarded, or another instance holds it)');
        return;
      }
      if (!(error instanceof InvalidMediaError)) log.error({ err: error, assetId }, 'processing: failed');
      await fail(error instanceof Error ? error.message : String(error));
    } finally {
      jobs.delete(assetId);
      ended();
      clearInterval(renewal);
    }
  }

  /**
   * The HLS stage of a ready video (R-MED-5 … R-MED-8): renditions lowest first, each recorded as the
   * master lists it, then the storyboard. A failure is logged and leaves the MP4 playing; what was
   * stored before it stays listed. An upload discarded (or whose video was deleted) meanwhile stops
   * it, and the files it wrote go.
   */
  async function streamUpload(assetId: string): Promise<void> {
    const at = new Date();
    // R-OPS-7: one instance makes an asset's renditions; one that stops or dies leaves them to the next
    if (!(await claimStreaming(db.kysely, assetId, instanceId, at.toISOString(), new Date(at.getTime() + leaseMs).toISOString()))) return;
    const job = new AbortController();
    let ended!: () => void;
    jobs.set(assetId, { controller: job, done: new Promise<void>((resolve) => (ended = resolve)) });
    const renewal = setInterval(() => {
      renewStreamingClaim(db.kysely, assetId, instanceId, new Date(Date.now() + leaseMs).toISOString())
        .then((held) => {
          if (held) return;
          log.warn({ assetId, instanceId }, 'streaming: lost the lease of the renditions being made; stopping');
          job.abort();
        })
        .catch((error: unknown) => log.warn({ err: error, assetId }, 'streaming: could not renew the lease'));
    }, Math.max(1, Math.floor(leaseMs / 3)));
    renewal.unref();
    const finish = (state: 'done' | 'failed') =>
      finishStreaming(db.kysely, assetId, instanceId, state).catch((error: unknown) => log.warn({ err: error, assetId }, 'streaming: could not record the outcome'));
    const record = async (changes: StreamingChanges) => {
      const held = await recordUploadStreaming(db.kysely, assetId, changes, options.recordOnVideo ? (trx) => options.recordOnVideo!(trx, assetId, changes) : undefined);
      if (!held) job.abort();
      job.signal.throwIfAborted();
    };
    try {
      const result = await makeStreaming(storage, assetId, {
        log,
        jobs: ctx.media,
        signal: AbortSignal.any([stoppingStreams.signal, job.signal]),
        workParent: workParentOf(config),
        onHeights: (hlsHeights) => record({ hlsHeights }),
        onStoryboard: () => record({ hasStoryboard: true }),
      });
      await finish('done');
      log.info({ assetId, heights: result.heights, made: result.made, storyboard: result.storyboard }, 'streaming: renditions and storyboard ready');
    } catch (error) {
      if (stoppingStreams.signal.aborted) {
        log.info({ assetId }, 'streaming: stopped with the instance; the next start (or another instance) goes on where it stopped');
      } else if (job.signal.aborted) {
        log.info({ assetId }, 'streaming: stopped (the upload was discarded or its video deleted)');
        if (!(await findUpload(db.kysely, assetId)) && !(await findVideoOfAsset(db.kysely, assetId))) await storage.deleteAsset(assetId);
      } else {
        await finish('failed');
        log.warn({ err: error, assetId }, 'streaming: could not make the HLS renditions or the storyboard; the MP4 keeps playing');
      }
    } finally {
      clearInterval(renewal);
      jobs.delete(assetId);
      ended();
    }
  }

  /**
   * Discards an upload no video was made of (the wizard's 'Cancelar'): ends a transfer in progress,
   * stops its processing here (another instance holding it stops when it next renews its lease),
   * and removes its row and files. 404 for an unknown upload, 409 once a video was made of it.
   */
  async function discardUpload(assetId: string): Promise<void> {
    if (!(await findUpload(db.kysely, assetId))) throw new HttpProblem(404, 'resource-not-found', 'no such upload');
    if (await findVideoOfAsset(db.kysely, assetId)) throw new HttpProblem(409, 'conflict', 'a video was made of this upload: delete the video instead');
    const transfer = transfers.get(assetId);
    if (transfer) {
      transfer.cancel();
      await transfer.done;
    }
    // The row first: a job claiming it now finds nothing, and a running one records nothing.
    await deleteUpload(db.kysely, assetId);
    const job = jobs.get(assetId);
    if (job) {
      job.controller.abort();
      await job.done;
    }
    await storage.discardPartial(assetId, VIDEO_FILE);
    await storage.deleteAsset(assetId);
  }

  /**
   * Removes uploads no video was made from a day after their locations expired, partial files
   * untouched for a day, and files nobody owns any more (a video whose files could not be deleted
   * with it: its row is gone, so its files go at the next sweep once a day old).
   */
  async function sweep(at = Date.now()): Promise<number> {
    const before = new Date(at - ABANDONED_AFTER_MS);
    let removed = 0;
    for (const assetId of await listAbandoned(db.kysely, before.toISOString())) {
      if (transfers.has(assetId)) continue;
      await storage.discardPartial(assetId, VIDEO_FILE);
      await storage.deleteAsset(assetId);
      await deleteUpload(db.kysely, assetId);
      removed += 1;
    }
    const stale = (await storage.listAssets()).filter((asset) => asset.modified < before && !transfers.has(asset.assetId)).map((asset) => asset.assetId);
    const known = await knownAssets(db.kysely, stale);
    for (const assetId of stale) {
      if (known.has(assetId)) continue;
      await storage.deleteAsset(assetId);
      removed += 1;
    }
    await storage.cleanupTemporary(before);
    await removeAbandonedWorkDirs(before);
    await removeAbandonedWorkDirs(before, workParentOf(config));
    return removed;
  }

  /**
   * Queues videos in `processing` that nobody holds a lease of (at most 100 at a time): at start
   * (those a stopped server left), then every PROCESSING_POLL_MS (those another instance received
   * but has not started yet, or whose instance died). The queue holds them as hints: the claim when
   * a job starts decides who processes a video, so instances share the work and never repeat it.
   */
  async function pickUpProcessing(): Promise<void> {
    for (const assetId of await listClaimable(db.kysely, now(), 100)) queue.enqueue(assetId);
    if (options.streaming !== false) for (const assetId of await listStreamable(db.kysely, now(), 100)) streamingQueue.enqueue(assetId);
  }

  let poller: NodeJS.Timeout | undefined;
  /** Picks up videos to process now and every PROCESSING_POLL_MS; nothing with PROCESSING=off. */
  async function startProcessing(): Promise<void> {
    if (!config.processing) return;
    await pickUpProcessing();
    poller = setInterval(() => {
      pickUpProcessing().catch((error: unknown) => log.warn({ err: error }, 'processing: could not look for videos to process'));
    }, pollMs);
    poller.unref();
  }

  /**
   * Takes no more videos, waits up to `waitMs` (5 s) for those running, and gives up the leases of
   * those still running (within main.ts's 10 s for the whole shutdown), so another instance takes
   * them at once; their media programs are killed.
   */
  async function stopProcessing(waitMs = 5_000): Promise<void> {
    clearInterval(poller);
    // a rendition can run for many minutes: its ffmpeg is killed at once, a later run goes on where it stopped
    stoppingStreams.abort();
    await Promise.all([queue.stop(waitMs), streamingQueue.stop(waitMs)]);
    try {
      const released = await releaseClaims(db.kysely, instanceId);
      if (released > 0) log.info({ released }, 'processing: left unfinished videos to another instance');
    } catch (error) {
      log.warn({ err: error }, 'processing: could not give up the leases (they run out by themselves)');
    }
    // A rewrite can last long after the process would have exited: its ffmpeg is killed, not left
    // running without anyone to store its work (the lease is given up first, so its failure records nothing).
    stopping.abort();
  }

  return { createUpload, getUpload, discardUpload, receiveVideo, receiveThumbnail, sweep, startProcessing, stopProcessing, pickUpProcessing, queue, streamingQueue, instanceId };
}

export type UploadsService = ReturnType<typeof createUploadsService>;

const emptyBody = (): Readable => Readable.from([]);
