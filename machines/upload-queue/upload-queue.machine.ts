import { assign, enqueueActions, setup } from 'xstate';
import { isValidVideoForm } from '../video-form/video-form.rules.ts';
import { isVideoFile, uploadFileMachine } from './upload-file.machine.ts';
import type { UploadFileOutput } from './upload-file.types.ts';
import { MAX_FILES, MAX_TRANSFERS } from './upload-queue.rules.ts';
import type {
  FileDoneEvent,
  FileSnapshotEvent,
  QueueFile,
  QueueFileStatus,
  UploadFileSnapshot,
  UploadQueueContext,
  UploadQueueEvent,
  UploadQueueTag,
} from './upload-queue.types.ts';

/** What the queue must know of a file's snapshot (docs/decisions/0129-upload-queue-mirrors-its-files.md). */
export function statusOf(snapshot: UploadFileSnapshot): QueueFileStatus {
  if (snapshot.hasTag('transferring')) return 'transferring';
  if (snapshot.hasTag('busy')) return 'saving';
  if (snapshot.matches({ pending: 'queued' })) return 'queued';
  if (snapshot.matches({ pending: 'processing' })) return 'processing';
  if (snapshot.matches({ pending: 'ready' })) return 'ready';
  return 'stopped';
}

/** A file still on its way to the server (closing the dialog then asks first, R-UPL-18). */
export const isRunning = (file: Pick<QueueFile, 'status'>) => ['queued', 'transferring', 'processing'].includes(file.status);

/** The key of a file's child (its actor id), from the `xstate.snapshot.<key>` / `xstate.done.actor.<key>` event. */
const keyOf = (type: string) => type.replace(/^xstate\.(snapshot|done\.actor)\./, '');

/**
 * 'Subir video' with one file or many (R-UPL-12…19): the files dropped or chosen (up to
 * MAX_FILES; anything but a video refused at once), one `uploadFile` child per file (spawned, each
 * with its own session, transfer, processing, form and saving), MAX_TRANSFERS of them transferring
 * at a time, 'Confirmar todos' confirming every ready file with its form, 'Quitar' per file, and
 * closing (asked first while files are on their way). The queue ends once every file is saved (or
 * removed, with at least one saved), or when it is closed.
 */
