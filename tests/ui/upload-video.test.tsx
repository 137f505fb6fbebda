/**
 * 'Subir video' in the real app (an administrator on /videos, the header's menu): Mock Service
 * Worker answers the API (POST /api/uploads, GET /api/uploads/{id}, the thumbnail's PUT, POST
 * /api/videos, the lists and tags), and the video's PUT goes through the app's real transfer code
 * to a fake XMLHttpRequest (jsdom cannot upload) behind a location that keeps what arrives, so the
 * test can report progress, cut the connection halfway and see the transfer resume from the offset.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { components } from '../../contract/openapi.gen.ts';
import { createFakeUploadTarget, type FakeUploadTarget } from '../../src/features/videos/upload/fake-upload-target.test-support.ts';
import { ME, http, problem, server, sessionToken } from '../utils/msw.ts';
import { renderApp } from '../utils/render-app.tsx';

type Video = components['schemas']['Video'];
type VideoCreate = components['schemas']['VideoCreate'];
type UploadState = components['schemas']['UploadState'];

const ASSET = 'asset-upload-0001';
const SESSION = {
  assetId: ASSET,
  video: { uploadUrl: `/api/uploads/${ASSET}/video?expires=1&signature=v` },
  thumbnail: { uploadUrl: `/api/uploads/${ASSET}/thumbnail?expires=1&signature=t` },
};
const SIZE = 2000;
const VIDEO_FILE = new File([new Uint8Array(SIZE)], 'reunion-anual.mp4', { type: 'video/mp4' });
const PICTURE = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'portada.png', { type: 'image/png' });
const TAGS = [
  { id: 3, nombre: 'Formación' },
  { id: 5, nombre: 'Reuniones' },
];
const EXISTING: Video = {
  id: 7,
  idExterno: 'asset-0000007',
  titulo: 'Presentación de producto',
  descripcion: null,
  descripcionCorta: 'La nueva línea',
  duracion: 600,
  puntuacionMedia: 0,
  puntuacion: null,
  favorito: false,
  visto: true,
  fechaAlta: '2026-03-05T12:00:00.000Z',
  urlThumbnail: null,
  urlPreview: null,
  urlHls: null,
  urlStoryboard: null,
  idiomasSubtitulos: [],
  capitulos: [],
  urlVideo: '/api/media/asset-0000007/video.mp4?expires=1&signature=v',
  etiquetas: [],
  isVisible: true,
  organizacionId: null,
  nombreUsuarioAlta: 'root',
  posicion: null,
};

interface FakeApi {
  /** Bodies of POST /api/uploads, oldest first. */
  sessions: unknown[];
  /** Looks at the upload's state. */
  polls: number;
  /** DELETE /api/uploads/{id}: the uploads given up. */
  discards: string[];
  /** Thumbnail PUTs: the location's path and query, content type, bytes. */
  thumbnails: Array<{ path: string; contentType: string | null; size: number }>;
  /** Bodies of POST /api/videos. */
  creates: VideoCreate[];
  /** GET /api/videos answered. */
  listReads: number;
  /** What GET /api/videos lists (POST /api/videos adds to it). */
  library: Video[];
}

/** What the next calls answer (each test changes what it needs). */
interface Script {
  sessionFailures: number;
  estados: UploadState[];
  thumbnailStatus: 204 | 415;
  createFailures: number;
  /** When set, GET /api/uploads/{id} waits for it (the processing can be seen while it lasts). */
  pollGate: Promise<void> | null;
  /** `procesado` of a processing answer: the percent of the server's rewrite done, or null. */
  processed: number | null;
}

let user: UserEvent;
let target: FakeUploadTarget;
let api: FakeApi;
let script: Script;

