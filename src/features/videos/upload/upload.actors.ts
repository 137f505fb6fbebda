import type { QueryClient } from '@tanstack/react-query';
import { fromCallback, fromPromise } from 'xstate';
import type { components } from '../../../../contract/openapi.gen.ts';
import { uploadContentType, uploadFileMachine } from '../../../../machines/upload-queue/upload-file.machine.ts';
import type {
  SaveVideoInput,
  SendFileEvent,
  SendFileInput,
  UploadFileEvent,
  UploadSession,
  UploadSessionRequest,
  UploadStatus,
  UploadThumbnailInput,
} from '../../../../machines/upload-queue/upload-file.types.ts';
import { uploadQueueMachine } from '../../../../machines/upload-queue/upload-queue.machine.ts';
import type { VideoFormValues } from '../../../../machines/video-form/video-form.rules.ts';
import { api, unwrap } from '../../../lib/api/client.ts';
import { decodeClaims, getToken } from '../../../lib/auth-token.ts';
import { uploadMessages, videoManagementMessages } from '../../../lib/messages.ts';
import type { ToastStore } from '../../../lib/toasts.ts';
import { videoKeys, type Video } from '../videos.queries.ts';
import { createSendSubtitles } from './subtitles.actors.ts';

type VideoCreate = components['schemas']['VideoCreate'];

/** Signed locations are paths of this origin; XMLHttpRequest and fetch get them absolute (jsdom's fetch needs it). */
const absolute = (location: string) => new URL(location, globalThis.location?.origin ?? 'http://localhost').href;

// ---- reads and writes through the typed client --------------------------------------------------

/** POST /api/uploads: the asset id and the signed locations of its video and thumbnail. */
export async function requestUploadSession(body: UploadSessionRequest, signal?: AbortSignal): Promise<UploadSession> {
  return unwrap(await api.POST('/api/uploads', { body, ...(signal ? { signal } : {}) }));
}

/** GET /api/uploads/{id}: where the upload stands, and fresh signed locations. */
export async function getUpload(assetId: string, signal?: AbortSignal): Promise<UploadStatus> {
  return unwrap(await api.GET('/api/uploads/{id}', { params: { path: { id: assetId } }, ...(signal ? { signal } : {}) }));
}

/** POST /api/videos's body (R-UPL-1): trimmed texts, the long description left out when blank. */
export function videoCreateBody({ assetId, values }: { assetId: string; values: VideoFormValues }, nombreUsuarioAlta?: string): VideoCreate {
  const descripcion = values.descripcion.trim();
  return {
    isVisible: values.isVisible,
    ...(nombreUsuarioAlta ? { nombreUsuarioAlta } : {}),
    titulo: values.titulo.trim(),
    ...(descripcion === '' ? {} : { descripcion }),
    descripcionCorta: values.descripcionCorta.trim(),
    tags: [...new Set(values.tags)],
    idExterno: assetId,
  };
}

// ---- the PUT of a file to its signed location -----------------------------------------------------

/** What a PUT answered: the status, the bytes the server holds (`Upload-Offset`), the problem type. */
interface PutAnswer {
  status: number;
  uploadOffset: number | null;
  problemType: string | null;
}

/** The transfer broke off without an answer (network, time-out). */
class TransferBroken extends Error {
  override readonly name = 'TransferBroken';
}

export type CreateRequest = () => XMLHttpRequest;

function problemTypeOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as { type?: unknown };
    return typeof body.type === 'string' ? body.type : null;
  } catch {
    return null;
  }
}

function parseOffset(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  const value = Number(header.trim());
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * One PUT with XMLHttpRequest (fetch reports no upload progress). Resolves with whatever the server
 * answered; rejects with `TransferBroken` when no answer came, and with an AbortError once `signal`
 * aborts (the request is aborted).
 */
function put(
  createRequest: CreateRequest,
  location: string,
  body: Blob | null,
  headers: Record<string, string>,
  signal: AbortSignal,
  onProgress?: (sent: number) => void,
): Promise<PutAnswer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const request = createRequest();
    const abort = () => request.abort();
    const settle = () => signal.removeEventListener('abort', abort);
    request.open('PUT', absolute(location));
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    if (onProgress) request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => {
      settle();
      resolve({
        status: request.status,
        uploadOffset: parseOffset(request.getResponseHeader('Upload-Offset')),
        problemType: problemTypeOf(request.responseText),
      });
    };
    request.onerror = () => {
      settle();
      reject(new TransferBroken('The connection broke off'));
    };
    request.ontimeout = request.onerror;
    request.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    signal.addEventListener('abort', abort, { once: true });
    request.send(body);
  });
}

/** The transfer rate over the last few seconds, in bytes per second. */
function rateMeter(now: () => number, windowMs = 3000) {
  let samples: Array<{ at: number; bytes: number }> = [];
  return {
    restart: () => {
      samples = [];
    },
    sample(bytes: number): number {
      const at = now();
      samples.push({ at, bytes });
      while (samples.length > 2 && at - samples[0]!.at > windowMs) samples.shift();
      const first = samples[0]!;
      const elapsed = at - first.at;
      return elapsed > 0 ? Math.max(0, ((bytes - first.bytes) / elapsed) * 1000) : 0;
    },
  };
}

