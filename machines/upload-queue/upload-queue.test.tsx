/**
 * Model-based test of the upload queue (R-UPL-12…19) on the 'Subir video' dialog the app shows:
 * the real queue with the real file machines (spawned, one per file), the app's toasts, and the
 * file machines' actors doubled at the network boundary. Three videos and a text file are dropped
 * at once; every state and transition of the queue is walked, and after each step the dialog is
 * checked as a user sees it (each file's row, the question before closing, the toast) and the
 * doubles as the network sees them (never more than two transfers at a time).
 */
import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastViewport } from '../../src/components/toast-viewport.tsx';
import { createUploadQueueLogic } from '../../src/features/videos/upload/upload.actors.ts';
import { UploadVideoDialog } from '../../src/features/videos/upload/upload-video-dialog.tsx';
import { createQueryClient } from '../../src/lib/query-client.ts';
import { createToastStore } from '../../src/lib/toasts.ts';
import { http, server } from '../../tests/utils/msw.ts';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import {
  createActorDoubles,
  itCoversTheMachine,
  runPath,
  type ActorDoubles,
  type Executors,
  type StateChecks,
} from '../../tests/utils/machine-model.ts';
import { toastMachine } from '../toast/toast.machine.ts';
import { uploadFileMachine } from './upload-file.machine.ts';
import type {
  SaveVideoInput,
  SendFileInput,
  SendSubtitlesInput,
  SendSubtitlesOutput,
  UploadFileEvent,
  UploadSession,
  UploadSessionRequest,
  UploadStatus,
  UploadThumbnailInput,
  Video,
} from './upload-file.types.ts';
import { MAX_FILES, MAX_TRANSFERS } from './upload-queue.rules.ts';
import type { uploadQueueMachine } from './upload-queue.machine.ts';
import {
  fileOf,
  namedFile,
  sessionOf,
  TEXT_FILE,
  uploadQueueModel,
  valuesOf,
  videoOf,
  VIDEOS,
  type UploadQueueModelEvent,
  type UploadQueueSnapshot,
} from './upload-queue.model.test-support.ts';
import type { QueueFileStatus } from './upload-queue.types.ts';

type Snapshot = UploadQueueSnapshot;
type ModelEvent = UploadQueueModelEvent;
// The model (events, filter, state key) is shared with `npm run qa`: upload-queue.model.test-support.ts.
const { events, paths } = uploadQueueModel;

let user: UserEvent;
let doubles: ActorDoubles;
let closed: ReturnType<typeof vi.fn<() => void>>;
/** The uploads the files told the server they gave up (discardUpload), by asset id. */
let discarded: string[];
/** The short descriptions typed so far, per file (the dialog keeps each file's form). */
let typed: Record<string, string>;

function Host({ logic }: { logic: typeof uploadQueueMachine }) {
  const [open, setOpen] = useState(true);
  return open ? (
    <UploadVideoDialog
      logic={logic}
      onClose={() => {
        closed();
        setOpen(false);
      }}
    />
  ) : null;
}

beforeEach(() => {
  user = userEvent.setup({ applyAccept: false });
  doubles = createActorDoubles();
  closed = vi.fn();
  discarded = [];
  typed = {};
  server.use(http.get('/api/etiquetas', ({ response }) => response(200).json([{ id: 2, nombre: 'Reuniones' }])));
  const queryClient = createQueryClient();
  // Toasts stay long enough for any path to read them.
  const toasts = createToastStore(toastMachine.provide({ delays: { toastDuration: 10 * 60_000 } }));
  const app = createUploadQueueLogic({ queryClient, toasts });
  const logic = app.provide({
    actors: {
      uploadFile: uploadFileMachine.provide({
        actions: { discardUpload: (_, { assetId }) => void discarded.push(assetId) },
        actors: {
          requestUploadSession: doubles.promise<UploadSession, UploadSessionRequest>('requestUploadSession'),
          sendFile: doubles.callback<SendFileInput, UploadFileEvent>('sendFile'),
          pollUpload: doubles.promise<UploadStatus, { assetId: string }>('pollUpload'),
          uploadThumbnail: doubles.promise<void, UploadThumbnailInput>('uploadThumbnail'),
          saveVideo: doubles.promise<Video, SaveVideoInput>('saveVideo'),
          sendSubtitles: doubles.promise<SendSubtitlesOutput, SendSubtitlesInput>('sendSubtitles'),
        },
      }),
    },
  }) as typeof uploadQueueMachine;
  renderWithTheme(
    <QueryClientProvider client={queryClient}>
      <Host logic={logic} />
      <ToastViewport store={toasts} />
    </QueryClientProvider>,
  );
});

