/**
 * Model-based test of the upload wizard (R-UPL-1) on the 'Subir video' dialog the app
 * shows: the real machine with the app's toasts, its five actors doubled (the network boundary), its
 * poll delay on a simulated clock. Every state and transition of the machine is walked; after each
 * step the dialog is checked as a user sees it, and the doubles as the network sees them.
 */
import { useState } from 'react';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastViewport } from '../../src/components/toast-viewport.tsx';
import { createUploadWizardLogic } from '../../src/features/videos/upload/upload.actors.ts';
import { UploadVideoDialog } from '../../src/features/videos/upload/upload-video-dialog.tsx';
import { createQueryClient } from '../../src/lib/query-client.ts';
import { createToastStore } from '../../src/lib/toasts.ts';
import { http, server } from '../../tests/utils/msw.ts';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import {
  createActorDoubles,
  createTestClock,
  itCoversTheMachine,
  runPath,
  type ActorDoubles,
  type Executors,
  type StateChecks,
  type TestClock,
} from '../../tests/utils/machine-model.ts';
import { toastMachine } from '../toast/toast.machine.ts';
import type { VideoFormValues } from '../video-form/video-form.rules.ts';
import { percentOf, POLL_INTERVAL_MS, uploadWizardMachine } from './upload-wizard.machine.ts';
import {
  CREATED,
  PICTURE,
  SESSION,
  status,
  uploadWizardModel,
  VALID,
  VIDEO_FILE,
  type UploadWizardModelEvent,
  type UploadWizardSnapshot,
} from './upload-wizard.model.test-support.ts';
import type {
  CreateVideoInput,
  SendFileInput,
  SendSubtitlesInput,
  SendSubtitlesOutput,
  SubtitleFile,
  UploadSession,
  UploadSessionRequest,
  UploadStatus,
  UploadThumbnailInput,
  UploadWizardEvent,
  Video,
} from './upload-wizard.types.ts';

// ---- data -------------------------------------------------------------------------------------------

const TAGS = [
  { id: 1, nombre: 'Formación' },
  { id: 2, nombre: 'Reuniones' },
];

// ---- the model ---------------------------------------------------------------------------------------

type Snapshot = UploadWizardSnapshot;
type ModelEvent = UploadWizardModelEvent;
// The model (events, state key, features) is shared with `npm run qa`: upload-wizard.model.test-support.ts.
const { events, paths } = uploadWizardModel;

// ---- the rendered dialog -------------------------------------------------------------------------------

let user: UserEvent;
let doubles: ActorDoubles;
let time: TestClock;
let closed: ReturnType<typeof vi.fn<() => void>>;
/** The toasts the user must have seen so far. */
let toastsSeen: string[];
/** Which transfer the wizard must be running: the first one, or one resumed after an interruption. */
let transfer: 'first' | 'resumed';
/** The form as the user left it (the dialog keeps it across failures). */
let form: { values: VideoFormValues; thumbnail: File | null; subtitles: SubtitleFile[] };

function Host({ logic }: { logic: typeof uploadWizardMachine }) {
  const [open, setOpen] = useState(true);
  return open ? (
    <UploadVideoDialog
      logic={logic}
      clock={time.clock}
      onClose={() => {
        closed();
        setOpen(false);
      }}
    />
  ) : null;
}

/** The uploads the wizard told the server it gave up (its discardUpload action), in order. */
let discarded: string[] = [];
/** At the previous state of the path: whether the wizard held an upload session, and the discards then. */
let lastState = { hadSession: false, discards: 0 };

/**
 * Every state's check, plus: an upload given up is discarded on the server exactly once, when the
 * wizard leaves it ('Cancelar' to cancelled, 'Elegir otro archivo' back to choosing), and never otherwise.
 */
function checkingDiscards(checks: StateChecks<Snapshot>): StateChecks<Snapshot> {
  return Object.fromEntries(
    Object.entries(checks).map(([id, check]) => [
      id,
      async (snapshot: Snapshot) => {
        const leaves = id === '#uploadWizard.cancelled' || id === '#uploadWizard.open.choosing';
        expect(discarded.length - lastState.discards, 'DELETE /api/uploads/{id} of the upload given up').toBe(leaves && lastState.hadSession ? 1 : 0);
        expect(discarded.every((assetId) => assetId === SESSION.assetId)).toBe(true);
        await check(snapshot);
        lastState = { hadSession: snapshot.context.session !== null, discards: discarded.length };
      },
    ]),
  ) as StateChecks<Snapshot>;
}

