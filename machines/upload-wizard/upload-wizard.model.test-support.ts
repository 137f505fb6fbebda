/**
 * The QA model of the upload wizard ('Subir video', R-UPL-1): the user's steps, the
 * transfer's reports, and every answer of the five actors at the network boundary (upload session,
 * status polls and their delay, thumbnail, creation); each refusal must be shown. Shared by
 * upload-wizard.test.tsx and `npm run qa` (tests/qa), where the browser paths give the answers with
 * the real server.
 */
import type { SnapshotFrom } from 'xstate';
import {
  defineQaModel,
  failureSentence,
  type AfterEvent,
  type DoneEvent,
  type ErrorEvent,
  type EventDescriptions,
} from '../../tests/utils/machine-model.ts';
import type { VideoFormValues } from '../video-form/video-form.rules.ts';
import { uploadWizardMachine } from './upload-wizard.machine.ts';
import type {
  RefusalReason,
  SendSubtitlesOutput,
  SubtitleFile,
  UploadSession,
  UploadStatus,
  UploadWizardEvent,
  Video,
} from './upload-wizard.types.ts';

/** A File whose JSON (the model's key of events and states) is its name, type and size. */
function namedFile(name: string, type: string, size: number): File {
  const file = new File([new Uint8Array(size)], name, { type });
  return Object.assign(file, { toJSON: () => ({ name, type, size }) });
}

export const VIDEO_FILE = namedFile('reunion-anual.mp4', 'video/mp4', 2000);
export const TEXT_FILE = namedFile('notas.txt', 'text/plain', 12);
export const PICTURE = namedFile('portada.png', 'image/png', 64);
/** English captions (the language is in the name), and the same corrected after the server refused them. */
export const SUBTITLES_EN = namedFile('reunion-anual.en.srt', '', 96);
export const SUBTITLES_EN_FIXED = namedFile('reunion-anual-corregido.en.vtt', '', 88);
export const WITH_SUBTITLES: SubtitleFile[] = [{ idioma: 'en', file: SUBTITLES_EN }];
export const SUBTITLES_SAVED: SendSubtitlesOutput = { saved: ['en'], failures: [] };
export const SUBTITLES_REFUSED: SendSubtitlesOutput = {
  saved: [],
  failures: [{ idioma: 'en', fileName: SUBTITLES_EN.name, status: 400, type: 'invalid-subtitles', detail: 'line 3: malformed timing «00:01:xx,000 --> 00:01:02,000» (expected such as «00:00:01,000 --> 00:00:04,000»)' }],
};
export const SESSION: UploadSession = {
  assetId: 'asset-upload-0001',
  video: { uploadUrl: '/api/uploads/asset-upload-0001/video?expires=1&signature=v' },
  thumbnail: { uploadUrl: '/api/uploads/asset-upload-0001/thumbnail?expires=1&signature=t' },
};
export const status = (estado: UploadStatus['estado']): UploadStatus => ({
  assetId: SESSION.assetId,
  thumbnail: SESSION.thumbnail,
  estado,
  recibido: VIDEO_FILE.size,
  duracion: estado === 'ready' ? 6 : null,
  procesado: estado === 'processing' ? 40 : null,
  error: estado === 'failed' ? 'no video stream' : null,
});
export const VALID: VideoFormValues = {
  titulo: 'Reunión anual',
  descripcionCorta: 'Resumen de la reunión anual',
  descripcion: '',
  tags: [2],
  isVisible: false,
};
/** Each field fails a rule: the title is missing, the short description too short, the long one too. */
export const INVALID: VideoFormValues = { titulo: '', descripcionCorta: 'ab', descripcion: 'x', tags: [], isVisible: true };
export const CREATED: Video = {
  id: 41,
  idExterno: SESSION.assetId,
  titulo: VALID.titulo,
  descripcion: null,
  descripcionCorta: VALID.descripcionCorta,
  duracion: 6,
  puntuacionMedia: 0,
  puntuacion: null,
  favorito: false,
  visto: false,
  fechaAlta: '2026-11-22T18:00:00.000Z',
  urlThumbnail: null,
  urlPreview: null,
  urlHls: null,
  urlStoryboard: null,
  idiomasSubtitulos: [],
  capitulos: [],
  urlVideo: '/api/media/asset-upload-0001/video.mp4?expires=1&signature=s',
  etiquetas: [{ id: 2, nombre: 'Reuniones' }],
  isVisible: false,
  organizacionId: null,
  nombreUsuarioAlta: 'root',
  posicion: null,
};
export const SERVER_ERROR = { status: 503, type: 'service-unavailable' };