const dialog = () => screen.getByRole('dialog', { name: 'Subir video' });
const inDialog = () => within(dialog());
const button = (name: string) => inDialog().getByRole('button', { name });
const dropzoneInput = () => inDialog().getByLabelText('Arrastre uno o varios videos aquí o haga clic para elegirlos');
/** A file's name, size and state (an accordion control's title, or the one file's heading). */
const row = (key: string) => dialog().querySelector<HTMLElement>(`[data-file="${fileOf(key).name}"]`)!;
const statusOfRow = (key: string) => row(key).querySelector('[data-status]')!.textContent;
/** Where a file's messages, buttons and form are: its accordion item, or the dialog when it is the only one. */
const item = (key: string) => within(row(key).closest<HTMLElement>('.mantine-Accordion-item') ?? dialog());

async function expand(key: string) {
  const control = row(key).closest<HTMLElement>('.mantine-Accordion-control');
  if (!control || control.getAttribute('aria-expanded') === 'true') return;
  await user.click(control);
  // The panel opens with a transition: its fields are there once it has.
  const panel = control.closest('.mantine-Accordion-item')!.querySelector('.mantine-Accordion-panel')!;
  await waitFor(() => expect(panel).toBeVisible());
}

const forFile = (key: string) => ({ where: (input: SendFileInput) => input.file === fileOf(key) });
const forSession = (key: string) => ({ where: (input: UploadSessionRequest) => input.video?.size === fileOf(key).size });
const forAsset = (key: string) => ({ where: (input: { assetId: string }) => input.assetId === sessionOf(key).assetId });

/** The file's session is granted if it is still being asked for; then its transfer reports `event`. */
async function endTransfer(key: string, event: UploadFileEvent) {
  const asking = doubles.calls<UploadSessionRequest>('requestUploadSession').some((call) => !call.settled && forSession(key).where(call.input));
  if (asking) await doubles.resolve('requestUploadSession', sessionOf(key), forSession(key));
  await doubles.send('sendFile', { type: 'upload.progress', loaded: fileOf(key).size / 2, total: fileOf(key).size, rate: 3.2 * 1024 * 1024 }, forFile(key));
  // R-UPL-13: the row shows its percentage and its rate while it transfers.
  expect(statusOfRow(key)).toBe('Subiendo 50 %');
  expect(row(key)).toHaveTextContent('3,2 MB/s');
  await doubles.send('sendFile', event, forFile(key));
}

const statusOfKey = (snapshot: Snapshot, key: string) => snapshot.context.files.find((file) => file.key === key)?.status;