beforeEach(() => {
  user = userEvent.setup({ applyAccept: false });
  doubles = createActorDoubles();
  time = createTestClock();
  closed = vi.fn();
  toastsSeen = [];
  transfer = 'first';
  form = { values: { titulo: '', descripcionCorta: '', descripcion: '', tags: [], isVisible: true }, thumbnail: null, subtitles: [] };
  server.use(http.get('/api/etiquetas', ({ response }) => response(200).json(TAGS)));
  const queryClient = createQueryClient();
  // Toasts stay long enough for any path to read them all.
  const toasts = createToastStore(toastMachine.provide({ delays: { toastDuration: 10 * 60_000 } }));
  discarded = [];
  lastState = { hadSession: false, discards: 0 };
  const logic = createUploadWizardLogic({ queryClient, toasts }).provide({
    actions: { discardUpload: (_, { assetId }) => void discarded.push(assetId) },
    actors: {
      requestUploadSession: doubles.promise<UploadSession, UploadSessionRequest>('requestUploadSession'),
      sendFile: doubles.callback<SendFileInput, UploadWizardEvent>('sendFile'),
      pollUpload: doubles.promise<UploadStatus, { assetId: string }>('pollUpload'),
      uploadThumbnail: doubles.promise<void, UploadThumbnailInput>('uploadThumbnail'),
      createVideo: doubles.promise<Video, CreateVideoInput>('createVideo'),
      sendSubtitles: doubles.promise<SendSubtitlesOutput, SendSubtitlesInput>('sendSubtitles'),
    },
  });
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
const field = (name: string) => inDialog().getByRole('textbox', { name });
const progressBar = () => inDialog().getByRole('progressbar', { name: 'Progreso de la subida' });
const thumbnailInput = () => dialog().querySelector<HTMLInputElement>('input[type="file"][accept*="image"]')!;
/** 'Añadir subtítulos' (several files at once) and a row's 'Sustituir' (Mantine's FileButton inputs). */
const addSubtitlesInput = () => dialog().querySelector<HTMLInputElement>('input[type="file"][multiple][accept*=".vtt"]')!;
const replaceSubtitlesInput = (row: number) =>
  dialog().querySelectorAll<HTMLInputElement>('input[type="file"]:not([multiple])[accept*=".vtt"]')[row]!;
const STEPS = ['Elegir archivo', 'Preparar subida', 'Subiendo', 'Subida completada'];

/** The stepper shows step `step` (0–3) as the current one, the earlier ones as done. */
function expectStep(step: number) {
  for (const [index, label] of STEPS.entries()) {
    const item = inDialog().getByText(label).closest('button')!;
    if (index < step) expect(item, label).toHaveAttribute('data-completed');
    else if (index === step) expect(item, label).toHaveAttribute('data-progress');
    else expect(item, label).not.toHaveAttribute('data-progress');
  }
}

function expectButtons({ confirm, cancel = true }: { confirm: boolean; cancel?: boolean }) {
  if (confirm) expect(button('Confirmar')).toBeEnabled();
  else expect(button('Confirmar')).toBeDisabled();
  if (cancel) expect(button('Cancelar')).toBeEnabled();
  else expect(button('Cancelar')).toBeDisabled();
  // The dialog's close button (and Escape) cancel too, so it goes while the video is being saved.
  if (cancel) expect(button('Cerrar')).toBeEnabled();
  else expect(inDialog().queryByRole('button', { name: 'Cerrar' })).not.toBeInTheDocument();
}

function expectToasts() {
  expect(screen.queryAllByRole('alert').filter((alert) => !dialog().contains(alert)).map((alert) => alert.textContent)).toEqual(
    toastsSeen,
  );
}

/** The progress bar, the percentage and (while sending) the rate. */
function expectProgress(snapshot: Snapshot, { rate }: { rate: boolean }) {
  const percent = percentOf(snapshot.context);
  expect(progressBar()).toHaveAttribute('aria-valuenow', String(percent));
  expect(inDialog().getByText(`${percent} %`)).toBeVisible();
  if (rate && snapshot.context.rate > 0) expect(inDialog().getByText('3,2 MB/s')).toBeVisible();
  else expect(inDialog().queryByText(/\/s$/)).not.toBeInTheDocument();
}

/** 'Procesando el video…', with the percent of the server's rewrite and its bar once an answer gave one. */
function expectProcessing(snapshot: Snapshot) {
  const { processed } = snapshot.context;
  const bar = inDialog().queryByRole('progressbar', { name: 'Progreso del procesado' });
  if (processed === null) {
    expect(inDialog().getByText('Procesando el video…')).toBeVisible();
    expect(bar).not.toBeInTheDocument();
  } else {
    expect(inDialog().getByText(`Procesando el video… ${processed} %`)).toBeVisible();
    expect(bar).toHaveAttribute('aria-valuenow', String(processed));
  }
}

/** Nothing runs: every request answered or aborted, no transfer. */
function expectNothingRunning(except: string[] = []) {
  for (const name of ['requestUploadSession', 'pollUpload', 'uploadThumbnail', 'createVideo', 'sendFile', 'sendSubtitles']) {
    if (!except.includes(name)) expect(doubles.pendingCount(name), name).toBe(0);
  }
}

/** The R-ADM-2 messages under the fields: those of the values last confirmed, when that Confirmar failed. */
function expectFieldMessages(snapshot: Snapshot) {
  const messages = [
    '* Este campo es obligatorio',
    '* Este campo no puede contener menos de 3 carácteres',
    '* Si este campo es informado, no puede contener menos de 3 carácteres',
  ];
  if (snapshot.context.errors) {
    expect(field('Título')).toHaveAccessibleDescription(messages[0]);
    expect(field('Descripción corta')).toHaveAccessibleDescription(messages[1]);
    expect(field('Descripción')).toHaveAccessibleDescription(messages[2]);
  } else {
    for (const message of messages) expect(inDialog().queryByText(message)).not.toBeInTheDocument();
  }
}

/** The dropzone's file input (it takes drag and drop, and a click opens the picker). */
const dropzoneInput = () => inDialog().getByLabelText('Arrastre un video aquí o haga clic para elegirlo');

async function setText(name: string, value: string) {
  const input = field(name);
  await user.clear(input);
  if (value) {
    await user.click(input);
    await user.paste(value);
  }
}

/** Fills the form as the event says, changing only what differs from what the user left. */
async function fillForm(values: VideoFormValues, thumbnail: File | null, subtitles: SubtitleFile[] = form.subtitles) {
  if (form.values.titulo !== values.titulo) await setText('Título', values.titulo);
  if (form.values.descripcionCorta !== values.descripcionCorta) await setText('Descripción corta', values.descripcionCorta);
  if (form.values.descripcion !== values.descripcion) await setText('Descripción', values.descripcion);
  if (form.values.tags.join() !== values.tags.join()) {
    const tags = inDialog().getByRole('combobox', { name: 'Etiquetas' });
    for (let index = 0; index < form.values.tags.length; index += 1) {
      await user.click(tags);
      await user.keyboard('{Backspace}');
    }
    for (const id of values.tags) {
      await user.click(tags);
      await user.click(await screen.findByRole('option', { name: TAGS.find((tag) => tag.id === id)!.nombre }));
    }
  }
  if (form.values.isVisible !== values.isVisible) await user.click(inDialog().getByRole('switch', { name: 'Visible para todos' }));
  if (form.thumbnail !== thumbnail) {
    if (thumbnail) await user.upload(thumbnailInput(), thumbnail);
    else await user.click(button('Quitar la miniatura'));
  }
  if (form.subtitles.map((entry) => entry.file.name).join() !== subtitles.map((entry) => entry.file.name).join()) {
    for (const entry of form.subtitles) await user.click(button(`Quitar los subtítulos en ${entry.idioma === 'en' ? 'Inglés' : entry.idioma}`));
    if (subtitles.length > 0) await user.upload(addSubtitlesInput(), subtitles.map((entry) => entry.file));
  }
  form = { values, thumbnail, subtitles };
}

/** The Subtítulos section lists each file with its language (the name's, `.en.` → Inglés). */
function expectSubtitleRows(subtitles: SubtitleFile[]) {
  const section = within(inDialog().getByRole('group', { name: 'Subtítulos' }));
  for (const entry of subtitles) {
    expect(section.getByText(entry.file.name)).toBeVisible();
    expect(section.getByRole('combobox', { name: `Idioma de ${entry.file.name}` })).toHaveValue('Inglés');
  }
}

const executors = {
  'upload.choose': async ({ event }) => user.upload(dropzoneInput(), event.file),
  'xstate.done.actor.requestUploadSession': async ({ event }) => {
    transfer = 'first';
    await doubles.resolve('requestUploadSession', event.output);
  },
  'xstate.error.actor.requestUploadSession': async ({ event }) => doubles.reject('requestUploadSession', event.error),
  'upload.retry': async ({ state }) => {
    if (state.matches({ open: 'uploading' })) transfer = 'resumed';
    await user.click(button('Reintentar'));
  },
  'upload.restart': async () => user.click(button('Elegir otro archivo')),
  'upload.cancel': async ({ state }) =>
    // Once the video exists (a cancel then ends in 'created') the footer's button reads 'Cerrar', like the dialog's own.
    user.click(state.matches('created') ? inDialog().getAllByRole('button', { name: 'Cerrar' }).at(-1)! : button('Cancelar')),
  // What the transfer reports: the test speaks for the live sendFile.
  'upload.progress': async ({ event }) => doubles.send('sendFile', event),
  'upload.sent': async ({ event }) => doubles.send('sendFile', event),
  'upload.failed': async ({ event }) => doubles.send('sendFile', event),
  'upload.refused': async ({ event }) => doubles.send('sendFile', event),
  'xstate.done.actor.pollUpload': async ({ event }) => doubles.resolve('pollUpload', event.output),
  'xstate.error.actor.pollUpload': async ({ event }) => doubles.reject('pollUpload', event.error),
  'xstate.after.pollInterval': async () => {
    await time.advance(POLL_INTERVAL_MS - 1);
    expect(doubles.pendingCount('pollUpload')).toBe(0);
    await time.advance(1);
  },
  'upload.confirm': async ({ event }) => {
    await fillForm(event.values, event.thumbnail, event.subtitles);
    expectSubtitleRows(event.subtitles);
    await user.click(button('Confirmar'));
  },
  'xstate.done.actor.sendSubtitles': async ({ event }) => doubles.resolve('sendSubtitles', event.output),
  'upload.retrySubtitles': async ({ event }) => {
    await user.upload(replaceSubtitlesInput(0), event.subtitles[0]!.file);
    form = { ...form, subtitles: event.subtitles };
    expectSubtitleRows(event.subtitles);
    await user.click(button('Reintentar'));
  },
  'xstate.done.actor.uploadThumbnail': async () => doubles.resolve('uploadThumbnail'),
  'xstate.error.actor.uploadThumbnail': async ({ event }) => {
    toastsSeen.push('No se ha podido guardar el video');
    await doubles.reject('uploadThumbnail', event.error);
  },
  'xstate.done.actor.createVideo': async ({ event }) => {
    // The video exists once the server created it, whatever becomes of its subtitles (R-UPL-11).
    toastsSeen.push('El video se ha creado correctamente');
    await doubles.resolve('createVideo', event.output);
  },
  'xstate.error.actor.createVideo': async ({ event }) => {
    toastsSeen.push('No se ha podido guardar el video');
    await doubles.reject('createVideo', event.error);
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#uploadWizard.open.choosing': (snapshot) => {
    expectStep(0);
    expectButtons({ confirm: false });
    expect(dropzoneInput()).toBeInTheDocument();
    expect(inDialog().getByText('Arrastre un video aquí o haga clic para elegirlo')).toBeVisible();
    const refused = snapshot.context.refusedFile;
    if (refused) expect(inDialog().getByRole('alert')).toHaveTextContent(`El archivo «${refused}» no es un video`);
    else expect(inDialog().queryByRole('alert')).not.toBeInTheDocument();
    expect(inDialog().queryByRole('progressbar')).not.toBeInTheDocument();
    expectNothingRunning();
    expectToasts();
  },
  '#uploadWizard.open.requestingSession': () => {
    expectStep(1);
    expectButtons({ confirm: false });
    expect(inDialog().getByText('Preparando la subida…')).toBeVisible();
    expect(inDialog().getByText(VIDEO_FILE.name, { exact: false })).toBeVisible();
    expect(doubles.pendingCount('requestUploadSession')).toBe(1);
    expect(doubles.inputs('requestUploadSession').at(-1)).toEqual({ video: { contentType: 'video/mp4', size: VIDEO_FILE.size } });
    expectNothingRunning(['requestUploadSession']);
  },
  '#uploadWizard.open.sessionFailed': () => {
    expectStep(1);
    expectButtons({ confirm: false });
    expect(inDialog().getByRole('alert')).toHaveTextContent('No se ha podido preparar la subida');
    expect(button('Reintentar')).toBeEnabled();
    expectNothingRunning();
  },
  '#uploadWizard.open.uploading': (snapshot) => {
    expectStep(2);
    expectButtons({ confirm: false });
    expectProgress(snapshot, { rate: true });
    // One transfer runs, to the session's signed location: the whole file, or the rest after an interruption.
    expect(doubles.pendingCount('sendFile')).toBe(1);
    const live = doubles.calls<SendFileInput>('sendFile').filter((call) => !call.stopped);
    expect(live.map((call) => call.input)).toEqual([
      { assetId: SESSION.assetId, uploadUrl: SESSION.video.uploadUrl, file: VIDEO_FILE, resume: transfer === 'resumed' },
    ]);
    expectNothingRunning(['sendFile']);
  },
  '#uploadWizard.open.interrupted': (snapshot) => {
    expectStep(2);
    expectButtons({ confirm: false });
    // The bar stays where the transfer stopped.
    expectProgress(snapshot, { rate: false });
    expect(inDialog().getByRole('alert')).toHaveTextContent('La subida se ha interrumpido');
    expect(button('Reintentar')).toBeEnabled();
    expectNothingRunning();
  },
  '#uploadWizard.open.processing.checking': (snapshot) => {
    expectStep(2);
    expectButtons({ confirm: false });
    expectProgress(snapshot, { rate: false });
    expect(progressBar()).toHaveAttribute('aria-valuenow', '100');
    expectProcessing(snapshot);
    expect(doubles.pendingCount('pollUpload')).toBe(1);
    expect(doubles.inputs('pollUpload').at(-1)).toEqual({ assetId: SESSION.assetId });
    expectNothingRunning(['pollUpload']);
  },
  '#uploadWizard.open.processing.waiting': (snapshot) => {
    expectStep(2);
    expectButtons({ confirm: false });
    expectProcessing(snapshot);
    expectNothingRunning();
  },
  '#uploadWizard.open.refused': (snapshot) => {
    expectStep(0);
    expectButtons({ confirm: false });
    expect(inDialog().getByRole('alert')).toHaveTextContent(
      snapshot.context.refusal === 'too-large' ? 'El archivo supera el tamaño máximo permitido' : 'El archivo no es un video válido',
    );
    expect(button('Elegir otro archivo')).toBeEnabled();
    expectNothingRunning();
  },
  '#uploadWizard.open.uploaded': (snapshot) => {
    expectStep(3);
    expectButtons({ confirm: true });
    expect(progressBar()).toHaveAttribute('aria-valuenow', '100');
    expect(inDialog().getByText('100 %')).toBeVisible();
    expectFieldMessages(snapshot);
    // The values are kept after a failed save, and can still be changed.
    expect(field('Título')).toHaveValue(form.values.titulo);
    expect(field('Título')).toBeEnabled();
    expectNothingRunning();
    expectToasts();
  },
  '#uploadWizard.saving.thumbnail': () => {
    expectStep(3);
    expectButtons({ confirm: false, cancel: false });
    expect(field('Título')).toBeDisabled();
    expect(doubles.calls<UploadThumbnailInput>('uploadThumbnail').at(-1)?.input).toEqual({
      assetId: SESSION.assetId,
      uploadUrl: SESSION.thumbnail.uploadUrl,
      file: PICTURE,
    });
    expectNothingRunning(['uploadThumbnail']);
  },
  '#uploadWizard.saving.creating': () => {
    expectStep(3);
    expectButtons({ confirm: false, cancel: false });
    expect(field('Título')).toBeDisabled();
    expect(doubles.calls<CreateVideoInput>('createVideo').at(-1)?.input).toEqual({ assetId: SESSION.assetId, values: VALID });
    expectNothingRunning(['createVideo']);
  },
  '#uploadWizard.saving.subtitles': (snapshot) => {
    expectStep(3);
    expectButtons({ confirm: false, cancel: false });
    expect(inDialog().getByText('Guardando los subtítulos…')).toBeVisible();
    // Each file not yet stored goes to the video just created, in its language.
    const { subtitles, savedSubtitles } = snapshot.context;
    expect(doubles.calls<SendSubtitlesInput>('sendSubtitles').at(-1)?.input).toEqual({
      videoId: CREATED.id,
      subtitles: subtitles.filter((entry) => !savedSubtitles.includes(entry.idioma)),
    });
    expectNothingRunning(['sendSubtitles']);
    expectToasts();
  },
  '#uploadWizard.subtitlesRefused': (snapshot) => {
    expectStep(3);
    // The video exists: nothing to cancel, only 'Cerrar'; the refused file's message names the line.
    expect(inDialog().getByText(/El video se ha creado, pero algunos subtítulos no se han guardado/)).toBeVisible();
    for (const failure of snapshot.context.subtitleFailures) {
      expect(inDialog().getAllByText(/El archivo de subtítulos no es válido: línea 3: tiempo mal escrito/).length).toBeGreaterThan(0);
      expect(inDialog().getByText(new RegExp(`${failure.fileName} \\(Inglés\\)`))).toBeVisible();
    }
    for (const close of inDialog().getAllByRole('button', { name: 'Cerrar' })) expect(close).toBeEnabled();
    expect(button('Reintentar')).toBeEnabled();
    expect(inDialog().queryByRole('button', { name: 'Confirmar' })).not.toBeInTheDocument();
    expect(field('Título')).toBeDisabled();
    expectNothingRunning();
    expectToasts();
  },
  '#uploadWizard.created': () => {
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(closed).toHaveBeenCalledOnce();
    expectNothingRunning();
    expect(screen.getByRole('alert')).toHaveTextContent('El video se ha creado correctamente');
  },
  '#uploadWizard.cancelled': () => {
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(closed).toHaveBeenCalledOnce();
    // Whatever ran was stopped: a request's signal aborted, the transfer's clean-up run (the XHR aborted).
    expectNothingRunning();
    for (const name of ['requestUploadSession', 'pollUpload']) {
      for (const call of doubles.calls(name)) expect(call.settled).toBe(true);
    }
    expect(doubles.calls('sendFile').every((call) => call.stopped)).toBe(true);
  },
} satisfies StateChecks<Snapshot>;

// ---- the tests ---------------------------------------------------------------------------------------------

describe('upload wizard model (the Subir video dialog)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await act(async () => {});
      await runPath(path, checkingDiscards(states), executors);
    });
  }
});