export type UploadWizardSnapshot = SnapshotFrom<typeof uploadWizardMachine>;
export type UploadWizardModelEvent =
  | UploadWizardEvent
  | DoneEvent<'requestUploadSession', UploadSession>
  | ErrorEvent<'requestUploadSession'>
  | DoneEvent<'pollUpload', UploadStatus>
  | ErrorEvent<'pollUpload'>
  | AfterEvent<'pollInterval'>
  | DoneEvent<'uploadThumbnail', undefined>
  | ErrorEvent<'uploadThumbnail'>
  | DoneEvent<'createVideo', Video>
  | ErrorEvent<'createVideo'>
  | DoneEvent<'sendSubtitles', SendSubtitlesOutput>;

const events: UploadWizardModelEvent[] = [
  { type: 'upload.choose', file: TEXT_FILE },
  { type: 'upload.choose', file: VIDEO_FILE },
  { type: 'xstate.done.actor.requestUploadSession', output: SESSION },
  { type: 'xstate.error.actor.requestUploadSession', error: SERVER_ERROR },
  { type: 'xstate.error.actor.requestUploadSession', error: { status: 415, type: 'unsupported-media-type' } },
  { type: 'upload.retry' },
  { type: 'upload.restart' },
  { type: 'upload.cancel' },
  { type: 'upload.progress', loaded: 840, total: 2000, rate: 3.2 * 1024 * 1024 },
  { type: 'upload.sent' },
  { type: 'upload.failed' },
  { type: 'upload.refused', reason: 'not-a-video' },
  { type: 'upload.refused', reason: 'too-large' },
  { type: 'xstate.done.actor.pollUpload', output: status('processing') },
  { type: 'xstate.done.actor.pollUpload', output: status('ready') },
  { type: 'xstate.done.actor.pollUpload', output: status('failed') },
  { type: 'xstate.error.actor.pollUpload', error: SERVER_ERROR },
  { type: 'xstate.after.pollInterval' },
  { type: 'upload.confirm', values: INVALID, thumbnail: null, subtitles: [] },
  { type: 'upload.confirm', values: VALID, thumbnail: null, subtitles: [] },
  { type: 'upload.confirm', values: VALID, thumbnail: PICTURE, subtitles: [] },
  { type: 'upload.confirm', values: VALID, thumbnail: null, subtitles: WITH_SUBTITLES },
  { type: 'xstate.done.actor.sendSubtitles', output: SUBTITLES_SAVED },
  { type: 'xstate.done.actor.sendSubtitles', output: SUBTITLES_REFUSED },
  { type: 'upload.retrySubtitles', subtitles: [{ idioma: 'en', file: SUBTITLES_EN_FIXED }] },
  { type: 'xstate.done.actor.uploadThumbnail', output: undefined },
  { type: 'xstate.error.actor.uploadThumbnail', error: { status: 415, type: 'unsupported-media-type' } },
  { type: 'xstate.done.actor.createVideo', output: CREATED },
  { type: 'xstate.error.actor.createVideo', error: { status: 409, type: 'conflict' } },
];

const refusals: Record<RefusalReason, string> = {
  'not-a-video': 'el servidor rechaza el archivo: no es un video (415)',
  'too-large': 'el servidor rechaza el archivo: supera el tamaño máximo (413)',
  'invalid-media': 'el servidor no encuentra un video válido en el archivo',
};