export const uploadQueueMachine = setup({
  types: {} as {
    context: UploadQueueContext;
    events: UploadQueueEvent | FileSnapshotEvent | FileDoneEvent;
    tags: UploadQueueTag;
  },
  actors: {
    // Its actors (session, transfer, polls, thumbnail, saving, subtitles) are supplied by the app with .provide().
    uploadFile: uploadFileMachine,
  },
  actions: {
    /** Hands the free transfer slots to the files waiting longest (R-UPL-14): `file.start`, marked transferring at once. */
    grantSlots: enqueueActions(({ context, enqueue }) => {
      let free = MAX_TRANSFERS - context.files.filter((file) => file.status === 'transferring').length;
      if (free <= 0 || !context.files.some((file) => file.status === 'queued')) return;
      const files = context.files.map((file) => {
        if (free <= 0 || file.status !== 'queued') return file;
        free -= 1;
        enqueue.sendTo(file.ref, { type: 'file.start' });
        return { ...file, status: 'transferring' as const };
      });
      enqueue.assign({ files });
    }),
    /** The toast of R-UPL-17: one video, or how many were created. */
    notifyFinished: (_, _params: { count: number }) => {
      throw new Error('notifyFinished is supplied by the app with .provide()');
    },
  },
  guards: {
    isListed: ({ context, event }) => context.files.some((file) => file.key === keyOf(event.type)),
    changesStatus: ({ context, event }) => {
      if (!('snapshot' in event)) return false;
      const file = context.files.find((candidate) => candidate.key === keyOf(event.type));
      return file !== undefined && file.status !== statusOf(event.snapshot);
    },
    isRemovable: ({ context, event }) =>
      event.type === 'queue.remove' && context.files.some((file) => file.key === event.key && file.status !== 'saving'),
    anyRunning: ({ context }) => context.files.some(isRunning),
    anySaving: ({ context }) => context.files.some((file) => file.status === 'saving'),
    allSaved: ({ context }) => context.files.length === 0 && context.saved.length > 0,
  },
}).createMachine({
  id: 'uploadQueue',
  description: "The 'Subir video' dialog: files dropped at once, each uploaded, filled in and confirmed.",
  context: { files: [], nextKey: 1, refused: [], overflow: 0, saved: [] },
  initial: 'open',
  on: {
    // A file's machine ended: saved (it leaves the list, counted) or cancelled (already left it).
    'xstate.done.actor.*': {
      actions: [
        assign(({ context, event }) => {
          const output = (event as FileDoneEvent).output as UploadFileOutput;
          return {
            files: context.files.filter((file) => file.key !== output.key),
            saved: output.video ? [...context.saved, output.video] : context.saved,
          };
        }),
        'grantSlots',
      ],
    },
  },
  states: {
    open: {
      description: "The dropzone, a row per file with its state, its form, 'Cancelar' and 'Confirmar todos'.",
      meta: { qa: "Diálogo «Subir video» abierto" },
      always: { guard: 'allSaved', target: 'finished' },
      on: {
        'queue.add': {
          actions: [
            assign(({ context, event, spawn, self }) => {
              const videos = event.files.filter((file) => isVideoFile(file));
              const room = Math.max(0, MAX_FILES - context.files.length);
              const added: QueueFile[] = videos.slice(0, room).map((file, index) => {
                const key = `file-${context.nextKey + index}`;
                return {
                  key,
                  name: file.name,
                  status: 'queued',
                  ref: spawn('uploadFile', { id: key, input: { key, file, queue: self }, syncSnapshot: true }),
                };
              });
              return {
                files: [...context.files, ...added],
                nextKey: context.nextKey + added.length,
                refused: event.files.filter((file) => !isVideoFile(file)).map((file) => file.name),
                overflow: videos.length - added.length,
              };
            }),
            'grantSlots',
          ],
        },
        'xstate.snapshot.*': {
          guard: 'changesStatus',
          actions: [
            assign({
              files: ({ context, event }) =>
                context.files.map((file) =>
                  file.key === keyOf(event.type) ? { ...file, status: statusOf((event as FileSnapshotEvent).snapshot) } : file,
                ),
            }),
            'grantSlots',
          ],
        },
        'queue.remove': {
          guard: 'isRemovable',
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const file = context.files.find((candidate) => candidate.key === (event as { key: string }).key)!;
              // The child stops what runs and discards the server's copy; its end is then ignored.
              enqueue.sendTo(file.ref, { type: 'file.cancel' });
              enqueue.assign({ files: context.files.filter((candidate) => candidate !== file) });
            }),
            'grantSlots',
          ],
        },
        'queue.confirmAll': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const files = context.files.map((file) => {
              const form = event.forms.find((candidate) => candidate.key === file.key);
              if (!form || file.status !== 'ready') return file;
              enqueue.sendTo(file.ref, { type: 'file.confirm', values: form.values, thumbnail: form.thumbnail, subtitles: form.subtitles });
              // An invalid form stays ready, its messages shown (R-UPL-16); a valid one is saved at once.
              return isValidVideoForm(form.values) ? { ...file, status: 'saving' as const } : file;
            });
            enqueue.assign({ files });
          }),
        },
        'queue.close': [
          { guard: 'anySaving' },
          { guard: 'anyRunning', target: '.askingToClose' },
          { target: 'closed' },
        ],
      },
      initial: 'idle',
      states: {
        idle: {
          description: 'Files are added, transferred, processed and confirmed.',
          meta: { qa: 'Cola de archivos' },
        },
        askingToClose: {
          description: "'¿Cancelar las subidas en curso?': 'Cancelar las subidas' or 'Seguir subiendo'; the transfers go on meanwhile.",
          meta: { qa: '¿Cancelar las subidas en curso?' },
          on: {
            'queue.keep': { target: 'idle' },
            'queue.discard': { target: '#uploadQueue.closed' },
          },
        },
      },
    },
    finished: {
      description: "Every file is saved: the toast ('El video se ha creado correctamente' or '4 videos creados'), the dialog closes.",
      meta: { qa: 'Videos creados' },
      entry: { type: 'notifyFinished', params: ({ context }) => ({ count: context.saved.length }) },
      type: 'final',
    },
    closed: {
      description: "Closed: every file's upload stopped and its server copy discarded; the videos saved stay.",
      meta: { qa: 'Diálogo cerrado' },
      entry: enqueueActions(({ context, enqueue }) => {
        for (const file of context.files) enqueue.sendTo(file.ref, { type: 'file.cancel' });
      }),
      type: 'final',
    },
  },
});