function serveApi() {
  api = { sessions: [], polls: 0, discards: [], thumbnails: [], creates: [], listReads: 0, library: [EXISTING] };
  script = { sessionFailures: 0, estados: ['ready'], thumbnailStatus: 204, createFailures: 0, pollGate: null, processed: null };
  server.use(
    http.get('/api/me', ({ response }) => response(200).json({ ...ME, user: 'root', nombre: 'Root', role: 'admin' })),
    http.get('/api/videos', ({ response }) => {
      api.listReads += 1;
      return response(200).json(api.library, { headers: { 'X-Total-Count': String(api.library.length) } });
    }),
    http.get('/api/etiquetas', ({ response }) => response(200).json(TAGS)),
    http.post('/api/uploads', async ({ request, response }) => {
      api.sessions.push(await request.json());
      if (script.sessionFailures > 0) {
        script.sessionFailures -= 1;
        return problem(500, 'internal-server-error');
      }
      return response(201).json(SESSION);
    }),
    http.delete('/api/uploads/{id}', ({ params, response }) => {
      api.discards.push(params.id);
      return response(204).empty();
    }),
    http.get('/api/uploads/{id}', async ({ params, response }) => {
      api.polls += 1;
      if (script.pollGate) await script.pollGate;
      const estado = script.estados.length > 1 ? script.estados.shift()! : script.estados[0]!;
      return response(200).json({
        assetId: params.id,
        thumbnail: SESSION.thumbnail,
        estado,
        recibido: SIZE,
        duracion: estado === 'ready' ? 6 : null,
        procesado: estado === 'processing' ? script.processed : null,
        error: estado === 'failed' ? 'no video stream' : null,
      });
    }),
    http.put('/api/uploads/{id}/{file}', async ({ request, response }) => {
      const url = new URL(request.url);
      api.thumbnails.push({
        path: `${url.pathname}${url.search}`,
        contentType: request.headers.get('Content-Type'),
        size: (await request.arrayBuffer()).byteLength,
      });
      return script.thumbnailStatus === 204 ? response(204).empty() : problem(415, 'unsupported-media-type');
    }),
    http.post('/api/videos', async ({ request, response }) => {
      const body = await request.json();
      api.creates.push(body);
      if (script.createFailures > 0) {
        script.createFailures -= 1;
        return problem(409, 'conflict');
      }
      const created: Video = {
        ...EXISTING,
        id: 41,
        idExterno: body.idExterno,
        titulo: body.titulo,
        descripcion: body.descripcion ?? null,
        descripcionCorta: body.descripcionCorta,
        etiquetas: TAGS.filter((tag) => body.tags.includes(tag.id)),
        isVisible: body.isVisible,
        fechaAlta: '2026-11-22T18:00:00.000Z',
        visto: false,
      };
      api.library = [created, ...api.library];
      return response(201).json(created);
    }),
  );
}

