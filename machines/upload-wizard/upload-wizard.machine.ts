import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { problemOf } from '../shared/problem.ts';
import { validateVideoForm } from '../video-form/video-form.rules.ts';
import type {
  CreateVideoInput,
  SendFileInput,
  UploadSession,
  UploadSessionRequest,
  UploadStatus,
  UploadThumbnailInput,
  UploadWizardContext,
  UploadWizardEvent,
  UploadWizardTag,
  SendSubtitlesInput,
  SendSubtitlesOutput,
  Video,
} from './upload-wizard.types.ts';

/** How long the wizard waits between two looks at the processing of the uploaded video (the app's default). */
export const POLL_INTERVAL_MS = 2000;

/** The file extensions taken as video when the browser gives no type. */
export const VIDEO_EXTENSIONS = ['.mp4', '.m4v', '.mov', '.qt', '.webm', '.mkv', '.avi', '.mpg', '.mpeg', '.vob', '.wmv', '.flv', '.3gp'] as const;

/**
 * Whether a chosen file can be a video (R-UPL-2: "video upload accepts video files"): a video
 * type, or no type (or a generic one) and a video extension; never empty. The server still checks
 * the file's first bytes (a picture renamed .mp4 is refused there, and the wizard says so).
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
 * `application/octet-stream` (a `.mkv` is `video/x-matroska`, a `.m4v` `video/x-m4v`: the server
 * recognises them by their leading bytes, and processing rewrites them for every browser).
 */
export const uploadContentType = (file: Pick<File, 'type'>): string =>
  VIDEO_CONTENT_TYPES.includes(file.type) ? file.type : 'application/octet-stream';

/** What the upload session is asked for: the video's type (as it will be sent) and size. */
export const sessionRequestOf = (file: Pick<File, 'type' | 'size'>): UploadSessionRequest => ({
  video: { contentType: uploadContentType(file), size: file.size },
});

/** The percentage shown (0–100, whole). */
export const percentOf = ({ loaded, total }: Pick<UploadWizardContext, 'loaded' | 'total'>): number =>
  total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0;

/** The wizard's step (R-UPL-1: 0 choose, 1 session, 2 uploading, 3 done) for a state value. */
export function stepOf(value: unknown): 0 | 1 | 2 | 3 {
  if (typeof value === 'string') return 3; // created
  const open = (value as { open?: unknown }).open;
  if (open === undefined) return 3; // saving
  switch (typeof open === 'string' ? open : 'processing') {
    case 'choosing':
    case 'refused':
      return 0;
    case 'requestingSession':
    case 'sessionFailed':
      return 1;
    case 'uploaded':
      return 3;
    default:
      return 2;
  }
}

const fresh = (): Omit<UploadWizardContext, 'file'> => ({
  refusedFile: null,
  session: null,
  loaded: 0,
  total: 0,
  rate: 0,
  processed: null,
  refusal: null,
  errors: null,
  values: null,
  thumbnail: null,
  subtitles: [],
  video: null,
  savedSubtitles: [],
  subtitleFailures: [],
});

/**
 * The upload wizard of R-UPL-1 ("step 0 choose file; step 1 request upload session; step 2
 * uploading with percentage progress; step 3 upload done. Confirmar is enabled only at step 3.
 * Confirmar validates; if valid, the thumbnail is uploaded (if chosen), the video is created, and
 * the list refreshes"), with the upload protocol of docs/decisions/0036-resumable-uploads-with-content-range.md: the video goes to its signed location
 * (`sendFile`, reporting progress); a transfer that breaks off is resumed from the bytes the server
 * holds; once stored the server processes it (`pollUpload` every `pollInterval` until ready or
 * failed). 'Cancelar' stops whatever runs (the transfer is aborted) and ends the wizard, except
 * while the video is being saved. The side effects come from the app with `.provide()`.
 */
