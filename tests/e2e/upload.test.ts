import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestVideo, indexFirst, mediaTools, probe } from '../../server/media/ffmpeg.ts';
import { makeForeignVideo } from '../../server/media/foreign-videos.ts';
import { axeViolations } from './axe.ts';
import { startCuttingProxy, type CuttingProxy } from './cutting-proxy.ts';
import { launchBrowser, newestToast, padded, screenshot, startProduct, type RunningProduct } from './harness.ts';
import { callApi, cli, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * Issue 8 in Chromium against the real built server: an administrator uploads a real mp4 (made by
 * ffmpeg here) with a thumbnail through the wizard, sees the progress reach 100 %, confirms, and the
 * new card shows its duration, thumbnail and a preview that plays on hover; a second upload is cut
 * off mid-transfer by the network (a proxy drops the connection) and resumes to completion without
 * choosing the file again; the administrator edits the title and tags, then deletes the video, and
 * its files are gone from storage.
 */

const run = promisify(execFile);

let product: RunningProduct;
let proxy: CuttingProxy;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SignedIn;
let work: string;
let clip: string;
let bigClip: string;
let screenRecording: string;
let obsRecording: string;
let thumbnail: string;
const uploadPuts: Array<{ url: string; contentRange: string | undefined }> = [];

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-e2e-upload-'));
  clip = path.join(work, 'reunion-anual.mp4');
  bigClip = path.join(work, 'grabacion-larga.mp4');
  screenRecording = path.join(work, 'grabacion-de-pantalla.webm');
  obsRecording = path.join(work, 'grabacion-obs.mkv');
  thumbnail = path.join(work, 'portada.png');
  await Promise.all([
    generateTestVideo(clip, { seconds: 6, pattern: 'smptebars', toneHz: 440, label: 'Subida E2E' }),
    makeForeignVideo(screenRecording, 'webm', 4),
    makeForeignVideo(obsRecording, 'matroska', 3),
    run(mediaTools().ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=orange:s=640x360', '-frames:v', '1', thumbnail]),
  ]);
  // Large enough that what the browser has handed to the network when the proxy cuts at 40 % (the
  // proxy's receive buffer, which Linux lets grow to 32 MB, and the browser's send buffer) is still
  // short of the whole file: at 24 MB the browser had sometimes reported 100 % before the cut.
  await padded(clip, bigClip, 80 * 1024 * 1024);

  product = await startProduct();
  // Tags to choose from (and a library that is not empty).
  await cli(product, ['demo', '--videos', '2'], 300_000);
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  proxy = await startCuttingProxy(product.url);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid', bypassCSP: true });
  page = await context.newPage();
  page.on('request', (request: Request) => {
    if (request.method() === 'PUT' && request.url().includes('/api/uploads/')) {
      uploadPuts.push({ url: request.url(), contentRange: request.headers()['content-range'] });
    }
  });
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await product?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const through = () => ({ ...product, url: proxy.url });
const dialog = (name: string) => page.getByRole('dialog', { name });
const toast = (text: string) => newestToast(page, text);
const grid = () => page.getByRole('list', { name: 'Videos' });
const card = (title: string) => grid().getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

async function openUploadDialog(): Promise<void> {
  await page.getByRole('button', { name: /\(Menú de usuario\)/ }).click();
  await page.getByRole('menuitem', { name: 'Subir video' }).click();
  await dialog('Subir video').waitFor();
}

async function chooseVideo(file: string): Promise<void> {
  // The dropzone's file input (it also takes drag and drop): the first file input of the dialog.
  await dialog('Subir video').locator('input[type="file"]').first().setInputFiles(file);
}

async function fillForm(values: { titulo: string; corta: string; descripcion?: string }): Promise<void> {
  const form = dialog('Subir video');
  await form.getByRole('textbox', { name: 'Título' }).fill(values.titulo);
  await form.getByRole('textbox', { name: 'Descripción corta' }).fill(values.corta);
  if (values.descripcion) await form.getByRole('textbox', { name: 'Descripción', exact: true }).fill(values.descripcion);
}

/** Uploads `file` through the wizard with these texts, waits for processing, confirms and waits for the dialog to close. */
async function uploadAndConfirm(file: string, values: { titulo: string; corta: string }, processingMs: number): Promise<void> {
  await openUploadDialog();
  const wizard = dialog('Subir video');
  await chooseVideo(file);
  await fillForm(values);
  await wizard.getByRole('button', { name: 'Confirmar' }).and(page.locator(':enabled')).waitFor({ timeout: processingMs });
  await wizard.getByRole('button', { name: 'Confirmar' }).click();
  await toast('El video se ha creado correctamente').waitFor();
  await wizard.waitFor({ state: 'hidden' });
}

/** The video file the server hands out for the video titled `title`, saved as `name` in the work folder. */
async function servedFile(title: string, name: string): Promise<string> {
  const detail = await callApi(product, 'GET', `/api/videos/${await idOf(title)}`, undefined, admin.token);
  const served = path.join(work, name);
  fs.writeFileSync(served, Buffer.from(await (await fetch(`${product.url}${detail.urlVideo as string}`)).arrayBuffer()));
  return served;
}

async function progressValue(): Promise<number> {
  return Number(await dialog('Subir video').getByRole('progressbar', { name: /^Progreso de / }).getAttribute('aria-valuenow'));
}

async function assetOf(title: string): Promise<string> {
  const list = (await fetch(`${product.url}/api/videos?q=${encodeURIComponent(title)}`, { headers: { Authorization: `Bearer ${admin.token}` } }).then((r) =>
    r.json())) as Array<{ titulo: string; idExterno: string }>;
  const found = list.find((v) => v.titulo === title);
  if (!found) throw new Error(`no video titled ${title}`);
  return found.idExterno;
}

describe('uploading and managing videos in Chromium', () => {
  it('uploads a real mp4 with a thumbnail: progress reaches 100 %, and the new card shows duration, thumbnail and a hover preview', async () => {
    await openSignedIn(page, through(), admin);
    await grid().waitFor();
    await openUploadDialog();
    const wizard = dialog('Subir video');
    await expect(wizard.getByRole('button', { name: 'Confirmar' }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'upload-step0-desktop');
    expect(await axeViolations(page)).toEqual([]);

    await chooseVideo(clip);
    await fillForm({ titulo: 'Reunión anual 2026', corta: 'Resumen de la reunión anual', descripcion: 'Todas las intervenciones de la reunión anual.' });
    await wizard.getByText('Listo', { exact: true }).waitFor({ timeout: 60_000 });
    await wizard.getByRole('button', { name: 'Confirmar' }).and(page.locator(':enabled')).waitFor({ timeout: 60_000 });
    expect(await progressValue()).toBe(100);
    await expect(wizard.getByText('100 %').isVisible()).resolves.toBe(true);
    await wizard.locator('input[type="file"][accept*="image"]').setInputFiles(thumbnail);
    await screenshot(page, 'upload-step3-desktop');

    await wizard.getByRole('button', { name: 'Confirmar' }).click();
    await toast('El video se ha creado correctamente').waitFor();
    await wizard.waitFor({ state: 'hidden' });

    const created = card('Reunión anual 2026');
    await created.waitFor();
    expect(await created.getByText(/^\d+:\d\d$/).innerText()).toBe('0:06');
    const thumb = created.getByRole('img', { name: 'Miniatura de Reunión anual 2026' });
    await page.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0, await thumb.elementHandle());
    // The uploaded picture (solid orange), not a frame of the bars.
    const [r, g, b] = await thumb.evaluate((img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = 8;
      canvas.height = 8;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0, 8, 8);
      return Array.from(ctx.getImageData(4, 4, 1, 1).data);
    });
    expect(r).toBeGreaterThan(200);
    expect(g).toBeGreaterThan(120);
    expect(g).toBeLessThan(200);
    expect(b).toBeLessThan(60);

    await created.hover();
    const preview = created.getByTestId('video-preview');
    await preview.waitFor();
    await page.waitForFunction((video) => video instanceof HTMLVideoElement && video.currentTime > 0 && !video.paused, await preview.elementHandle(), { timeout: 15_000 });
  });

  it('resumes an upload the network cut off, from the bytes the server holds, without choosing the file again', async () => {
    const size = fs.statSync(bigClip).size;
    uploadPuts.length = 0;
    await openUploadDialog();
    const wizard = dialog('Subir video');
    proxy.armUploadCut(Math.floor(size * 0.4));
    await chooseVideo(bigClip);
    await fillForm({ titulo: 'Grabación larga', corta: 'Una grabación que se cortó a medias' });
    await proxy.cut();
    await wizard.getByText('La subida se ha interrumpido').waitFor({ timeout: 30_000 });
    // The bar stays where the browser last reported progress (it may not have reported any before the cut).
    expect(await progressValue()).toBeLessThan(100);
    await screenshot(page, 'upload-interrupted-desktop');

    // The network is back (the outage lasts 3 s), and the person tries again.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await wizard.getByRole('button', { name: 'Reintentar' }).click();
    await wizard.getByRole('button', { name: 'Confirmar' }).and(page.locator(':enabled')).waitFor({ timeout: 60_000 });
    expect(await progressValue()).toBe(100);
    // The resumed transfer started where the server's copy ended, not at byte 0.
    const resumed = uploadPuts
      .map((put) => /^bytes (\d+)-(\d+)\/(\d+)$/.exec(put.contentRange ?? ''))
      .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) > 0);
    expect(resumed.length).toBeGreaterThan(0);
    expect(Number(resumed[0]![1])).toBeGreaterThan(size * 0.3);
    expect(Number(resumed[0]![3])).toBe(size);

    await wizard.getByRole('button', { name: 'Confirmar' }).click();
    await toast('El video se ha creado correctamente').waitFor();
    await wizard.waitFor({ state: 'hidden' });
    const created = card('Grabación larga');
    await created.waitFor();
    expect(await created.getByText(/^\d+:\d\d$/).innerText()).toBe('0:06');
    // The stored file is byte-identical to the one chosen.
    const asset = await assetOf('Grabación larga');
    const stored = await fetch(`${product.url}${(await callApi(product, 'GET', `/api/videos/${await idOf('Grabación larga')}`, undefined, admin.token)).urlVideo as string}`);
    expect(Buffer.from(await stored.arrayBuffer()).equals(fs.readFileSync(bigClip))).toBe(true);
    expect(asset).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });

  it('a WebM screen recording becomes an H.264 MP4 with its index first, which the video page plays', async () => {
    await uploadAndConfirm(screenRecording, { titulo: 'Grabación de pantalla', corta: 'Grabada con el navegador' }, 120_000);
    const created = card('Grabación de pantalla');
    await created.waitFor();
    expect(await created.getByText(/^\d+:\d\d$/).innerText()).toBe('0:04');

    // What the server hands out is an MP4 every browser plays (Safari and Firefox play no VP8).
    const served = await servedFile('Grabación de pantalla', 'served.mp4');
    const info = await probe(served);
    expect([info.formatName.includes('mp4'), info.videoCodec, info.pixelFormat, info.audioCodec]).toEqual([true, 'h264', 'yuv420p', 'aac']);
    expect(await indexFirst(served)).toBe(true);

    await created.getByRole('link', { name: 'Reproducir Grabación de pantalla' }).click();
    await page.getByRole('heading', { level: 1, name: 'Grabación de pantalla' }).waitFor();
    await page.locator('video').first().evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, undefined, { timeout: 15_000 });
    await page.goBack();
    await grid().waitFor();
  });

  it('an OBS recording (.mkv) is taken and served as an MP4 with the same H.264 picture', async () => {
    await uploadAndConfirm(obsRecording, { titulo: 'Grabación de OBS', corta: 'Grabada con OBS Studio' }, 60_000);
    const info = await probe(await servedFile('Grabación de OBS', 'served-obs.mp4'));
    expect([info.formatName.includes('mp4'), info.videoCodec, info.audioCodec, Math.round(info.durationSeconds)]).toEqual([true, 'h264', 'aac', 3]);
  });

  it('Cancelar after the transfer discards the upload on the server: its files are gone at once', async () => {
    uploadPuts.length = 0;
    await openUploadDialog();
    const wizard = dialog('Subir video');
    await chooseVideo(clip);
    await wizard.getByRole('button', { name: 'Confirmar' }).and(page.locator(':enabled')).waitFor({ timeout: 60_000 });
    const asset = /\/api\/uploads\/([^/]+)\/video/.exec(uploadPuts[0]!.url)![1]!;
    expect(fs.readdirSync(path.join(product.dataDir, 'media', asset))).toContain('video.mp4');
    await wizard.getByRole('button', { name: 'Cancelar' }).click();
    await wizard.waitFor({ state: 'hidden' });
    for (let tries = 0; tries < 50 && fs.existsSync(path.join(product.dataDir, 'media', asset)) && fs.readdirSync(path.join(product.dataDir, 'media', asset)).length > 0; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const left = fs.existsSync(path.join(product.dataDir, 'media', asset)) ? fs.readdirSync(path.join(product.dataDir, 'media', asset)) : [];
    expect(left).toEqual([]);
    const status = await fetch(`${product.url}/api/uploads/${asset}`, { headers: { Authorization: `Bearer ${admin.token}` } });
    expect(status.status).toBe(404);
  });

  it('edits the title and tags, then deletes the video and its files', async () => {
    const asset = await assetOf('Reunión anual 2026');
    expect(fs.readdirSync(path.join(product.dataDir, 'media', asset)).length).toBeGreaterThan(0);

    await card('Reunión anual 2026').getByRole('button', { name: 'Editar Reunión anual 2026' }).click();
    const editor = dialog('Editar video');
    await editor.waitFor();
    await editor.getByRole('textbox', { name: 'Título' }).fill('Reunión anual 2026 (editada)');
    const tags = editor.getByLabel('Etiquetas', { exact: true });
    await tags.click();
    const option = page.getByRole('option').first();
    const tagName = (await option.innerText()).trim();
    await option.click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'edit-video-desktop');
    await editor.getByRole('button', { name: 'Guardar' }).click();
    await toast('El video se ha modificado correctamente').waitFor();
    const edited = card('Reunión anual 2026 (editada)');
    await edited.waitFor();
    await expect(edited.getByText(tagName, { exact: true }).first().isVisible()).resolves.toBe(true);

    await edited.getByRole('button', { name: 'Eliminar Reunión anual 2026 (editada)' }).click();
    const confirm = dialog('Eliminar video');
    await confirm.getByText('¿Seguro que desea eliminar el video «Reunión anual 2026 (editada)»?').waitFor();
    await screenshot(page, 'delete-video-desktop');
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await toast('El video se ha eliminado con éxito').waitFor();
    await edited.waitFor({ state: 'detached' });
    expect(fs.existsSync(path.join(product.dataDir, 'media', asset)) ? fs.readdirSync(path.join(product.dataDir, 'media', asset)) : []).toEqual([]);
  });

  it('fits a phone: the wizard at 375×812', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openUploadDialog();
    await screenshot(page, 'upload-step0-mobile');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await dialog('Subir video').getByRole('button', { name: 'Cancelar' }).click();
    await dialog('Subir video').waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

async function idOf(title: string): Promise<number> {
  const list = (await fetch(`${product.url}/api/videos?q=${encodeURIComponent(title)}`, { headers: { Authorization: `Bearer ${admin.token}` } }).then((r) =>
    r.json())) as Array<{ titulo: string; id: number }>;
  const found = list.find((v) => v.titulo === title);
  if (!found) throw new Error(`no video titled ${title}`);
  return found.id;
}