const executors = {
  'queue.add': async ({ event }) => user.upload(dropzoneInput(), event.files),
  ...(Object.fromEntries(
    ['file-1', 'file-2', 'file-3'].flatMap((key) => [
      [
        `xstate.snapshot.${key}`,
        async ({ state }: { state: Snapshot }) => {
          const to = statusOfKey(state, key);
          const saveRunning = doubles.calls<SaveVideoInput>('saveVideo').some((call) => !call.settled && forAsset(key).where(call.input));
          if (to === 'ready' && saveRunning) await doubles.reject('saveVideo', { status: 409, type: 'conflict' }, forAsset(key));
          else if (to === 'ready') await doubles.resolve('pollUpload', { ...readyStatus(key) }, forAsset(key));
          else if (to === 'processing') await endTransfer(key, { type: 'upload.sent' });
          else if (to === 'stopped') await endTransfer(key, { type: 'upload.failed' });
          else {
            // 'Reintentar': it waits for a slot again (or takes a free one at once).
            await expand(key);
            await user.click(item(key).getByRole('button', { name: /^Reintentar/ }));
          }
        },
      ],
      [`xstate.done.actor.${key}`, async () => doubles.resolve('saveVideo', videoOf(key), forAsset(key))],
    ]),
  ) as unknown as Pick<Executors<Snapshot, ModelEvent>, `xstate.snapshot.file-${1 | 2 | 3}` | `xstate.done.actor.file-${1 | 2 | 3}`>),
  'queue.remove': async ({ event }) => {
    await expand(event.key);
    await user.click(item(event.key).getByRole('button', { name: `Quitar ${fileOf(event.key).name}` }));
  },
  'queue.confirmAll': async ({ event, state }) => {
    const several = state.context.files.length > 1;
    for (const form of event.forms) {
      const status = statusOfKey(state, form.key);
      if (status !== 'saving' && status !== 'ready') continue;
      await expand(form.key);
      const field = item(form.key).getByRole('textbox', { name: 'Descripción corta' });
      if (typed[form.key] !== form.values.descripcionCorta) {
        await user.clear(field);
        if (form.values.descripcionCorta) {
          await user.click(field);
          await user.paste(form.values.descripcionCorta);
        }
        typed[form.key] = form.values.descripcionCorta;
      }
      // R-UPL-15: the title comes from the file's name.
      expect(item(form.key).getByRole('textbox', { name: 'Título' })).toHaveValue(form.values.titulo);
    }
    await user.click(button(several ? 'Confirmar todos' : 'Confirmar'));
  },
  'queue.close': async () => user.click(button('Cancelar')),
  'queue.keep': async () => user.click(screen.getByRole('button', { name: 'Seguir subiendo' })),
  'queue.discard': async () => user.click(screen.getByRole('button', { name: 'Cancelar las subidas' })),
} satisfies Executors<Snapshot, ModelEvent>;

const readyStatus = (key: string): UploadStatus => ({
  assetId: sessionOf(key).assetId,
  thumbnail: sessionOf(key).thumbnail,
  estado: 'ready',
  recibido: fileOf(key).size,
  duracion: 6,
  procesado: null,
  error: null,
});

/** What a row says for each status the queue knows. */
const ROW_TEXT: Record<QueueFileStatus, RegExp> = {
  queued: /^En cola$/,
  transferring: /^(Preparando…|Subiendo \d+ %)$/,
  processing: /^Procesando…$/,
  ready: /^Listo$/,
  saving: /^Guardando…$/,
  stopped: /^Interrumpida$/,
};

/** Transfers running at the network: session requests waiting and PUTs live. */
const liveTransfers = () => doubles.pendingCount('requestUploadSession') + doubles.pendingCount('sendFile');

function expectQueue(snapshot: Snapshot) {
  const { files, refused, saved } = snapshot.context;
  const rows = [...dialog().querySelectorAll('[data-file]')].map((element) => element.getAttribute('data-file'));
  expect(rows).toEqual(files.map((file) => file.name));
  // R-UPL-15: one file shows its form alone, several an accordion under 'Para todos los archivos'.
  if (files.length > 1) expect(inDialog().getByRole('group', { name: 'Para todos los archivos' })).toBeVisible();
  else expect(inDialog().queryByRole('group', { name: 'Para todos los archivos' })).not.toBeInTheDocument();
  for (const file of files) expect(statusOfRow(file.key), file.name).toMatch(ROW_TEXT[file.status]);
  // R-UPL-14: two transfers at a time, the others wait.
  const transferring = files.filter((file) => file.status === 'transferring').length;
  expect(transferring).toBeLessThanOrEqual(MAX_TRANSFERS);
  expect(liveTransfers()).toBe(transferring);
  if (files.some((file) => file.status === 'queued')) expect(transferring).toBe(MAX_TRANSFERS);
  for (const name of refused) expect(inDialog().getByText(`El archivo «${name}» no es un video`)).toBeVisible();
  if (saved.length > 0) expect(inDialog().getByText(saved.length === 1 ? 'Ya se ha creado 1 video.' : `Ya se han creado ${saved.length} videos.`)).toBeVisible();
  if (files.some((file) => file.status === 'ready') && !files.some((file) => file.status === 'saving')) {
    expect(button(files.length > 1 ? 'Confirmar todos' : 'Confirmar')).toBeEnabled();
  }
  // Every removed file's upload was discarded at the server, once.
  expect(new Set(discarded).size).toBe(discarded.length);
}