const pollSentences: Record<UploadStatus['estado'], string> = {
  pending: 'el servidor responde que la subida aún no ha empezado',
  receiving: 'el servidor responde que el archivo aún no ha llegado entero',
  processing: 'el servidor responde que sigue procesando el video',
  ready: 'el servidor responde que el video está listo',
  failed: 'el servidor responde que el archivo no es un video válido',
};

export const uploadWizardModel = defineQaModel({
  name: 'upload-wizard',
  title: "El asistente 'Subir video'",
  machine: uploadWizardMachine,
  events,
  /** The model state: where the wizard is and what it shows, not how far the bytes went (one self-loop). */
  stateKey: ({ value, context }) => ({
    value,
    file: context.file?.name ?? null,
    refusedFile: context.refusedFile,
    refusal: context.refusal,
    errors: context.errors !== null,
    // A refusal before the server made an upload (none to discard) or after (discarded on leaving).
    session: context.session !== null,
    subtitles: context.subtitles.map((entry) => entry.file.name),
    subtitleFailures: context.subtitleFailures.length,
  }),
  // Each refusal's message is shown by some path.
  extraFeatures: (snapshot) => (snapshot.matches({ open: 'refused' }) ? [`refused ${snapshot.context.refusal}`] : []),
  eventDescriptions: {
    'upload.choose': ({ file }) =>
      file.type.startsWith('video/') ? `el usuario elige el video '${file.name}'` : `el usuario elige un archivo que no es un video ('${file.name}')`,
    'xstate.done.actor.requestUploadSession': 'el servidor prepara la subida (POST /api/uploads)',
    'xstate.error.actor.requestUploadSession': ({ error }) => `al preparar la subida, ${failureSentence(error)}`,
    'upload.retry': "el usuario pulsa 'Reintentar'",
    'upload.restart': "el usuario pulsa 'Elegir otro archivo'",
    'upload.cancel': "el usuario pulsa 'Cancelar'",
    'upload.progress': ({ loaded, total }) => `la transferencia avanza (${Math.round((loaded / total) * 100)} %)`,
    'upload.sent': 'el archivo llega entero al servidor',
    'upload.failed': 'la red corta la transferencia',
    'upload.refused': ({ reason }) => refusals[reason],
    'xstate.done.actor.pollUpload': ({ output }) => pollSentences[output.estado],
    'xstate.error.actor.pollUpload': ({ error }) => `al consultar el procesado, ${failureSentence(error)}`,
    'xstate.after.pollInterval': 'pasa el intervalo hasta la siguiente consulta',
    'upload.confirm': ({ values, thumbnail, subtitles }) =>
      values.titulo.trim()
        ? `el usuario rellena el formulario${thumbnail ? ', elige una miniatura' : ''}${subtitles.length > 0 ? `, añade los subtítulos '${subtitles.map((entry) => entry.file.name).join("', '")}'` : ''} y pulsa 'Confirmar'`
        : "el usuario pulsa 'Confirmar' con el formulario mal rellenado (sin título, descripciones demasiado cortas)",
    'xstate.done.actor.uploadThumbnail': 'el servidor guarda la miniatura',
    'xstate.error.actor.uploadThumbnail': ({ error }) => `al subir la miniatura, ${failureSentence(error)}`,
    'xstate.done.actor.createVideo': 'el servidor crea el video (POST /api/videos)',
    'xstate.error.actor.createVideo': ({ error }) => `al crear el video, ${failureSentence(error)}`,
    'xstate.done.actor.sendSubtitles': ({ output }) =>
      output.failures.length === 0
        ? 'el servidor guarda los subtítulos (PUT /api/videos/{id}/subtitulos/{idioma})'
        : 'el servidor rechaza los subtítulos: el archivo no es válido (400 invalid-subtitles)',
    'upload.retrySubtitles': ({ subtitles }) =>
      `el usuario sustituye el archivo de subtítulos por '${subtitles.map((entry) => entry.file.name).join("', '")}' y pulsa 'Reintentar'`,
  } satisfies EventDescriptions<UploadWizardModelEvent>,
});
