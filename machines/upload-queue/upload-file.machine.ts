import { and, assign, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import { problemOf } from '../shared/problem.ts';
import { validateVideoForm } from '../video-form/video-form.rules.ts';
import type {
  SaveVideoInput,
  SendFileInput,
  SendSubtitlesInput,
  SendSubtitlesOutput,
  SlotChangedEvent,
  UploadFileContext,
  UploadFileOutput,
  UploadFileEvent,
  UploadFileInput,
  UploadFileTag,
  UploadSession,
  UploadSessionRequest,
  UploadStatus,
  UploadThumbnailInput,
  Video,
} from './upload-file.types.ts';

/** How long a file waits between two looks at the processing of its upload (the app's default). */
export const POLL_INTERVAL_MS = 2000;

/** The file extensions taken as video when the browser gives no type. */
export const VIDEO_EXTENSIONS = ['.mp4', '.m4v', '.mov', '.qt', '.webm', '.mkv', '.avi', '.mpg', '.mpeg', '.vob', '.wmv', '.flv', '.3gp'] as const;

/**
 * Whether a chosen file can be a video (R-UPL-2): a video type, or no type (or a generic one) and a
 * video extension; never empty. The server still checks the file's first bytes (a picture renamed
 * .mp4 is refused there, and the file says so).
 */
export function isVideoFile(file: Pick<File, 'name' | 'type' | 'size'>): boolean {
  if (file.size <= 0) return false;
  if (file.type.startsWith('video/')) return true;
  if (file.type !== '' && file.type !== 'application/octet-stream') return false;
  const name = file.name.toLowerCase();
  return VIDEO_EXTENSIONS.some((extension) => name.endsWith(extension));
}

/** The content types the video location takes as such; anything else is sent as bytes for the server to recognise. */
const VIDEO_CONTENT_TYPES = ['video/mp4', 'video/webm', 'video/quicktime'];

/**
 * The content type a video is announced and sent with: its own when the location takes it, else
 * `application/octet-stream` (the server recognises a `.mkv` or `.m4v` by its leading bytes).
 */
export const uploadContentType = (file: Pick<File, 'type'>): string =>
  VIDEO_CONTENT_TYPES.includes(file.type) ? file.type : 'application/octet-stream';

/** What the upload session is asked for: the video's type (as it will be sent) and size. */
export const sessionRequestOf = (file: Pick<File, 'type' | 'size'>): UploadSessionRequest => ({
  video: { contentType: uploadContentType(file), size: file.size },
});

/** The percentage shown (0–100, whole). */
export const percentOf = ({ loaded, total }: Pick<UploadFileContext, 'loaded' | 'total'>): number =>
  total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0;

const unsent = () => ({ session: null, resume: false, loaded: 0, rate: 0, processed: null, refusal: null });

/** A file's context before anything was sent (its machine starts with it; the queue's model builds snapshots on it). */
export const startingContext = (input: UploadFileInput): UploadFileContext => ({
  key: input.key,
  file: input.file,
  queue: input.queue,
  ...unsent(),
  total: input.file.size,
  errors: null,
  saveFailed: false,
  values: null,
  thumbnail: null,
  subtitles: [],
  video: null,
  savedSubtitles: [],
  subtitleFailures: [],
});

/**
 * One file's upload (R-UPL-1, R-UPL-3…6): it waits for a transfer slot of its queue (`queued`),
 * asks for an upload session, sends the file to its signed location (resumed after an
 * interruption), follows the server's processing until the file is ready, and on confirmation
 * uploads the chosen thumbnail, saves the video (`saveVideo`: created, or the file of a video
 * replaced) and sends its subtitle files. Each step that can fail says so and can be retried or the
 * file removed, without holding its queue back. The side effects come from the app with `.provide()`.
 */
export const uploadFileMachine = setup({
  types: {} as {
    context: UploadFileContext;
    events: UploadFileEvent | SlotChangedEvent;
    input: UploadFileInput;
    output: UploadFileOutput;
    tags: UploadFileTag;
  },
  actors: {
    requestUploadSession: fromPromise<UploadSession, UploadSessionRequest>(async () => {
      throw new Error('requestUploadSession is supplied by the app with .provide()');
    }),
    sendFile: fromCallback<UploadFileEvent, SendFileInput>(() => {
      throw new Error('sendFile is supplied by the app with .provide()');
    }),
    pollUpload: fromPromise<UploadStatus, { assetId: string }>(async () => {
      throw new Error('pollUpload is supplied by the app with .provide()');
    }),
    uploadThumbnail: fromPromise<void, UploadThumbnailInput>(async () => {
      throw new Error('uploadThumbnail is supplied by the app with .provide()');
    }),
    saveVideo: fromPromise<Video, SaveVideoInput>(async () => {
      throw new Error('saveVideo is supplied by the app with .provide()');
    }),
    sendSubtitles: fromPromise<SendSubtitlesOutput, SendSubtitlesInput>(async () => {
      throw new Error('sendSubtitles is supplied by the app with .provide()');
    }),
  },
  actions: {
    /** Tells the queue the file started or stopped needing a transfer slot (nothing when alone). */
    tellQueue: sendTo(
      // Alone (a replacement), the file sends it to itself, where nothing listens for it.
      ({ context, self }) => context.queue ?? self,
      ({ context }): SlotChangedEvent => ({ type: 'upload.slotChanged', key: context.key }),
    ),
    // The two notifications are optional: a queue says how its files went in its own words.
    notifySaved: (_, _video: Video) => {},
    notifySaveFailed: () => {},
    /** Tells the server an upload given up is no longer wanted (DELETE /api/uploads/{id}): fire and forget. */
    discardUpload: (_, _params: { assetId: string }) => {
      throw new Error('discardUpload is supplied by the app with .provide()');
    },
  },
  guards: {
    startsAtOnce: ({ context }) => context.queue === null,
    hasSession: ({ context }) => context.session !== null,
    isInvalidForm: ({ event }) =>
      event.type === 'file.confirm' && event.values !== null && Object.keys(validateVideoForm(event.values)).length > 0,
    hasThumbnail: ({ event }) => event.type === 'file.confirm' && event.thumbnail !== null,
    isRefusal: (_, error: unknown) => [413, 415].includes(problemOf(error).status ?? 0),
    isReady: (_, status: UploadStatus) => status.estado === 'ready',
    isFailed: (_, status: UploadStatus) => status.estado === 'failed',
    hasSubtitles: ({ context }) => context.subtitles.length > 0,
    allSubtitlesSaved: (_, output: SendSubtitlesOutput) => output.failures.length === 0,
  },
  delays: {
    pollInterval: POLL_INTERVAL_MS,
  },
}).createMachine({
  id: 'uploadFile',
  description: 'One file of the upload queue (or the file of a replacement): sent, processed, confirmed, saved.',
  context: ({ input }) => startingContext(input),
  // Its queue learns how it ended: saved (the video) or cancelled (null).
  output: ({ context }) => ({ key: context.key, video: context.video }),
  initial: 'pending',
  states: {
    pending: {
      description: "Until the video is saved: the file's row with its state; 'Quitar' stops it and discards the server's copy.",
      meta: { qa: 'Archivo en curso' },
      initial: 'queued',
      on: {
        'file.cancel': [
          { guard: 'hasSession', target: 'cancelled', actions: { type: 'discardUpload', params: ({ context }) => ({ assetId: context.session!.assetId }) } },
          { target: 'cancelled' },
        ],
      },
      states: {
        queued: {
          description: "'En cola': waits for one of the queue's transfer slots.",
          meta: { qa: 'En cola' },
          entry: 'tellQueue',
          // Alone (a replacement), nothing to wait for.
          always: [
            { guard: and(['startsAtOnce', 'hasSession']), target: 'uploading' },
            { guard: 'startsAtOnce', target: 'requestingSession' },
          ],
          on: {
            'file.start': [{ guard: 'hasSession', target: 'uploading' }, { target: 'requestingSession' }],
          },
        },
        requestingSession: {
          description: "'Preparando la subida': POST /api/uploads.",
          meta: { qa: 'Preparando la subida' },
          tags: ['transferring'],
          exit: 'tellQueue',
          invoke: {
            id: 'requestUploadSession',
            src: 'requestUploadSession',
            input: ({ context }) => sessionRequestOf(context.file),
            onDone: { target: 'uploading', actions: assign({ session: ({ event }) => event.output }) },
            onError: [
              // The server refuses the announced file itself (its type or its size).
              {
                guard: { type: 'isRefusal', params: ({ event }: { event: { error: unknown } }) => event.error },
                target: 'refused',
                actions: assign({ refusal: ({ event }) => (problemOf(event.error).status === 413 ? 'too-large' : 'not-a-video') }),
              },
              { target: 'sessionFailed' },
            ],
          },
        },
        sessionFailed: {
          description: "'No se ha podido preparar la subida' and 'Reintentar'.",
          meta: { qa: 'No se ha podido preparar la subida' },
          on: { 'file.retry': { target: 'queued' } },
        },
        uploading: {
          description: "'Subiendo 43 %': the progress bar, the percentage and the transfer rate.",
          meta: { qa: 'Subiendo' },
          tags: ['transferring'],
          exit: 'tellQueue',
          invoke: {
            id: 'sendFile',
            src: 'sendFile',
            input: ({ context }) => ({
              assetId: context.session!.assetId,
              uploadUrl: context.session!.video.uploadUrl,
              file: context.file,
              resume: context.resume,
            }),
          },
          on: {
            'upload.progress': { actions: assign(({ event }) => ({ loaded: event.loaded, total: event.total, rate: event.rate })) },
            'upload.sent': { target: 'processing', actions: assign(({ context }) => ({ loaded: context.total, rate: 0, resume: false })) },
            'upload.failed': { target: 'interrupted', actions: assign({ rate: 0 }) },
            'upload.refused': { target: 'refused', actions: assign({ refusal: ({ event }) => event.reason }) },
          },
        },
        interrupted: {
          description: "'La subida se ha interrumpido' and 'Reintentar' (resumes from what the server holds).",
          meta: { qa: 'Subida interrumpida' },
          on: { 'file.retry': { target: 'queued', actions: assign({ resume: true }) } },
        },
        processing: {
          description: "'Procesando…': the server checks the file, with the percent done while it rewrites it.",
          meta: { qa: 'Procesando el video' },
          initial: 'checking',
          states: {
            checking: {
              description: 'GET /api/uploads/{id}: where the processing stands.',
              meta: { qa: 'Procesando: consultando el servidor' },
              invoke: {
                id: 'pollUpload',
                src: 'pollUpload',
                input: ({ context }) => ({ assetId: context.session!.assetId }),
                onDone: [
                  { guard: { type: 'isReady', params: ({ event }) => event.output }, target: '#uploadFile.pending.ready' },
                  {
                    guard: { type: 'isFailed', params: ({ event }) => event.output },
                    target: '#uploadFile.pending.refused',
                    actions: assign({ refusal: 'invalid-media' }),
                  },
                  { target: 'waiting', actions: assign({ processed: ({ event }) => event.output.procesado }) },
                ],
                // A failed look (network, server) is tried again later, like an unfinished processing.
                onError: { target: 'waiting' },
              },
            },
            waiting: {
              description: 'Until the next look.',
              meta: { qa: 'Procesando: esperando la próxima consulta' },
              after: { pollInterval: { target: 'checking' } },
            },
          },
        },
        refused: {
          description: "'Error': the file cannot be a video ('El archivo no es un video válido', or too big); only 'Quitar'.",
          meta: { qa: 'Archivo rechazado' },
        },
        ready: {
          description: "'Listo': the file is on the server and processed; its form's messages after a failed confirmation.",
          meta: { qa: 'Listo para confirmar' },
          on: {
            'file.confirm': [
              {
                guard: 'isInvalidForm',
                actions: assign({ errors: ({ event }) => (event.type === 'file.confirm' && event.values ? validateVideoForm(event.values) : null) }),
              },
              {
                guard: 'hasThumbnail',
                target: '#uploadFile.saving.thumbnail',
                actions: assign(({ event }) => ({ errors: null, saveFailed: false, values: event.values, thumbnail: event.thumbnail, subtitles: event.subtitles })),
              },
              {
                target: '#uploadFile.saving.video',
                actions: assign(({ event }) => ({ errors: null, saveFailed: false, values: event.values, thumbnail: null, subtitles: event.subtitles })),
              },
            ],
          },
        },
      },
    },
    saving: {
      description: "Being saved: the file's form and buttons disabled.",
      meta: { qa: 'Guardando el video' },
      tags: ['busy'],
      initial: 'video',
      states: {
        thumbnail: {
          description: "PUT of the chosen picture to the session's thumbnail location.",
          meta: { qa: 'Guardando: subiendo la miniatura' },
          invoke: {
            id: 'uploadThumbnail',
            src: 'uploadThumbnail',
            input: ({ context }) => ({ assetId: context.session!.assetId, uploadUrl: context.session!.thumbnail.uploadUrl, file: context.thumbnail! }),
            onDone: { target: 'video' },
            onError: { target: '#uploadFile.pending.ready', actions: [assign({ saveFailed: true }), 'notifySaveFailed'] },
          },
        },
        video: {
          description: 'POST /api/videos with the form (or PUT /api/videos/{id}/archivo for a replacement).',
          meta: { qa: 'Guardando: guardando el video' },
          invoke: {
            id: 'saveVideo',
            src: 'saveVideo',
            input: ({ context }) => ({ assetId: context.session!.assetId, values: context.values }),
            onDone: [
              // The video exists from here on: its subtitle files go to it (docs/decisions/0124-subtitles-after-confirmar.md).
              {
                guard: 'hasSubtitles',
                target: 'subtitles',
                actions: [assign({ video: ({ event }) => event.output }), { type: 'notifySaved', params: ({ event }) => event.output }],
              },
              {
                target: '#uploadFile.saved',
                actions: [assign({ video: ({ event }) => event.output }), { type: 'notifySaved', params: ({ event }) => event.output }],
              },
            ],
            onError: { target: '#uploadFile.pending.ready', actions: [assign({ saveFailed: true }), 'notifySaveFailed'] },
          },
        },
        subtitles: {
          description: 'PUT /api/videos/{id}/subtitulos/{idioma} of each subtitle file not yet stored, one after another.',
          meta: { qa: 'Guardando: enviando los subtítulos' },
          invoke: {
            id: 'sendSubtitles',
            src: 'sendSubtitles',
            input: ({ context }) => ({
              videoId: context.video!.id,
              subtitles: context.subtitles.filter((entry) => !context.savedSubtitles.includes(entry.idioma)),
            }),
            onDone: [
              {
                guard: { type: 'allSubtitlesSaved', params: ({ event }) => event.output },
                target: '#uploadFile.saved',
                actions: assign(({ context, event }) => ({ savedSubtitles: [...context.savedSubtitles, ...event.output.saved], subtitleFailures: [] })),
              },
              {
                target: '#uploadFile.subtitlesRefused',
                actions: assign(({ context, event }) => ({
                  savedSubtitles: [...context.savedSubtitles, ...event.output.saved],
                  subtitleFailures: event.output.failures,
                })),
              },
            ],
          },
        },
      },
    },
    subtitlesRefused: {
      description: "The video exists, but some subtitle files were refused: each one's message, 'Reintentar', or leave them for 'Editar video'.",
      meta: { qa: 'Subtítulos rechazados' },
      on: {
        'file.retrySubtitles': { target: '#uploadFile.saving.subtitles', actions: assign({ subtitles: ({ event }) => event.subtitles }) },
        // Nothing is discarded: the video and the files the server stored stay.
        'file.cancel': { target: 'saved' },
      },
    },
    saved: {
      description: "The video is saved ('Listo' with its link); the lists were refreshed.",
      meta: { qa: 'Video guardado' },
      type: 'final',
    },
    cancelled: {
      description: "Removed from the queue: whatever ran was stopped and the server's copy discarded.",
      meta: { qa: 'Archivo quitado' },
      entry: 'tellQueue',
      type: 'final',
    },
  },
});