describe('upload wizard model coverage', () => {
  itCoversTheMachine(uploadWizardMachine, paths, { events, states, executors });

  it('shows each refusal', () => {
    const covered = new Set(paths.flatMap((path) => path.features));
    expect(covered).toContain('refused not-a-video');
    expect(covered).toContain('refused too-large');
    expect(covered).toContain('refused invalid-media');
  });
});

describe('upload wizard: what the model leaves out', () => {
  it('Cancelar during the transfer stops it and closes; a late report reaches nobody', async () => {
    await user.upload(dropzoneInput(), VIDEO_FILE);
    await doubles.resolve('requestUploadSession', SESSION);
    await doubles.send('sendFile', { type: 'upload.progress', loaded: 500, total: 2000, rate: 0 });
    expect(progressBar()).toHaveAttribute('aria-valuenow', '25');
    const [running] = doubles.calls('sendFile');
    await user.click(button('Cancelar'));
    expect(running?.stopped).toBe(true);
    expect(closed).toHaveBeenCalledOnce();
    running!.send({ type: 'upload.sent' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closing the dialog (its close button) cancels like Cancelar', async () => {
    await user.upload(dropzoneInput(), VIDEO_FILE);
    const [request] = doubles.calls('requestUploadSession');
    await user.click(button('Cerrar'));
    expect(request?.signal?.aborted).toBe(true);
    expect(closed).toHaveBeenCalledOnce();
  });

  it('a dropped file goes through the same check: a picture is refused, a video starts the upload', async () => {
    const zone = inDialog().getByText('Arrastre un video aquí o haga clic para elegirlo').closest('.mantine-Dropzone-root')!;
    const drop = async (file: File) =>
      act(async () => {
        fireEvent.drop(zone, { dataTransfer: { files: [file], items: [{ kind: 'file', type: file.type, getAsFile: () => file }], types: ['Files'] } });
      });
    await drop(PICTURE);
    expect(await inDialog().findByRole('alert')).toHaveTextContent('El archivo «portada.png» no es un video');
    await drop(VIDEO_FILE);
    expect(await inDialog().findByText('Preparando la subida…')).toBeVisible();
  });

  it('the form can be filled while the file uploads; Confirmar waits for the upload', async () => {
    await user.upload(dropzoneInput(), VIDEO_FILE);
    await doubles.resolve('requestUploadSession', SESSION);
    await fillForm(VALID, null);
    expect(button('Confirmar')).toBeDisabled();
    await doubles.send('sendFile', { type: 'upload.sent' });
    await doubles.resolve('pollUpload', status('ready'));
    await user.click(button('Confirmar'));
    expect(doubles.inputs('createVideo')).toEqual([{ assetId: SESSION.assetId, values: VALID }]);
  });
});