beforeEach(() => {
  user = userEvent.setup();
  target = createFakeUploadTarget();
  vi.stubGlobal('XMLHttpRequest', target.XMLHttpRequest);
  serveApi();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const dialog = () => screen.getByRole('dialog', { name: 'Subir video' });
const inDialog = () => within(dialog());
const button = (name: string) => inDialog().getByRole('button', { name });
const field = (name: string) => inDialog().getByRole('textbox', { name });
const progressBar = () => inDialog().getByRole('progressbar', { name: /^Progreso de / });
/** A toast (outside the dialog) reading `text`. */
async function expectToast(text: string) {
  const shown = await screen.findByText(text, { selector: '[role="alert"] *' });
  expect(shown.closest('[role="alert"]')).not.toBeNull();
}

async function openWizard() {
  await renderApp('/videos', { token: sessionToken({ user: 'root', role: 'admin' }) });
  await screen.findByRole('heading', { level: 2, name: EXISTING.titulo });
  await user.click(await screen.findByRole('button', { name: /Root/ }));
  await user.click(await screen.findByRole('menuitem', { name: 'Subir video' }));
  expect(await screen.findByRole('dialog', { name: 'Subir video' })).toBeInTheDocument();
  expect(button('Confirmar')).toBeDisabled();
}

async function chooseVideo(file = VIDEO_FILE) {
  await user.upload(inDialog().getByLabelText('Arrastre uno o varios videos aquí o haga clic para elegirlos'), file);
}

/** The transfer in flight (after the session is answered) reports `sent` bytes. */
async function sent(bytes: number) {
  await waitFor(() => expect(target.inFlight).toBe(true));
  await act(async () => target.progress(bytes));
}

async function completeTransfer() {
  await waitFor(() => expect(target.inFlight).toBe(true));
  await act(async () => target.complete());
}

async function typeInto(name: string, text: string) {
  await user.clear(field(name));
  if (text) {
    await user.click(field(name));
    await user.paste(text);
  }
}

async function fillValidForm() {
  await typeInto('Título', 'Reunión anual 2026');
  await typeInto('Descripción corta', 'Resumen de la reunión anual');
  await user.click(inDialog().getByRole('combobox', { name: 'Etiquetas' }));
  await user.click(await screen.findByRole('option', { name: 'Reuniones' }));
  await user.click(inDialog().getByRole('switch', { name: 'Visible para todos' }));
}

/** Waits for step 3 (the upload is complete and processed). */
async function uploaded() {
  await waitFor(() => expect(button('Confirmar')).toBeEnabled());
  expect(progressBar()).toHaveAttribute('aria-valuenow', '100');
  expect(inDialog().getByText('100 %')).toBeInTheDocument();
}

describe('Subir video, in the app', () => {
  it('uploads with progress and rate, waits for the processing, creates the video with its thumbnail; the list shows it', async () => {
    let processed = () => {};
    script.pollGate = new Promise<void>((resolve) => {
      processed = resolve;
    });
    await openWizard();
    await chooseVideo();
    await sent(840);
    expect(progressBar()).toHaveAttribute('aria-valuenow', '42');
    expect(inDialog().getByText('42 %')).toBeInTheDocument();
    expect(inDialog().getByText(/^\d+(,\d)? (B|KB|MB|GB)\/s$/)).toBeInTheDocument();
    expect(api.sessions).toEqual([{ video: { contentType: 'video/mp4', size: SIZE } }]);
    expect(target.puts[0]).toMatchObject({ url: new URL(SESSION.video.uploadUrl, window.location.origin).href, bodySize: SIZE });
    expect(target.puts[0]?.headers['content-range']).toBeUndefined();
    // The form is filled while the file uploads.
    await fillValidForm();
    await user.upload(dialog().querySelector<HTMLInputElement>('input[type="file"][accept*="image"]')!, PICTURE);
    expect(button('Confirmar')).toBeDisabled();

    await completeTransfer();
    // The server is processing the file (the repeated looks are the machine test's).
    expect(await inDialog().findByText('Procesando el video…')).toBeInTheDocument();
    expect(button('Confirmar')).toBeDisabled();
    await waitFor(() => expect(api.polls).toBe(1));
    processed();
    await uploaded();

    const listReadsBefore = api.listReads;
    await user.click(button('Confirmar'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Subir video' })).not.toBeInTheDocument());
    await expectToast('El video se ha creado correctamente');
    expect(api.thumbnails).toEqual([{ path: SESSION.thumbnail.uploadUrl, contentType: 'image/png', size: PICTURE.size }]);
    expect(api.creates).toEqual([
      {
        isVisible: false,
        nombreUsuarioAlta: 'root',
        titulo: 'Reunión anual 2026',
        descripcionCorta: 'Resumen de la reunión anual',
        tags: [5],
        idExterno: ASSET,
      },
    ]);
    // The list is read again and shows the new video.
    expect(await screen.findByRole('heading', { level: 2, name: 'Reunión anual 2026' })).toBeInTheDocument();
    expect(api.listReads).toBeGreaterThan(listReadsBefore);
  });

  it('opens over no earlier toast (on a phone they lay over its buttons); a persistent one stays, and later ones show', async () => {
    const app = await renderApp('/videos', { token: sessionToken({ user: 'root', role: 'admin' }) });
    await screen.findByRole('heading', { level: 2, name: EXISTING.titulo });
    act(() => {
      app.toasts.show({ kind: 'success', message: 'El video se ha eliminado con éxito' });
      app.toasts.show({ kind: 'error', message: 'El token ha expirado', persistent: true });
    });
    await expectToast('El video se ha eliminado con éxito');
    await user.click(await screen.findByRole('button', { name: /Root/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Subir video' }));
    expect(await screen.findByRole('dialog', { name: 'Subir video' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('El video se ha eliminado con éxito')).toBeNull());
    await expectToast('El token ha expirado');
    act(() => {
      app.toasts.show({ kind: 'error', message: 'No se ha podido guardar el video' });
    });
    await expectToast('No se ha podido guardar el video');
  });

  it("an empty library offers an administrator 'Subir video' under its message: the same wizard, and the first video replaces both", async () => {
    api.library = [];
    await renderApp('/videos', { token: sessionToken({ user: 'root', role: 'admin' }) });
    expect(await screen.findByText('No existen videos que se ajusten a estos filtros')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Subir video' }));
    expect(await screen.findByRole('dialog', { name: 'Subir video' })).toBeInTheDocument();
    await chooseVideo();
    await completeTransfer();
    await fillValidForm();
    await uploaded();
    await user.click(button('Confirmar'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Reunión anual 2026' })).toBeInTheDocument();
    expect(screen.queryByText('No existen videos que se ajusten a estos filtros')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Subir video' })).not.toBeInTheDocument();
  });

  it("an empty list offers no 'Subir video' when filters narrow it", async () => {
    api.library = [];
    await renderApp('/videos?q=gatos', { token: sessionToken({ user: 'root', role: 'admin' }) });
    expect(await screen.findByText('No existen videos que se ajusten a estos filtros')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Subir video' })).not.toBeInTheDocument();
  });

  it("an empty library offers no 'Subir video' to a user", async () => {
    api.library = [];
    server.use(http.get('/api/me', ({ response }) => response(200).json({ ...ME, user: 'ana', role: 'user' })));
    await renderApp('/videos', { token: sessionToken({ user: 'ana', role: 'user' }) });
    expect(await screen.findByText('No existen videos que se ajusten a estos filtros')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Subir video' })).not.toBeInTheDocument();
  });

  it('the session request fails: No se ha podido preparar la subida, then Reintentar asks again and the upload starts', async () => {
    script.sessionFailures = 1;
    await openWizard();
    await chooseVideo();
    expect(await inDialog().findByText('No se ha podido preparar la subida')).toBeInTheDocument();
    expect(target.puts).toEqual([]);
    await user.click(button('Reintentar'));
    await sent(500);
    expect(api.sessions).toHaveLength(2);
    expect(progressBar()).toHaveAttribute('aria-valuenow', '25');
  });

  it('a transfer cut halfway shows La subida se ha interrumpido; Reintentar asks the offset and sends the rest, from where it stopped', async () => {
    await openWizard();
    await chooseVideo();
    await sent(700);
    await act(async () => target.cut(900));
    expect(await inDialog().findByText('La subida se ha interrumpido')).toBeInTheDocument();
    // The bar stays where the bytes stopped (the last report), not back at 0.
    expect(progressBar()).toHaveAttribute('aria-valuenow', '35');
    expect(button('Confirmar')).toBeDisabled();

    await user.click(button('Reintentar'));
    await waitFor(() => expect(target.inFlight).toBe(true));
    expect(target.puts.slice(1).map((put) => [put.headers['content-range'], put.bodySize])).toEqual([
      [`bytes */${SIZE}`, null],
      [`bytes 900-${SIZE - 1}/${SIZE}`, SIZE - 900],
    ]);
    // Progress goes on from the stored 900 bytes (45 %).
    expect(progressBar()).toHaveAttribute('aria-valuenow', '45');
    await act(async () => target.progress(550));
    expect(progressBar()).toHaveAttribute('aria-valuenow', '72');
    await completeTransfer();
    await uploaded();
    expect(target.stored).toBe(SIZE);
  });

  it('Cancelar mid-upload aborts the transfer and closes; nothing more is sent', async () => {
    await openWizard();
    await chooseVideo();
    await sent(400);
    await user.click(button('Cancelar'));
    // R-UPL-18: a transfer on its way is not dropped without asking.
    await user.click(screen.getByRole('button', { name: 'Cancelar las subidas' }));
    expect(screen.queryByRole('dialog', { name: 'Subir video' })).not.toBeInTheDocument();
    expect(target.puts).toHaveLength(1);
    expect(target.puts[0]?.aborted).toBe(true);
    expect(target.inFlight).toBe(false);
    expect(api.polls).toBe(0);
    // The bytes the server got so far are discarded at once.
    await waitFor(() => expect(api.discards).toEqual([ASSET]));
    // A new opening starts over at step 0.
    await user.click(screen.getByRole('button', { name: /Root/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Subir video' }));
    expect(await screen.findByLabelText('Arrastre uno o varios videos aquí o haga clic para elegirlos')).toBeInTheDocument();
  });

  it('Confirmar shows each R-ADM-2 message under its field and sends nothing until the form is valid', async () => {
    await openWizard();
    await chooseVideo();
    await completeTransfer();
    await uploaded();
    const description = (name: string) => field(name).getAttribute('aria-describedby')?.split(' ') ?? [];
    const messageOf = (name: string) =>
      description(name)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .filter((text) => text.startsWith('*'))
        .join();
    const cases: Array<[string, string, string]> = [
      ['Título', '', '* Este campo es obligatorio'],
      ['Título', '   ', '* Este campo es obligatorio'],
      ['Título', 'ab', '* Este campo no puede contener menos de 3 carácteres'],
      ['Título', 'x'.repeat(101), '* Este campo no puede contener más de 100 carácteres'],
      ['Descripción corta', '', '* Este campo es obligatorio'],
      ['Descripción corta', 'ab', '* Este campo no puede contener menos de 3 carácteres'],
      ['Descripción corta', 'x'.repeat(256), '* Este campo no puede contener más de 255 carácteres'],
      ['Descripción', 'ab', '* Si este campo es informado, no puede contener menos de 3 carácteres'],
      ['Descripción', 'x'.repeat(1025), '* Este campo no puede contener más de 1024 carácteres'],
    ];
    const valid: Record<string, string> = { Título: 'Reunión anual', 'Descripción corta': 'Resumen', Descripción: '' };
    for (const [name, value, message] of cases) {
      for (const [other, text] of Object.entries(valid)) if (other !== name) await typeInto(other, text);
      await typeInto(name, value);
      await user.click(button('Confirmar'));
      expect(messageOf(name), `${name} = '${value.slice(0, 10)}'`).toBe(message);
      expect(field(name)).toHaveAttribute('aria-invalid', 'true');
      expect(button('Confirmar')).toBeEnabled();
    }
    // The messages follow the corrections; a valid form is sent.
    for (const [name, text] of Object.entries(valid)) await typeInto(name, text);
    expect(inDialog().queryByText(/^\* /)).not.toBeInTheDocument();
    await user.click(button('Confirmar'));
    await waitFor(() => expect(api.creates).toHaveLength(1));
    expect(api.creates[0]).toEqual({ isVisible: true, nombreUsuarioAlta: 'root', titulo: 'Reunión anual', descripcionCorta: 'Resumen', tags: [], idExterno: ASSET });
  });

  it('a refused thumbnail: No se ha podido guardar el video, back to step 3 with the values kept; the video is not created', async () => {
    script.thumbnailStatus = 415;
    await openWizard();
    await chooseVideo();
    await completeTransfer();
    await uploaded();
    await fillValidForm();
    await user.upload(dialog().querySelector<HTMLInputElement>('input[type="file"][accept*="image"]')!, PICTURE);
    await user.click(button('Confirmar'));
    expect(await inDialog().findByRole('alert')).toHaveTextContent('No se ha podido guardar el video');
    await waitFor(() => expect(button('Confirmar')).toBeEnabled());
    expect(field('Título')).toHaveValue('Reunión anual 2026');
    expect(inDialog().getByRole('switch', { name: 'Visible para todos' })).not.toBeChecked();
    expect(api.thumbnails).toHaveLength(1);
    expect(api.creates).toEqual([]);
    // Without the picture, Confirmar creates the video.
    await user.click(button('Quitar la miniatura'));
    await user.click(button('Confirmar'));
    await expectToast('El video se ha creado correctamente');
    expect(api.thumbnails).toHaveLength(1);
  });

  it('a failed create: No se ha podido guardar el video, values kept; Confirmar again creates it', async () => {
    script.createFailures = 1;
    await openWizard();
    await chooseVideo();
    await completeTransfer();
    await uploaded();
    await fillValidForm();
    await user.click(button('Confirmar'));
    expect(await inDialog().findByRole('alert')).toHaveTextContent('No se ha podido guardar el video');
    await waitFor(() => expect(button('Confirmar')).toBeEnabled());
    expect(field('Descripción corta')).toHaveValue('Resumen de la reunión anual');
    expect(screen.getByRole('dialog', { name: 'Subir video' })).toBeInTheDocument();
    await user.click(button('Confirmar'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Subir video' })).not.toBeInTheDocument());
    expect(api.creates).toHaveLength(2);
    expect(api.creates[1]).toEqual(api.creates[0]);
  });

  it('a file that is not a playable video: El archivo no es un video válido, and Quitar goes back to the dropzone', async () => {
    script.estados = ['failed'];
    await openWizard();
    await chooseVideo();
    await completeTransfer();
    expect(await inDialog().findByText('El archivo no es un video válido')).toBeInTheDocument();
    expect(button('Confirmar')).toBeDisabled();
    await user.click(button('Quitar reunion-anual.mp4'));
    expect(inDialog().getByLabelText('Arrastre uno o varios videos aquí o haga clic para elegirlos')).toBeInTheDocument();
    await waitFor(() => expect(api.discards).toEqual([ASSET]));
    expect(inDialog().queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('while the server rewrites the file for every browser, the wizard shows how much is done; then Confirmar is enabled', async () => {
    script.estados = ['processing', 'ready'];
    script.processed = 40;
    await openWizard();
    await chooseVideo();
    await fillValidForm();
    await completeTransfer();
    expect(await inDialog().findByText('Procesando el video… 40 %')).toBeInTheDocument();
    expect(inDialog().getByRole('progressbar', { name: 'Progreso del procesado' })).toHaveAttribute('aria-valuenow', '40');
    expect(button('Confirmar')).toBeDisabled();
    // The next look (POLL_INTERVAL_MS later) finds it ready.
    await waitFor(() => expect(button('Confirmar')).toBeEnabled(), { timeout: 5000 });
    expect(inDialog().queryByText(/^Procesando el video/)).not.toBeInTheDocument();
    expect(inDialog().queryByRole('progressbar', { name: 'Progreso del procesado' })).not.toBeInTheDocument();
  });

  it("an OBS recording (.mkv, video/x-matroska) is announced and sent as bytes for the server to recognise, not refused", async () => {
    const recording = new File([new Uint8Array(SIZE)], 'grabacion-obs.mkv', { type: 'video/x-matroska' });
    await openWizard();
    await chooseVideo(recording);
    await completeTransfer();
    await uploaded();
    expect(api.sessions).toEqual([{ video: { contentType: 'application/octet-stream', size: SIZE } }]);
    expect(target.puts[0]?.headers['content-type']).toBe('application/octet-stream');
  });

  it('a file that is not a video is refused at step 0 without asking the server', async () => {
    await openWizard();
    const picky = userEvent.setup({ applyAccept: false });
    await picky.upload(inDialog().getByLabelText('Arrastre uno o varios videos aquí o haga clic para elegirlos'), PICTURE);
    expect(await inDialog().findByText('El archivo «portada.png» no es un video')).toBeInTheDocument();
    expect(api.sessions).toEqual([]);
  });
});
