/**
 * The upload wizard's QA paths in Chromium: an administrator opens 'Subir video' on /videos and
 * the path's events happen for real. Each answer comes from the real server, provoked by what the
 * path chooses (a file the server refuses, a picture that is not one, a second creation of the same
 * asset), except those a healthy server cannot give on demand: a 503, a 413 mid-transfer (the
 * server refuses a too-large file when the upload is requested, before any byte), which page.route
 * answers, and a 'processing' status (the test video is processed before the first look: the
 * server's answer is handed on with that status); the network cut is page.route aborting the transfer. A transfer's progress report is
 * the browser's to time: that path stays jsdom-only.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { POLL_INTERVAL_MS } from '../../../machines/upload-wizard/upload-wizard.machine.ts';
import type { UploadWizardModelEvent } from '../../../machines/upload-wizard/upload-wizard.model.test-support.ts';
import type { UploadStatus } from '../../../machines/upload-wizard/upload-wizard.types.ts';
import type { VideoFormValues } from '../../../machines/video-form/video-form.rules.ts';
import { generateTestVideo, mediaTools } from '../../../server/media/ffmpeg.ts';
import type { SignedIn } from '../../e2e/session.ts';
import type { BrowserPlan, HeldCall, StepContext } from './plan.ts';
import { administrator, openSignedIn } from './world.ts';

const run = promisify(execFile);

interface UploadData {
  admin: SignedIn;
  /** A real mp4, a real png. */
  video: Buffer;
  picture: Buffer;
}

type FilePayload = { name: string; mimeType: string; buffer: Buffer };

/** Begins like an MP4 (an `ftyp` box, so the transfer takes it) but holds no video: the processing fails. */
const brokenMp4 = () => {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.write('isomiso2', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.alloc(4096, 0x2a)]);
};
const TEXT = Buffer.from('Notas de la reunión: no es un video ni una imagen.\n');

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Subir video' });
const button = (page: Page, name: string) => dialog(page).getByRole('button', { name, exact: true });
const visible = (locator: Locator, timeout = 15_000) => locator.first().waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 15_000) => locator.first().waitFor({ state: 'hidden', timeout });
const enabled = async (locator: Locator, timeout = 15_000) => {
  await visible(locator, timeout);
  await locator.and(locator.page().locator(':enabled')).first().waitFor({ timeout });
};
const disabled = async (locator: Locator) => {
  await visible(locator);
  await locator.and(locator.page().locator(':disabled')).first().waitFor({ timeout: 15_000 });
};
const STEPS = ['Elegir archivo', 'Preparar subida', 'Subiendo', 'Subida completada'];

/** The stepper shows step `step` as the current one. */
async function expectStep(page: Page, step: number) {
  const current = dialog(page).getByText(STEPS[step]!, { exact: true }).first().locator('xpath=ancestor::button[1]');
  await current.and(page.locator('[data-progress]')).waitFor({ timeout: 15_000 });
}

/** The first answer of an actor among the events still to come (until another file is chosen). */
function nextAnswer(context: StepContext<UploadWizardModelEvent, UploadData>, types: string[]): UploadWizardModelEvent | undefined {
  for (const event of context.rest() as UploadWizardModelEvent[]) {
    if (event.type === 'upload.choose') return undefined;
    if (types.includes(event.type)) return event;
  }
  return undefined;
}

/** The video file that makes the server give the answers the path goes on with. */
function videoFor(context: StepContext<UploadWizardModelEvent, UploadData>): FilePayload {
  const transfer = nextAnswer(context, ['upload.sent', 'upload.failed', 'upload.refused']);
  const poll = (context.rest() as UploadWizardModelEvent[]).find(
    (event) => event.type === 'xstate.done.actor.pollUpload' && event.output.estado === 'failed',
  );
  // Text named .mp4: the transfer's first bytes are refused (415).
  if (transfer?.type === 'upload.refused' && transfer.reason === 'not-a-video') {
    return { name: 'reunion-anual.mp4', mimeType: 'video/mp4', buffer: TEXT };
  }
  // An MP4 header over nothing: the processing finds no video.
  if (poll) return { name: 'reunion-anual.mp4', mimeType: 'video/mp4', buffer: brokenMp4() };
  return { name: 'reunion-anual.mp4', mimeType: 'video/mp4', buffer: context.world.data.video };
}

