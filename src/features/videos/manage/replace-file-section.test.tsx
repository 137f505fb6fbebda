/**
 * 'Reemplazar archivo' in 'Editar video', in the real app (an administrator on /videos): the
 * library, the upload session, its processing and PUT /api/videos/{id}/archivo are Mock Service
 * Worker's; the video's PUT goes through the app's real transfer code to a fake XMLHttpRequest
 * (jsdom cannot upload), so the test reports progress, cuts the connection and completes it.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { components } from '../../../../contract/openapi.gen.ts';
import { http, problem, server, sessionToken } from '../../../../tests/utils/msw.ts';
import { renderApp } from '../../../../tests/utils/render-app.tsx';
import { createFakeUploadTarget, type FakeUploadTarget } from '../upload/fake-upload-target.test-support.ts';
import { videoKeys } from '../videos.queries.ts';
import { serveLibrary, VIDEO, type FakeLibrary } from './manage.test-support.ts';

type Video = components['schemas']['Video'];
type UploadState = components['schemas']['UploadState'];

const NEW_ASSET = 'asset-new-0042';
const SESSION = {
  assetId: NEW_ASSET,
  video: { uploadUrl: `/api/uploads/${NEW_ASSET}/video?expires=1&signature=v` },
  thumbnail: { uploadUrl: `/api/uploads/${NEW_ASSET}/thumbnail?expires=1&signature=t` },
};
const SIZE = 2000;
const NEW_FILE = new File([new Uint8Array(SIZE)], 'reunion-corregida.mp4', { type: 'video/mp4' });

/** What the server answers and records around the replacement. */
interface ReplaceApi {
  sessions: unknown[];
  discards: string[];
  /** Bodies of PUT /api/videos/{id}/archivo, with the id. */
  replaces: Array<{ id: number; idExterno: string }>;
  /** What GET /api/uploads/{NEW_ASSET} answers next (the last one repeats). */
  estados: UploadState[];
  /** The session request's refusal (413), or none. */
  sessionStatus: 201 | 413;
  /** PUT archivo's answers, in order; 200 once used up. */
  replaceAnswers: Array<409 | 422 | 500>;
  /** When set, GET /api/uploads/{id} waits for it (the processing can be seen while it lasts). */
  pollGate: Promise<void> | null;
}

let user: UserEvent;
let target: FakeUploadTarget;
let library: FakeLibrary;
let fake: ReplaceApi;

function serveReplacement() {
  fake = { sessions: [], discards: [], replaces: [], estados: ['ready'], sessionStatus: 201, replaceAnswers: [], pollGate: null };
  server.use(
    http.post('/api/uploads', async ({ request, response }) => {
      fake.sessions.push(await request.json());
      if (fake.sessionStatus === 413) return problem(413, 'payload-too-large');
      return response(201).json(SESSION);
    }),
    http.delete('/api/uploads/{id}', ({ params, response }) => {
      fake.discards.push(params.id);
      return response(204).empty();
    }),
    http.get('/api/uploads/{id}', async ({ params, response }) => {
      if (params.id !== NEW_ASSET) return problem(404, 'resource-not-found');
      if (fake.pollGate) await fake.pollGate;
      const estado = fake.estados.length > 1 ? fake.estados.shift()! : fake.estados[0]!;
      return response(200).json({
        assetId: params.id,
        thumbnail: SESSION.thumbnail,
        estado,
        recibido: SIZE,
        duracion: estado === 'ready' ? 9 : null,
        procesado: null,
        error: estado === 'failed' ? 'no video stream' : null,
      });
    }),
    http.put('/api/videos/{id}/archivo', async ({ params, request, response }) => {
      const body = await request.json();
      const id = Number(params.id);
      fake.replaces.push({ id, idExterno: body.idExterno });
      const refusal = fake.replaceAnswers.shift();
      if (refusal === 409) return problem(409, 'conflict');
      if (refusal === 422) return problem(422, 'invalid-media');
      if (refusal === 500) return problem(500, 'internal-server-error');
      // The library's copy becomes the new file's (the lists asked again answer it).
      const replaced: Video = Object.assign(library.videos().find((video) => video.id === id)!, {
        idExterno: body.idExterno,
        duracion: 9,
        urlThumbnail: `/api/media/${body.idExterno}/thumbnail.jpg?expires=1&signature=t`,
        urlVideo: `/api/media/${body.idExterno}/video.mp4?expires=1&signature=v`,
      });
      return response(200).json({ ...replaced });
    }),
  );
}

