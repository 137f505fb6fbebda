/**
 * The QA model of the upload queue ('Subir video' with several files, R-UPL-12…19): three videos
 * and a text file dropped at once, two transferring at a time, each file's transfer ending,
 * breaking off and resumed, processed, confirmed together, a saving refused, a file removed, and
 * the dialog closed (asked first while files are on their way). What each file reports reaches the
 * queue as its snapshot (docs/decisions/0129-upload-queue-mirrors-its-files.md); the model gives
 * those snapshots explicitly, the jsdom test causes them with the doubles of the file's actors.
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, type DoneEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import type { VideoFormValues } from '../video-form/video-form.rules.ts';
import { startingContext, uploadFileMachine } from './upload-file.machine.ts';
import type { UploadFileOutput, UploadSession, Video } from './upload-file.types.ts';
import { uploadQueueMachine } from './upload-queue.machine.ts';
import type { QueueFileForm, QueueFileStatus, UploadFileSnapshot, UploadQueueEvent } from './upload-queue.types.ts';

/** A File whose JSON (the model's key of events and states) is its name, type and size. */
export function namedFile(name: string, type: string, size: number): File {
  const file = new File([new Uint8Array(size)], name, { type });
  return Object.assign(file, { toJSON: () => ({ name, type, size }) });
}

/** Three videos (told apart by their sizes, which is all an upload session request carries) and a text file. */
export const VIDEOS = [
  namedFile('reunion_anual-2024.mp4', 'video/mp4', 1000),
  namedFile('formacion.mp4', 'video/mp4', 2000),
  namedFile('bienvenida.mp4', 'video/mp4', 3000),
] as const;
export const TEXT_FILE = namedFile('notas.txt', 'text/plain', 12);
export const KEYS = ['file-1', 'file-2', 'file-3'] as const;
export type FileKey = (typeof KEYS)[number];
export const fileOf = (key: string) => VIDEOS[KEYS.indexOf(key as FileKey)]!;

export const sessionOf = (key: string): UploadSession => ({
  assetId: `asset-${key}`,
  video: { uploadUrl: `/api/uploads/asset-${key}/video?expires=1&signature=v` },
  thumbnail: { uploadUrl: `/api/uploads/asset-${key}/thumbnail?expires=1&signature=t` },
});

/** Each file's form as the person fills it: its default title, a short description. */
export const valuesOf = (key: string, descripcionCorta = `Resumen de ${fileOf(key).name}`): VideoFormValues => ({
  titulo: ['Reunion anual 2024', 'Formacion', 'Bienvenida'][KEYS.indexOf(key as FileKey)]!,
  descripcionCorta,
  descripcion: '',
  tags: [],
  isVisible: true,
});
export const formOf = (key: string, values = valuesOf(key)): QueueFileForm => ({ key, values, thumbnail: null, subtitles: [] });

export const videoOf = (key: string): Video => ({
  id: 40 + KEYS.indexOf(key as FileKey),
  idExterno: sessionOf(key).assetId,
  titulo: valuesOf(key).titulo,
  descripcion: null,
  descripcionCorta: valuesOf(key).descripcionCorta,
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
  urlVideo: `/api/media/asset-${key}/video.mp4?expires=1&signature=s`,
  etiquetas: [],
  isVisible: true,
  organizacionId: null,
  nombreUsuarioAlta: 'root',
  posicion: null,
});

/** The file's snapshot in one of its states (a real snapshot of its machine: the queue reads its tags). */
function fileSnapshot(key: string, value: Record<string, unknown> | string): UploadFileSnapshot {
  const snapshot = uploadFileMachine.resolveState({
    value: value as never,
    context: startingContext({ key, file: fileOf(key), queue: null }),
  });
  // The model's key of the event: the file's state, not its whole context.
  return Object.assign(snapshot, { toJSON: () => ({ key, value }) });
}

/** The file states the model moves a file through, by the queue's status they show. */
const FILE_STATES: Array<{ status: QueueFileStatus; value: Record<string, unknown> }> = [
  { status: 'queued', value: { pending: 'queued' } },
  { status: 'processing', value: { pending: { processing: 'checking' } } },
  { status: 'ready', value: { pending: 'ready' } },
  { status: 'stopped', value: { pending: 'interrupted' } },
];

/** Which status each reported one comes from (what the person or the network did to the file). */
export const REPORTED_FROM: Record<QueueFileStatus, QueueFileStatus[]> = {
  queued: ['stopped'],
  processing: ['transferring'],
  ready: ['processing', 'saving'],
  stopped: ['transferring'],
  transferring: [],
  saving: [],
};

type FileReport = { type: `xstate.snapshot.${FileKey}`; snapshot: UploadFileSnapshot };
type FileSaved = DoneEvent<FileKey, UploadFileOutput>;
export type UploadQueueModelEvent = UploadQueueEvent | FileReport | FileSaved;
export type UploadQueueSnapshot = SnapshotFrom<typeof uploadQueueMachine>;