/** Answers the status polls with the real server's answers until it says `estado`. */
async function pollUntil(context: StepContext<UploadWizardModelEvent, UploadData>, estado: UploadStatus['estado'], once: boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const call: HeldCall = await context.held('pollUpload', POLL_INTERVAL_MS * 4);
    const answer = await call.fetch();
    const got = (answer.json as { estado?: string } | null)?.estado;
    if (got === estado) return answer.fulfill();
    // The test video is processed within moments: when the server is already done, its answer is
    // handed on as it was a moment before ('processing'), which is what the path needs.
    if (once) return answer.fulfillWith({ ...(answer.json as object), estado, duracion: null });
    await answer.fulfill();
    if (Date.now() > deadline) throw new Error(`The server did not answer '${estado}' within 60 s (last: ${String(got)})`);
  }
}

async function fillForm(page: Page, values: VideoFormValues, id: string) {
  const form = dialog(page);
  const titulo = values.titulo ? `${values.titulo} (QA ${id})` : '';
  await form.getByRole('textbox', { name: 'Título' }).fill(titulo);
  await form.getByRole('textbox', { name: 'Descripción corta' }).fill(values.descripcionCorta);
  await form.getByRole('textbox', { name: 'Descripción', exact: true }).fill(values.descripcion);
  const visibleSwitch = form.getByRole('switch', { name: 'Visible para todos' });
  if ((await visibleSwitch.isChecked()) !== values.isVisible) await visibleSwitch.click({ force: true });
}