const states = {
  '#uploadQueue.open.idle': (snapshot) => {
    if (snapshot.context.files.length > 0 || snapshot.context.refused.length > 0) expectQueue(snapshot);
    else {
      expect(dropzoneInput()).toBeInTheDocument();
      expect(button('Confirmar')).toBeDisabled();
    }
    expect(screen.queryByText('¿Cancelar las subidas en curso?')).not.toBeInTheDocument();
  },
  '#uploadQueue.open.askingToClose': (snapshot) => {
    expectQueue(snapshot);
    expect(screen.getByRole('dialog', { name: '¿Cancelar las subidas en curso?' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Seguir subiendo' })).toBeEnabled();
  },
  '#uploadQueue.finished': (snapshot) => {
    expect(screen.queryByRole('dialog', { name: 'Subir video' })).not.toBeInTheDocument();
    expect(closed).toHaveBeenCalledOnce();
    const count = snapshot.context.saved.length;
    // R-UPL-17: one toast for the batch.
    expect(screen.getByRole('alert')).toHaveTextContent(count === 1 ? 'El video se ha creado correctamente' : `${count} videos creados`);
    expect(liveTransfers()).toBe(0);
  },
  '#uploadQueue.closed': () => {
    expect(screen.queryByRole('dialog', { name: 'Subir video' })).not.toBeInTheDocument();
    expect(closed).toHaveBeenCalledOnce();
    // R-UPL-18: every transfer stopped, every session the server made discarded.
    expect(liveTransfers()).toBe(0);
    expect(doubles.calls('sendFile').every((call) => call.stopped)).toBe(true);
    for (const call of doubles.calls('requestUploadSession')) expect(call.settled).toBe(true);
  },
} satisfies StateChecks<Snapshot>;

describe('upload queue model (the Subir video dialog with several files)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await act(async () => {});
      await runPath(path, states, executors);
    });
  }
});

describe('upload queue model coverage', () => {
  itCoversTheMachine(uploadQueueModel.machine, paths, { events, states, executors });
});