/** How many PUTs one transfer may make (offset corrections, a fresh location) before it reports a failure. */
const MAX_ROUNDS = 6;

export interface SendFileOptions {
  /** Makes the request (tests pass a fake XMLHttpRequest). */
  createRequest?: CreateRequest;
  /** Milliseconds, for the transfer rate. */
  now?: () => number;
  /** A fresh signed video location for the asset (its signature expired), or null. */
  freshVideoLocation?: (assetId: string, signal: AbortSignal) => Promise<string | null>;
  /**
   * A resumed transfer (the user pressed 'Reintentar') rides out a short outage: a connection that
   * breaks is tried again after each of these waits before the interruption is shown again.
   */
  resumeRetryDelaysMs?: readonly number[];
}

/** A resumed transfer tries again after 1 s, 2 s and 4 s when the connection breaks. */
export const RESUME_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

/** Waits `ms`, or rejects with an AbortError as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

async function freshLocationFromServer(assetId: string, signal: AbortSignal): Promise<string | null> {
  const status = await getUpload(assetId, signal);
  return status.video?.uploadUrl ?? null;
}

/**
 * Sends the video to its signed location (the upload protocol of docs/decisions/0036-resumable-uploads-with-content-range.md) and tells the machine how it goes:
 * - a first transfer PUTs the whole file;
 * - a resumed one (`resume`) asks what the server holds (`Content-Range: bytes * /total`, empty
 *   body → 202 `Upload-Offset`, or 204 when it is all there) and PUTs the rest
 *   (`Content-Range: bytes <stored>-<total-1>/<total>`); progress goes on from the stored bytes;
 * - a 409 (`upload-offset-mismatch`) or 202 with `Upload-Offset` continues from that offset;
 * - a 403 (the location's signature expired) gets a fresh location once (GET /api/uploads/{id});
 * - 413 / 415 refuse the file ('upload.refused'); no answer or another error is 'upload.failed'.
 */
export async function transferFile(
  input: SendFileInput,
  report: (event: SendFileEvent) => void,
  signal: AbortSignal,
  {
    createRequest = () => new XMLHttpRequest(),
    now = () => performance.now(),
    freshVideoLocation = freshLocationFromServer,
    resumeRetryDelaysMs = RESUME_RETRY_DELAYS_MS,
  }: SendFileOptions = {},
): Promise<void> {
  const { file } = input;
  const total = file.size;
  const contentType = uploadContentType(file);
  const meter = rateMeter(now);
  let location = input.uploadUrl;
  let refreshed = false;
  /** Bytes the server holds, null when it must be asked. */
  let offset: number | null = input.resume ? null : 0;
  /** Whether the body is a range of the file (a resumed transfer) rather than the whole file. */
  let ranged = input.resume;

  const progress = (loaded: number) => {
    if (!signal.aborted) report({ type: 'upload.progress', loaded: Math.min(loaded, total), total, rate: meter.sample(loaded) });
  };
  const refuse = (answer: PutAnswer): SendFileEvent => {
    if (answer.status === 413) return { type: 'upload.refused', reason: 'too-large' };
    if (answer.status === 415) return { type: 'upload.refused', reason: 'not-a-video' };
    return { type: 'upload.failed' };
  };
  /** On a 403, once: a fresh location, and the server asked again where it stands. */
  const refresh = async (): Promise<boolean> => {
    if (refreshed) return false;
    refreshed = true;
    const fresh = await freshVideoLocation(input.assetId, signal).catch(() => null);
    if (!fresh) return false;
    location = fresh;
    offset = null;
    ranged = true;
    return true;
  };

  const outcome = async (): Promise<SendFileEvent> => {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      if (offset === null) {
        const probe = await put(createRequest, location, null, { 'Content-Type': contentType, 'Content-Range': `bytes */${total}` }, signal);
        if (probe.status === 204) return { type: 'upload.sent' };
        if (probe.status === 403 && (await refresh())) continue;
        if (probe.status !== 202 || probe.uploadOffset === null || probe.uploadOffset >= total) return refuse(probe);
        offset = probe.uploadOffset;
      }
      const from: number = offset;
      meter.restart();
      progress(from);
      const headers: Record<string, string> = { 'Content-Type': contentType };
      if (ranged) headers['Content-Range'] = `bytes ${from}-${total - 1}/${total}`;
      const answer = await put(createRequest, location, ranged ? file.slice(from) : file, headers, signal, (sent) => progress(from + sent));
      if (answer.status === 204) return { type: 'upload.sent' };
      if ((answer.status === 202 || answer.status === 409) && answer.uploadOffset !== null && answer.uploadOffset < total) {
        offset = answer.uploadOffset;
        ranged = true;
        continue;
      }
      if (answer.status === 403 && (await refresh())) continue;
      // 409 `conflict`: the server already holds the whole video (an earlier transfer ended after all).
      if (answer.status === 409 && answer.problemType === 'conflict') return { type: 'upload.sent' };
      return refuse(answer);
    }
    return { type: 'upload.failed' };
  };

  // A first transfer that breaks shows the interruption at once; a resumed one tries a few more times.
  const retryDelays = input.resume ? [...resumeRetryDelaysMs] : [];
  for (;;) {
    try {
      const event = await outcome();
      if (!signal.aborted) report(event);
      return;
    } catch (error) {
      if (signal.aborted) return;
      const delay = error instanceof TransferBroken ? retryDelays.shift() : undefined;
      if (delay === undefined) {
        if (!(error instanceof TransferBroken)) console.warn('The upload failed', error);
        report({ type: 'upload.failed' });
        return;
      }
      try {
        await pause(delay, signal);
      } catch {
        return;
      }
      // Where the server stands is asked again: what arrived before the break is kept there.
      offset = null;
      ranged = true;
    }
  }
}