const events: UploadQueueModelEvent[] = [
  { type: 'queue.add', files: [...VIDEOS, TEXT_FILE] },
  ...KEYS.flatMap((key): UploadQueueModelEvent[] => [
    ...FILE_STATES.map(({ value }): FileReport => ({ type: `xstate.snapshot.${key}`, snapshot: fileSnapshot(key, value) })),
    { type: `xstate.done.actor.${key}`, output: { key, video: videoOf(key) }, actorId: key } as FileSaved,
    { type: 'queue.remove', key },
  ]),
  { type: 'queue.confirmAll', forms: KEYS.map((key) => formOf(key)) },
  // The first file's short description left empty: it stays with its messages, the others are saved.
  { type: 'queue.confirmAll', forms: [formOf('file-1', valuesOf('file-1', '')), formOf('file-2'), formOf('file-3')] },
  { type: 'queue.close' },
  { type: 'queue.keep' },
  { type: 'queue.discard' },
];

const statusOfKey = (snapshot: UploadQueueSnapshot, key: string) => snapshot.context.files.find((file) => file.key === key)?.status;

/** What can happen to a file from where it stands (a transfer ends only while it transfers, …). */
export function queueEventPossible(snapshot: UploadQueueSnapshot, event: UploadQueueModelEvent): boolean {
  // While the question is shown, the person answers it; the network goes on.
  if (snapshot.matches({ open: 'askingToClose' }) && event.type.startsWith('queue.') && !['queue.keep', 'queue.discard'].includes(event.type)) return false;
  if (event.type === 'queue.add') return snapshot.context.files.length === 0 && snapshot.context.saved.length === 0 && snapshot.context.refused.length === 0;
  const report = /^xstate\.snapshot\.(.+)$/.exec(event.type);
  if (report) {
    const from = statusOfKey(snapshot, report[1]!);
    const to = FILE_STATES.find(({ value }) => JSON.stringify(value) === JSON.stringify((event as FileReport).snapshot.value))!.status;
    return from !== undefined && REPORTED_FROM[to].includes(from);
  }
  const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type);
  if (done) return statusOfKey(snapshot, done[1]!) === 'saving';
  if (event.type === 'queue.remove') return statusOfKey(snapshot, event.key) !== undefined && statusOfKey(snapshot, event.key) !== 'saving';
  // Confirmar todos is pressed when some file is ready (the button is disabled otherwise).
  if (event.type === 'queue.confirmAll') return snapshot.context.files.some((file) => file.status === 'ready');
  return true;
}

const statusSentence: Record<string, string> = {
  queued: "el usuario pulsa 'Reintentar' (espera turno para reanudar la subida)",
  processing: 'el archivo llega entero al servidor, que empieza a procesarlo',
  ready: 'el servidor responde que el video está listo',
  stopped: 'la red corta la transferencia',
};

const fileName = (key: string) => `'${fileOf(key).name}'`;

export const uploadQueueModel = defineQaModel({
  name: 'upload-queue',
  title: "La cola de 'Subir video' (varios archivos a la vez)",
  machine: uploadQueueMachine,
  events,
  filterEvents: queueEventPossible,
  /** The model state: where the dialog is and where each file stands, not how far its bytes went. */
  stateKey: ({ value, context }) => ({
    value,
    files: context.files.map((file) => `${file.key}:${file.status}`),
    refused: context.refused,
    saved: context.saved.length,
  }),
  eventDescriptions: {
    'queue.add': ({ files }) => `el usuario suelta a la vez ${files.map((file) => `'${file.name}'`).join(', ')}`,
    ...(Object.fromEntries(
      KEYS.flatMap((key) => [
        [`xstate.snapshot.${key}`, (event: FileReport) => `${fileName(key)}: ${statusSentence[statusOfFileSnapshot(event.snapshot)]}`],
        [`xstate.done.actor.${key}`, `el servidor crea el video de ${fileName(key)} (POST /api/videos)`],
      ]),
    ) as Record<FileReport['type'], (event: FileReport) => string> & Record<FileSaved['type'], string>),
    'queue.remove': ({ key }) => `el usuario pulsa 'Quitar' en ${fileName(key)}`,
    'queue.confirmAll': ({ forms }) =>
      forms.every((form) => form.values.descripcionCorta)
        ? "el usuario rellena los formularios y pulsa 'Confirmar todos'"
        : `el usuario pulsa 'Confirmar todos' sin la descripción corta de ${fileName(forms[0]!.key)}`,
    'queue.close': "el usuario pulsa 'Cancelar'",
    'queue.keep': "el usuario responde 'Seguir subiendo'",
    'queue.discard': "el usuario responde 'Cancelar las subidas'",
  } satisfies EventDescriptions<UploadQueueModelEvent>,
});

function statusOfFileSnapshot(snapshot: UploadFileSnapshot): string {
  return FILE_STATES.find(({ value }) => JSON.stringify(value) === JSON.stringify(snapshot.value))!.status;
}