export const uploadWizardBrowserPlan: BrowserPlan<UploadWizardModelEvent, UploadData> = {
  machine: 'upload-wizard',

  async prepare(world) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-qa-upload-'));
    try {
      const video = path.join(work, 'reunion-anual.mp4');
      const picture = path.join(work, 'portada.png');
      await Promise.all([
        generateTestVideo(video, { seconds: 2, pattern: 'smptebars', toneHz: 440, label: 'QA' }),
        run(mediaTools().ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=orange:s=320x180', '-frames:v', '1', picture]),
      ]);
      return { admin: await administrator(world.instance), video: fs.readFileSync(video), picture: fs.readFileSync(picture) };
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  },

  async open({ page, world }) {
    await openSignedIn(page, world.data.admin);
    await page.getByRole('button', { name: /\(Menú de usuario\)/ }).click();
    await page.getByRole('menuitem', { name: 'Subir video' }).click();
    await visible(dialog(page));
  },

  gates: {
    requestUploadSession: { method: 'POST', matches: (url) => url.pathname === '/api/uploads' },
    sendFile: { method: 'PUT', matches: (url) => /^\/api\/uploads\/[^/]+\/video$/.test(url.pathname) },
    pollUpload: { method: 'GET', matches: (url) => /^\/api\/uploads\/[^/]+$/.test(url.pathname) },
    uploadThumbnail: { method: 'PUT', matches: (url) => /^\/api\/uploads\/[^/]+\/thumbnail$/.test(url.pathname) },
    createVideo: { method: 'POST', matches: (url) => url.pathname === '/api/videos' },
  },

  production: (event) => {
    // The wizard announces any video as a type the location takes (an .avi as bytes): no file makes
    // POST /api/uploads refuse it any more, so its refusals are injected.
    if (event.type === 'xstate.error.actor.requestUploadSession') return 'injected';
    if (event.type === 'upload.refused') return event.reason === 'too-large' ? 'injected' : 'real';
    if (event.type === 'upload.failed') return 'network';
    if (event.type === 'xstate.error.actor.pollUpload') return 'injected';
    if (event.type === 'xstate.done.actor.pollUpload') return event.output.estado === 'processing' ? 'injected' : 'real';
    return 'real';
  },

  // The subtitles after Confirmar run in Chromium in tests/e2e/captions-search.test.ts against the real server.
  jsdomOnlyEvent: (event) =>
    event.type === 'upload.confirm' && event.subtitles.length > 0
      ? 'los subtítulos enviados tras Confirmar se prueban en Chromium en tests/e2e/captions-search.test.ts'
      : null,

  executors: {
    'upload.choose': async (context) => {
      const { page, event } = context;
      const input = dialog(page).locator('input[type="file"]').first();
      if (!event.file.type.startsWith('video/')) {
        await input.setInputFiles({ name: event.file.name, mimeType: event.file.type, buffer: TEXT });
        return;
      }
      await input.setInputFiles(videoFor(context));
    },
    'xstate.done.actor.requestUploadSession': async ({ held }) => (await held('requestUploadSession')).pass(),
    'xstate.error.actor.requestUploadSession': async ({ held, event }) => {
      const { status, type } = event.error as { status: number; type: string };
      await (await held('requestUploadSession')).answerProblem(status, type);
    },
    'upload.retry': async ({ page }) => button(page, 'Reintentar').click(),
    'upload.restart': async ({ page }) => button(page, 'Elegir otro archivo').click(),
    'upload.cancel': async ({ page }) => button(page, 'Cancelar').click(),
    'upload.progress': {
      jsdomOnly: 'el navegador informa del avance de una transferencia real cuando quiere: no se puede detener a medias para ver un porcentaje',
    },
    'upload.sent': async ({ held, page }) => {
      // A resumed transfer first asks what the server holds, then sends the rest: every PUT goes through.
      await (await held('sendFile')).pass();
      const deadline = Date.now() + 60_000;
      while (!(await dialog(page).getByText('Procesando el video…').isVisible())) {
        if (Date.now() > deadline) throw new Error("The transfer did not end in 'Procesando el video…' within 60 s");
        const more = await held('sendFile', 1_000).catch(() => null);
        if (more) await more.pass();
      }
    },
    'upload.failed': async ({ held }) => (await held('sendFile')).cut(),
    'upload.refused': async ({ held, event }) => {
      const call = await held('sendFile');
      if (event.reason === 'too-large') await call.answerProblem(413, 'payload-too-large');
      else await call.pass();
    },
    'xstate.done.actor.pollUpload': async (context) => {
      const { estado } = context.event.output;
      // 'processing' must be the very next answer; 'ready' and 'failed' come after as many as it takes.
      await pollUntil(context, estado, estado === 'processing');
    },
    'xstate.error.actor.pollUpload': async ({ held, event }) => {
      const { status, type } = event.error as { status: number; type: string };
      await (await held('pollUpload')).answerProblem(status, type);
    },
    'xstate.after.pollInterval': async ({ page }) => page.waitForTimeout(POLL_INTERVAL_MS + 300),
    'upload.confirm': async (context) => {
      const { page, event, path: qaPath, world } = context;
      await fillForm(page, event.values, qaPath.id);
      if (event.thumbnail) {
        // A picture that is not one when the path goes on with its refusal (415).
        const refused = nextAnswer(context, ['xstate.error.actor.uploadThumbnail']);
        await dialog(page)
          .locator('input[type="file"][accept*="image"]')
          .setInputFiles({ name: 'portada.png', mimeType: 'image/png', buffer: refused ? TEXT : world.data.picture });
      }
      await button(page, 'Confirmar').click();
    },
    'xstate.done.actor.uploadThumbnail': async ({ held }) => (await held('uploadThumbnail')).pass(),
    // The picture chosen is text: the server refuses it (415).
    'xstate.error.actor.uploadThumbnail': async ({ held }) => (await held('uploadThumbnail')).pass(),
    'xstate.done.actor.createVideo': async ({ held }) => (await held('createVideo')).pass(),
    'xstate.done.actor.sendSubtitles': { jsdomOnly: 'se prueba en Chromium en tests/e2e/captions-search.test.ts' },
    'upload.retrySubtitles': { jsdomOnly: 'se prueba en Chromium en tests/e2e/captions-search.test.ts' },
    'xstate.error.actor.createVideo': async ({ held, page }) => {
      // Someone made a video of this asset first: the same request, sent once before the wizard's (409).
      const call = await held('createVideo');
      const first = await page.request.post(call.request.url(), { headers: call.request.headers(), data: call.request.postData() ?? '' });
      expect(first.status(), await first.text()).toBe(201);
      await call.pass();
    },
  },

  states: {
    '#uploadWizard.open.choosing': async ({ page, snapshot }) => {
      await expectStep(page, 0);
      await visible(dialog(page).getByText('Arrastre un video aquí o haga clic para elegirlo'));
      await disabled(button(page, 'Confirmar'));
      const refused = snapshot.context.refusedFile as string | null;
      if (refused) await visible(dialog(page).getByRole('alert').filter({ hasText: `El archivo «${refused}» no es un video` }));
      else await gone(dialog(page).getByRole('alert'));
    },
    '#uploadWizard.open.requestingSession': async ({ page }) => {
      await expectStep(page, 1);
      await visible(dialog(page).getByText('Preparando la subida…'));
      await disabled(button(page, 'Confirmar'));
    },
    '#uploadWizard.open.sessionFailed': async ({ page }) => {
      await expectStep(page, 1);
      await visible(dialog(page).getByRole('alert').filter({ hasText: 'No se ha podido preparar la subida' }));
      await enabled(button(page, 'Reintentar'));
    },
    '#uploadWizard.open.uploading': async ({ page }) => {
      await expectStep(page, 2);
      // At 0 % the bar has no width (Playwright calls that hidden): its value is what shows.
      await dialog(page).getByRole('progressbar', { name: 'Progreso de la subida' }).waitFor({ state: 'attached', timeout: 15_000 });
      await visible(dialog(page).getByText(/^\d+ %$/));
      await gone(dialog(page).getByRole('alert'));
    },
    '#uploadWizard.open.interrupted': async ({ page }) => {
      await expectStep(page, 2);
      await visible(dialog(page).getByRole('alert').filter({ hasText: 'La subida se ha interrumpido' }));
      await enabled(button(page, 'Reintentar'));
    },
    '#uploadWizard.open.processing.checking': async ({ page }) => {
      await expectStep(page, 2);
      await visible(dialog(page).getByText('Procesando el video…'));
    },
    '#uploadWizard.open.processing.waiting': async ({ page }) => {
      await expectStep(page, 2);
      await visible(dialog(page).getByText('Procesando el video…'));
    },
    '#uploadWizard.open.refused': async ({ page, snapshot }) => {
      const message =
        snapshot.context.refusal === 'too-large' ? 'El archivo supera el tamaño máximo permitido' : 'El archivo no es un video válido';
      await visible(dialog(page).getByRole('alert').filter({ hasText: message }), 60_000);
      await enabled(button(page, 'Elegir otro archivo'));
    },
    '#uploadWizard.open.uploaded': async ({ page, snapshot }) => {
      await enabled(button(page, 'Confirmar'), 60_000);
      await expectStep(page, 3);
      const messages = dialog(page).getByText('* Este campo es obligatorio');
      if (snapshot.context.errors) await visible(messages);
      else await gone(messages);
      await enabled(dialog(page).getByRole('textbox', { name: 'Título' }));
    },
    '#uploadWizard.saving.thumbnail': async ({ page }) => {
      await disabled(dialog(page).getByRole('textbox', { name: 'Título' }));
      await disabled(button(page, 'Cancelar'));
    },
    '#uploadWizard.saving.creating': async ({ page }) => {
      await disabled(dialog(page).getByRole('textbox', { name: 'Título' }));
      await disabled(button(page, 'Cancelar'));
    },
    '#uploadWizard.created': async ({ page, path: qaPath }) => {
      await gone(dialog(page));
      await visible(page.getByRole('alert').filter({ hasText: 'El video se ha creado correctamente' }));
      // The new video is in the library.
      await visible(page.getByRole('heading', { name: new RegExp(`\\(QA ${qaPath.id}\\)`) }));
    },
    '#uploadWizard.cancelled': async ({ page }) => {
      await gone(dialog(page));
    },
  },
};