export const uploadWizardMachine = setup({
  types: {} as {
    context: UploadWizardContext;
    events: UploadWizardEvent;
    tags: UploadWizardTag;
  },
  actors: {
    requestUploadSession: fromPromise<UploadSession, UploadSessionRequest>(async () => {
      throw new Error('requestUploadSession is supplied by the app with .provide()');
    }),
    sendFile: fromCallback<UploadWizardEvent, SendFileInput>(() => {
      throw new Error('sendFile is supplied by the app with .provide()');
    }),
    pollUpload: fromPromise<UploadStatus, { assetId: string }>(async () => {
      throw new Error('pollUpload is supplied by the app with .provide()');
    }),
    uploadThumbnail: fromPromise<void, UploadThumbnailInput>(async () => {
      throw new Error('uploadThumbnail is supplied by the app with .provide()');
    }),
    createVideo: fromPromise<Video, CreateVideoInput>(async () => {
      throw new Error('createVideo is supplied by the app with .provide()');
    }),
    sendSubtitles: fromPromise<SendSubtitlesOutput, SendSubtitlesInput>(async () => {
      throw new Error('sendSubtitles is supplied by the app with .provide()');
    }),
  },
  actions: {
    notifyCreated: (_, _video: Video) => {
      throw new Error('notifyCreated is supplied by the app with .provide()');
    },
    notifySaveFailed: () => {
      throw new Error('notifySaveFailed is supplied by the app with .provide()');
    },
    /** Tells the server an upload the person gave up is no longer wanted (DELETE /api/uploads/{id}): fire and forget. */
    discardUpload: (_, _params: { assetId: string }) => {
      throw new Error('discardUpload is supplied by the app with .provide()');
    },
  },
  guards: {
    isVideo: ({ event }) => event.type === 'upload.choose' && isVideoFile(event.file),
    isInvalidForm: ({ event }) => event.type === 'upload.confirm' && Object.keys(validateVideoForm(event.values)).length > 0,
    hasThumbnail: ({ event }) => event.type === 'upload.confirm' && event.thumbnail !== null,
    isRefusal: (_, error: unknown) => [413, 415].includes(problemOf(error).status ?? 0),
    isReady: (_, status: UploadStatus) => status.estado === 'ready',
    hasSession: ({ context }) => context.session !== null,
    isFailed: (_, status: UploadStatus) => status.estado === 'failed',
    hasSubtitles: ({ context }) => context.subtitles.length > 0,
    allSubtitlesSaved: (_, output: SendSubtitlesOutput) => output.failures.length === 0,
  },
  delays: {
    pollInterval: POLL_INTERVAL_MS,
  },
}).createMachine({
  id: 'uploadWizard',
  description: "The 'Subir video' dialog: choose a video, upload it, fill in its fields and confirm.",
  context: { file: null, ...fresh() },
  initial: 'open',
  states: {
    open: {
      description: "The stepper, the form and 'Cancelar' (enabled); 'Confirmar' only at step 3.",
      meta: { qa: 'Asistente «Subir video» abierto' },
      initial: 'choosing',
      on: {
        // The server's copy (a transfer broken off, a processing under way, a refused file) goes at once, not a day later.
        'upload.cancel': [
          { guard: 'hasSession', target: 'cancelled', actions: { type: 'discardUpload', params: ({ context }) => ({ assetId: context.session!.assetId }) } },
          { target: 'cancelled' },
        ],
      },
      states: {
        choosing: {
          description: "Step 0 'Elegir archivo': the dropzone; a refused file's message when one was not a video.",
          meta: { qa: 'Elegir archivo' },
          on: {
            'upload.choose': [
              {
                guard: 'isVideo',
                target: 'requestingSession',
                actions: assign(({ event }) => ({ file: event.file, ...fresh() })),
              },
              { actions: assign({ refusedFile: ({ event }) => event.file.name }) },
            ],
          },
        },
        requestingSession: {
          description: "Step 1 'Preparar subida': POST /api/uploads (a loader).",
          meta: { qa: 'Preparando la subida' },
          invoke: {
            id: 'requestUploadSession',
            src: 'requestUploadSession',
            input: ({ context }) => sessionRequestOf(context.file!),
            onDone: {
              target: 'uploading',
              actions: assign({ session: ({ event }) => event.output, total: ({ context }) => context.file?.size ?? 0 }),
            },
            onError: [
              // The server refuses the announced file itself (its type or its size): another file must be chosen.
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
          description: "Step 1: 'No se ha podido preparar la subida' and 'Reintentar'.",
          meta: { qa: 'No se ha podido preparar la subida' },
          on: { 'upload.retry': { target: 'requestingSession' } },
        },
        uploading: {
          description: "Step 2 'Subiendo': the progress bar, the percentage and the transfer rate.",
          meta: { qa: 'Subiendo' },
          invoke: {
            id: 'sendFile',
            src: 'sendFile',
            input: ({ context, event }) => ({
              assetId: context.session!.assetId,
              uploadUrl: context.session!.video.uploadUrl,
              file: context.file!,
              resume: event.type === 'upload.retry',
            }),
          },
          on: {
            'upload.progress': {
              actions: assign(({ event }) => ({ loaded: event.loaded, total: event.total, rate: event.rate })),
            },
            'upload.sent': { target: 'processing', actions: assign(({ context }) => ({ loaded: context.total, rate: 0 })) },
            'upload.failed': { target: 'interrupted', actions: assign({ rate: 0 }) },
            'upload.refused': { target: 'refused', actions: assign({ refusal: ({ event }) => event.reason }) },
          },
        },
        interrupted: {
          description: "Step 2: 'La subida se ha interrumpido' and 'Reintentar' (resumes); the progress where it stopped.",
          meta: { qa: 'Subida interrumpida' },
          on: { 'upload.retry': { target: 'uploading' } },
        },
        processing: {
          description:
            "Step 2: the whole file arrived; 'Procesando el video…' while the server checks it, with the percent done while it rewrites the file for every browser.",
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
                  { guard: { type: 'isReady', params: ({ event }) => event.output }, target: '#uploadWizard.open.uploaded' },
                  {
                    guard: { type: 'isFailed', params: ({ event }) => event.output },
                    target: '#uploadWizard.open.refused',
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
          description: "The file cannot be a video ('El archivo no es un video válido', or too big): 'Elegir otro archivo'.",
          meta: { qa: 'Archivo rechazado' },
          on: {
            'upload.restart': [
              {
                guard: 'hasSession',
                target: 'choosing',
                actions: [{ type: 'discardUpload', params: ({ context }) => ({ assetId: context.session!.assetId }) }, assign(() => ({ file: null, ...fresh() }))],
              },
              { target: 'choosing', actions: assign(() => ({ file: null, ...fresh() })) },
            ],
          },
        },
        uploaded: {
          description: "Step 3 'Subida completada': 'Confirmar' enabled; the §5 messages under the fields after a failed Confirmar.",
          meta: { qa: 'Subida completada' },
          on: {
            'upload.confirm': [
              {
                guard: 'isInvalidForm',
                actions: assign({ errors: ({ event }) => (event.type === 'upload.confirm' ? validateVideoForm(event.values) : null) }),
              },
              {
                guard: 'hasThumbnail',
                target: '#uploadWizard.saving.thumbnail',
                actions: assign(({ event }) => ({ errors: null, values: event.values, thumbnail: event.thumbnail, subtitles: event.subtitles })),
              },
              {
                target: '#uploadWizard.saving.creating',
                actions: assign(({ event }) => ({ errors: null, values: event.values, thumbnail: null, subtitles: event.subtitles })),
              },
            ],
          },
        },
      },
    },
    saving: {
      description: "Step 3, saving: fields, 'Confirmar' (loading) and 'Cancelar' disabled.",
      meta: { qa: 'Guardando el video' },
      tags: ['busy'],
      initial: 'creating',
      states: {
        thumbnail: {
          description: "PUT of the chosen picture to the session's thumbnail location.",
          meta: { qa: 'Guardando: subiendo la miniatura' },
          invoke: {
            id: 'uploadThumbnail',
            src: 'uploadThumbnail',
            input: ({ context }) => ({
              assetId: context.session!.assetId,
              uploadUrl: context.session!.thumbnail.uploadUrl,
              file: context.thumbnail!,
            }),
            onDone: { target: 'creating' },
            onError: { target: '#uploadWizard.open.uploaded', actions: 'notifySaveFailed' },
          },
        },
        creating: {
          description: 'POST /api/videos with the form and the uploaded asset.',
          meta: { qa: 'Guardando: creando el video' },
          invoke: {
            id: 'createVideo',
            src: 'createVideo',
            input: ({ context }) => ({ assetId: context.session!.assetId, values: context.values! }),
            onDone: [
              // The video exists from here on: its subtitle files go to it (docs/decisions/0124-subtitles-after-confirmar.md).
              {
                guard: 'hasSubtitles',
                target: 'subtitles',
                actions: [assign({ video: ({ event }) => event.output }), { type: 'notifyCreated', params: ({ event }) => event.output }],
              },
              {
                target: '#uploadWizard.created',
                actions: [assign({ video: ({ event }) => event.output }), { type: 'notifyCreated', params: ({ event }) => event.output }],
              },
            ],
            onError: { target: '#uploadWizard.open.uploaded', actions: 'notifySaveFailed' },
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
                target: '#uploadWizard.created',
                actions: assign(({ context, event }) => ({ savedSubtitles: [...context.savedSubtitles, ...event.output.saved], subtitleFailures: [] })),
              },
              {
                target: '#uploadWizard.subtitlesRefused',
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
      description:
        "The video exists, but the server refused some subtitle files: each one's message; 'Reintentar' sends the corrected files, 'Cerrar' leaves them for 'Editar video'.",
      meta: { qa: 'Subtítulos rechazados' },
      on: {
        'upload.retrySubtitles': {
          target: '#uploadWizard.saving.subtitles',
          actions: assign({ subtitles: ({ event }) => event.subtitles }),
        },
        // Nothing is discarded: the video and the files the server stored stay.
        'upload.cancel': { target: 'created' },
      },
    },
    created: {
      description: "The video exists: 'El video se ha creado correctamente', the lists refreshed, the dialog closes.",
      meta: { qa: 'Video creado' },
      type: 'final',
    },
    cancelled: {
      description: 'Cancelled: whatever ran was stopped; the dialog closes.',
      meta: { qa: 'Asistente cancelado' },
      type: 'final',
    },
  },
});