/** The machine's sendFile: the transfer runs until it ends or the machine stops the actor (the PUT is aborted). */
export function createSendFile(options: SendFileOptions = {}) {
  return fromCallback<UploadFileEvent, SendFileInput>(({ input, sendBack }) => {
    const controller = new AbortController();
    void transferFile(input, sendBack, controller.signal, options);
    return () => controller.abort();
  });
}

/**
 * PUT of the thumbnail picture to its signed location (whole file); a 403 (expired signature) gets a
 * fresh location from GET /api/uploads/{id} once. Rejects with the problem when the server refuses it.
 */
export async function uploadThumbnailFile({ assetId, uploadUrl, file }: UploadThumbnailInput, signal: AbortSignal): Promise<void> {
  // The picture's bytes (at most 20 MB), so that any fetch sends them as they are.
  const body = await file.arrayBuffer();
  const send = (location: string) =>
    globalThis.fetch(absolute(location), { method: 'PUT', body, headers: { 'Content-Type': file.type }, signal });
  let response = await send(uploadUrl);
  if (response.status === 403) response = await send((await getUpload(assetId, signal)).thumbnail.uploadUrl);
  if (!response.ok) {
    const body = await response.text();
    throw Object.assign(new Error(`The thumbnail was refused (${response.status})`), { status: response.status, type: problemTypeOf(body) });
  }
}

// ---- the queue as the app runs it ------------------------------------------------------------------

export interface UploadQueueDeps {
  queryClient: QueryClient;
  toasts: ToastStore;
  /** The transfer's seams (tests). */
  sendFile?: SendFileOptions;
}

/** A file's actors: the typed client, XMLHttpRequest for the video's PUT; the video created with POST /api/videos. */
export function createUploadActors({ queryClient, sendFile }: Pick<UploadQueueDeps, 'queryClient' | 'sendFile'>) {
  return {
    requestUploadSession: fromPromise<UploadSession, UploadSessionRequest>(({ input, signal }) => requestUploadSession(input, signal)),
    sendFile: createSendFile(sendFile),
    pollUpload: fromPromise<UploadStatus, { assetId: string }>(({ input, signal }) => getUpload(input.assetId, signal)),
    uploadThumbnail: fromPromise<void, UploadThumbnailInput>(({ input, signal }) => uploadThumbnailFile(input, signal)),
    /**
     * POST /api/videos, then every cached list is refreshed (R-UPL-1). Not tied to the dialog's
     * lifetime (no AbortSignal): once sent, the lists still follow.
     */
    saveVideo: fromPromise<Video, SaveVideoInput>(async ({ input }) => {
      const video = unwrap(
        await api.POST('/api/videos', { body: videoCreateBody({ assetId: input.assetId, values: input.values! }, decodeClaims(getToken())?.user) }),
      );
      void queryClient.invalidateQueries({ queryKey: videoKeys.lists() });
      return video;
    }),
    sendSubtitles: createSendSubtitles(queryClient),
  };
}

/** DELETE /api/uploads/{id} of an upload given up: fire and forget (the server sweeps it a day after its locations expire). */
export function discardUpload(assetId: string): void {
  void api.DELETE('/api/uploads/{id}', { params: { path: { id: assetId } } }).catch(() => {});
}

/** The upload queue with the app's actors and its toasts (R-UPL-5, R-UPL-17). */
export function createUploadQueueLogic({ queryClient, toasts, sendFile }: UploadQueueDeps) {
  // The toast's actor is created after the machine's step (XState warns about actors created inside an action).
  const show = (kind: 'success' | 'error', message: string) => queueMicrotask(() => void toasts.show({ kind, message }));
  return uploadQueueMachine.provide({
    actors: {
      uploadFile: uploadFileMachine.provide({
        actors: createUploadActors({ queryClient, ...(sendFile ? { sendFile } : {}) }),
        // A failed saving shows in the file's row (R-UPL-16), not as a toast.
        actions: {
          discardUpload: (_, { assetId }) => discardUpload(assetId),
        },
      }),
    },
    actions: {
      notifyFinished: (_, { count }) => show('success', count === 1 ? videoManagementMessages.created : uploadMessages.created(count)),
    },
  });
}

export type UploadQueueLogic = ReturnType<typeof createUploadQueueLogic>;