describe('upload queue: what the model leaves out', () => {
  it('keeps the first 50 files of a bigger drop and says how many were left out (R-UPL-12)', async () => {
    const many = Array.from({ length: MAX_FILES + 3 }, (_, index) => namedFile(`clip-${index + 1}.mp4`, 'video/mp4', 100 + index));
    await user.upload(dropzoneInput(), many);
    expect(inDialog().getByRole('alert')).toHaveTextContent('Se pueden subir hasta 50 archivos a la vez: se han dejado fuera 3 archivos.');
    expect(dialog().querySelectorAll('[data-file]')).toHaveLength(MAX_FILES);
    expect(doubles.pendingCount('requestUploadSession')).toBe(MAX_TRANSFERS);
  });

  it('one file looks like the single upload: its form at once, titled from its name, and Confirmar (R-UPL-15)', async () => {
    await user.upload(dropzoneInput(), [VIDEOS[0]]);
    expect(inDialog().queryByText('Para todos los archivos')).not.toBeInTheDocument();
    expect(inDialog().queryByRole('button', { name: 'Confirmar todos' })).not.toBeInTheDocument();
    expect(inDialog().getByRole('textbox', { name: 'Título' })).toHaveValue('Reunion anual 2024');
    await doubles.resolve('requestUploadSession', sessionOf('file-1'));
    await doubles.send('sendFile', { type: 'upload.sent' });
    await doubles.resolve('pollUpload', readyStatus('file-1'));
    await user.click(inDialog().getByRole('button', { name: 'Confirmar' }));
    // The short description is missing: the R-ADM-2 message, nothing saved.
    expect(inDialog().getByRole('textbox', { name: 'Descripción corta' })).toHaveAccessibleDescription('* Este campo es obligatorio');
    expect(doubles.pendingCount('saveVideo')).toBe(0);
    await user.type(inDialog().getByRole('textbox', { name: 'Descripción corta' }), 'Resumen');
    await user.click(inDialog().getByRole('button', { name: 'Confirmar' }));
    expect(doubles.inputs('saveVideo')).toEqual([{ assetId: sessionOf('file-1').assetId, values: { ...valuesOf('file-1', 'Resumen') } }]);
    await doubles.resolve('saveVideo', videoOf('file-1'));
    expect(await screen.findByRole('alert')).toHaveTextContent('El video se ha creado correctamente');
    expect(closed).toHaveBeenCalledOnce();
  });

  it("the batch's tags and visibility go to every file unless the file sets its own (R-UPL-15)", async () => {
    await user.upload(dropzoneInput(), [VIDEOS[0], VIDEOS[1]]);
    const batch = within(inDialog().getByRole('group', { name: 'Para todos los archivos' }));
    await user.click(batch.getByRole('switch', { name: 'Visible para todos' }));
    await user.click(batch.getByRole('combobox', { name: 'Etiquetas' }));
    await user.click(await screen.findByRole('option', { name: 'Reuniones' }));
    // The second file is made visible again on its own.
    await expand('file-2');
    await user.click(item('file-2').getByRole('switch', { name: 'Visible para todos' }));
    for (const key of ['file-1', 'file-2']) {
      await endTransfer(key, { type: 'upload.sent' });
      await doubles.resolve('pollUpload', readyStatus(key), forAsset(key));
      await expand(key);
      await user.type(item(key).getByRole('textbox', { name: 'Descripción corta' }), 'Resumen');
    }
    await user.click(button('Confirmar todos'));
    expect(doubles.inputs('saveVideo')).toEqual([
      { assetId: sessionOf('file-1').assetId, values: { ...valuesOf('file-1', 'Resumen'), tags: [2], isVisible: false } },
      { assetId: sessionOf('file-2').assetId, values: { ...valuesOf('file-2', 'Resumen'), tags: [2], isVisible: true } },
    ]);
  });

  it('a file refused by the server shows its message while the others go on (R-UPL-16)', async () => {
    await user.upload(dropzoneInput(), [VIDEOS[0], VIDEOS[1], TEXT_FILE]);
    expect(inDialog().getByText('El archivo «notas.txt» no es un video')).toBeVisible();
    await doubles.resolve('requestUploadSession', sessionOf('file-1'), forSession('file-1'));
    await doubles.send('sendFile', { type: 'upload.refused', reason: 'not-a-video' }, forFile('file-1'));
    expect(statusOfRow('file-1')).toBe('Error');
    await expand('file-1');
    expect(item('file-1').getByText('El archivo no es un video válido')).toBeVisible();
    await doubles.resolve('requestUploadSession', sessionOf('file-2'), forSession('file-2'));
    await doubles.send('sendFile', { type: 'upload.sent' }, forFile('file-2'));
    expect(statusOfRow('file-2')).toBe('Procesando…');
    await user.click(item('file-1').getByRole('button', { name: `Quitar ${fileOf('file-1').name}` }));
    expect(discarded).toEqual([sessionOf('file-1').assetId]);
    expect(dialog().querySelector(`[data-file="${fileOf('file-1').name}"]`)).toBeNull();
  });

  it('closing with nothing on its way closes at once, without the question (R-UPL-18)', async () => {
    await user.upload(dropzoneInput(), [VIDEOS[0]]);
    await doubles.resolve('requestUploadSession', sessionOf('file-1'));
    await doubles.send('sendFile', { type: 'upload.failed' });
    await user.click(button('Cerrar'));
    expect(screen.queryByText('¿Cancelar las subidas en curso?')).not.toBeInTheDocument();
    expect(closed).toHaveBeenCalledOnce();
    expect(discarded).toEqual([sessionOf('file-1').assetId]);
  });
});