beforeEach(() => {
  user = userEvent.setup();
  target = createFakeUploadTarget();
  vi.stubGlobal('XMLHttpRequest', target.XMLHttpRequest);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openEditor() {
  library = serveLibrary();
  serveReplacement();
  const app = await renderApp('/videos', { token: sessionToken({ role: 'admin' }) });
  await screen.findByRole('heading', { level: 2, name: VIDEO.titulo });
  await user.click(screen.getByRole('button', { name: `Editar ${VIDEO.titulo}` }));
  await screen.findByRole('dialog', { name: 'Editar video' });
  return app;
}

const dialog = () => screen.getByRole('dialog', { name: 'Editar video' });
const section = () => within(within(dialog()).getByRole('group', { name: 'Reemplazar archivo' }));
const chooserInput = () => dialog().querySelector<HTMLInputElement>('input[type="file"][accept*="video/"]')!;
const progressBar = () => section().getByRole('progressbar', { name: 'Progreso de la subida' });
const replaceButton = () => section().getByRole('button', { name: 'Reemplazar archivo' });
const card = () => screen.getByRole('article', { name: VIDEO.titulo });

async function choose(file: File = NEW_FILE) {
  await user.upload(chooserInput(), file);
}

async function completeTransfer() {
  await waitFor(() => expect(target.inFlight).toBe(true));
  await act(async () => target.complete());
}

/** A toast (outside the dialog) reading `text`. */
async function expectToast(text: string) {
  const shown = await screen.findByText(text, { selector: '[role="alert"] *' });
  expect(shown.closest('[role="alert"]')).not.toBeNull();
}

describe("Reemplazar archivo in 'Editar video'", () => {
  it('uploads the chosen video with its name, size, progress and rate, processes it, and swaps it on Reemplazar archivo (R-ADM-20, R-ADM-21)', async () => {
    const app = await openEditor();
    app.queryClient.setQueryData(videoKeys.detail(VIDEO.id), VIDEO);
    expect(within(card()).getByText('10:00')).toBeInTheDocument();
    expect(section().getByText(/conserva sus datos, valoraciones, favoritos/)).toBeVisible();
    await choose();

    expect(section().getByText('reunion-corregida.mp4')).toBeVisible();
    expect(section().getByText('(2 KB)')).toBeVisible();
    await waitFor(() => expect(target.inFlight).toBe(true));
    await act(async () => target.progress(840));
    expect(progressBar()).toHaveAttribute('aria-valuenow', '42');
    expect(section().getByText('42 %')).toBeVisible();
    expect(section().getByText(/^\d+(,\d)? (B|KB|MB|GB)\/s$/)).toBeVisible();
    expect(section().getByText(/El video actual se sigue viendo hasta que el nuevo esté listo/)).toBeVisible();
    expect(fake.sessions).toEqual([{ video: { contentType: 'video/mp4', size: SIZE } }]);
    // Nothing is swapped before it is ready and confirmed.
    expect(section().queryByRole('button', { name: 'Reemplazar archivo' })).not.toBeInTheDocument();

    let processed = () => {};
    fake.pollGate = new Promise<void>((resolve) => {
      processed = resolve;
    });
    await completeTransfer();
    expect(await section().findByText('Procesando…')).toBeVisible();
    expect(section().queryByRole('button', { name: 'Reemplazar archivo' })).not.toBeInTheDocument();
    processed();
    expect(await section().findByRole('button', { name: 'Reemplazar archivo' })).toBeEnabled();
    expect(progressBar()).toHaveAttribute('aria-valuenow', '100');
    expect(section().getByText(/El nuevo archivo está listo\. Hasta que pulse «Reemplazar archivo» se sigue viendo el actual/)).toBeVisible();
    expect(fake.replaces).toEqual([]);

    await user.click(replaceButton());
    await expectToast('Archivo reemplazado');
    expect(fake.replaces).toEqual([{ id: VIDEO.id, idExterno: NEW_ASSET }]);
    expect(await section().findByRole('status')).toHaveTextContent('Archivo reemplazado por «reunion-corregida.mp4»');
    // The card and the cached detail show the new file at once; the dialog stays open for the rest.
    expect(within(card()).getByText('0:09')).toBeInTheDocument();
    expect(app.queryClient.getQueryData<Video>(videoKeys.detail(VIDEO.id))).toMatchObject({ id: VIDEO.id, idExterno: NEW_ASSET, duracion: 9, puntuacionMedia: 3.5 });
    expect(dialog()).toBeVisible();
    expect(fake.discards).toEqual([]);
    expect(library.patches).toEqual([]);
  }, 30_000);

  it('Reintentar after an interruption resumes from what the server holds (R-ADM-20)', async () => {
    await openEditor();
    await choose();
    await waitFor(() => expect(target.inFlight).toBe(true));
    await act(async () => target.cut(800));
    expect(await section().findByText('La subida se ha interrumpido')).toBeVisible();
    await user.click(section().getByRole('button', { name: 'Reintentar' }));
    await completeTransfer();
    expect(target.puts.at(-1)?.headers['content-range']).toBe(`bytes 800-${SIZE - 1}/${SIZE}`);
    expect(await section().findByRole('button', { name: 'Reemplazar archivo' })).toBeEnabled();
  }, 30_000);

  it('refuses what is not a video before sending anything, and says so when the server finds it too big or not a video (R-ADM-22)', async () => {
    await openEditor();
    const picky = userEvent.setup({ applyAccept: false });
    await picky.upload(chooserInput(), new File(['hola'], 'notas.txt', { type: 'text/plain' }));
    expect(section().getByRole('alert')).toHaveTextContent('El archivo «notas.txt» no es un video');
    expect(fake.sessions).toEqual([]);

    fake.sessionStatus = 413;
    await choose();
    expect(await section().findByText('El archivo supera el tamaño máximo permitido')).toBeVisible();
    expect(section().queryByText('El archivo «notas.txt» no es un video')).not.toBeInTheDocument();
    await user.click(section().getByRole('button', { name: 'Elegir otro archivo' }));

    fake.sessionStatus = 201;
    fake.estados = ['failed'];
    await choose();
    await completeTransfer();
    expect(await section().findByText('El archivo no es un video válido')).toBeVisible();
    expect(section().queryByRole('button', { name: 'Reemplazar archivo' })).not.toBeInTheDocument();
    await user.click(section().getByRole('button', { name: 'Elegir otro archivo' }));
    // The refused upload is discarded, and the chooser is back.
    await waitFor(() => expect(fake.discards).toEqual([NEW_ASSET]));
    expect(section().getByRole('button', { name: 'Elegir el video que reemplaza al actual' })).toBeVisible();
    expect(fake.replaces).toEqual([]);
  }, 30_000);

  it("a swap the server refuses (409, 422) says why in Spanish and keeps the video's file; another try succeeds (R-ADM-22)", async () => {
    await openEditor();
    fake.replaceAnswers = [409, 422];
    await choose();
    await completeTransfer();
    await user.click(await section().findByRole('button', { name: 'Reemplazar archivo' }));
    expect(await section().findByRole('alert')).toHaveTextContent('Esta subida ya no puede reemplazar el archivo');
    expect(within(card()).getByText('10:00')).toBeInTheDocument();

    await user.click(replaceButton());
    await waitFor(() => expect(section().getByRole('alert')).toHaveTextContent('El servidor no ha podido procesar el archivo: no es un video válido'));
    await user.click(replaceButton());
    await expectToast('Archivo reemplazado');
    expect(fake.replaces.map((body) => body.idExterno)).toEqual([NEW_ASSET, NEW_ASSET, NEW_ASSET]);
    expect(section().queryByRole('alert')).not.toBeInTheDocument();
  }, 30_000);

  it('Cancelar, or closing the dialog, before the swap discards the upload and leaves the video as it was (R-ADM-23)', async () => {
    await openEditor();
    await choose();
    await completeTransfer();
    await section().findByRole('button', { name: 'Reemplazar archivo' });
    await user.click(section().getByRole('button', { name: 'Cancelar el reemplazo' }));
    await waitFor(() => expect(fake.discards).toEqual([NEW_ASSET]));
    expect(section().getByRole('button', { name: 'Elegir el video que reemplaza al actual' })).toBeVisible();

    // Chosen again, then the dialog's own Cancelar while it uploads.
    await choose();
    await waitFor(() => expect(target.inFlight).toBe(true));
    await act(async () => target.progress(400));
    const dialogCancel = within(dialog()).getAllByRole('button', { name: 'Cancelar' }).at(-1)!;
    await user.click(dialogCancel);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar video' })).not.toBeInTheDocument());
    await waitFor(() => expect(fake.discards).toEqual([NEW_ASSET, NEW_ASSET]));
    expect(target.puts.at(-1)?.aborted).toBe(true);
    expect(fake.replaces).toEqual([]);
    expect(within(card()).getByText('10:00')).toBeInTheDocument();
  }, 30_000);

  it('a thumbnail chosen after the swap goes to the new file (R-ADM-21)', async () => {
    await openEditor();
    await choose();
    await completeTransfer();
    await user.click(await section().findByRole('button', { name: 'Reemplazar archivo' }));
    await expectToast('Archivo reemplazado');
    const picture = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'portada.png', { type: 'image/png' });
    await user.upload(dialog().querySelector<HTMLInputElement>('input[type="file"]')!, picture);
    await user.click(within(dialog()).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(library.puts.map((put) => put.path)).toEqual([SESSION.thumbnail.uploadUrl]));
    await library.answer('PATCH', 'ok');
    expect(library.patches).toEqual([[{ op: 'replace', path: '/thumbnail', value: true }]]);
  }, 30_000);
});
