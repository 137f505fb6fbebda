import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestVideo } from '../../server/media/ffmpeg.ts';
import { axeViolations } from './axe.ts';
import { launchBrowser, newestToast, screenshot, startProduct, watchPage, type RunningProduct } from './harness.ts';
import { callApi, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * 'Reemplazar archivo' in Chromium against the built server (R-ADM-20, R-ADM-21): a 4-second video
 * rated and marked favourite by the administrator gets a 9-second file with another picture through
 * 'Editar video'; the same page then plays the new file, and the rating and favourite are kept.
 */

let product: RunningProduct;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let watched: ReturnType<typeof watchPage>;
let admin: SignedIn;
let work: string;
let clipA: string;
let clipB: string;
let videoId: number;
const TITLE = 'Charla de bienvenida';

/** A video made through the API as the wizard makes it: session, PUT of the file, processing, POST /api/videos. */
async function createVideo(file: string, titulo: string): Promise<number> {
  const bytes = fs.readFileSync(file);
  const session = await callApi(product, 'POST', '/api/uploads', { video: { contentType: 'video/mp4', size: bytes.length } }, admin.token);
  const assetId = session.assetId as string;
  const sent = await fetch(`${product.url}${(session.video as { uploadUrl: string }).uploadUrl}`, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: bytes });
  expect(sent.status).toBe(204);
  for (const deadline = Date.now() + 120_000; ; await new Promise((resolve) => setTimeout(resolve, 250))) {
    const state = await callApi(product, 'GET', `/api/uploads/${assetId}`, undefined, admin.token);
    if (state.estado === 'ready') break;
    if (state.estado === 'failed' || Date.now() > deadline) throw new Error(`the upload did not become ready: ${JSON.stringify(state)}`);
  }
  const video = await callApi(product, 'POST', '/api/videos', { isVisible: true, titulo, descripcionCorta: 'La primera grabación', tags: [], idExterno: assetId }, admin.token);
  return video.id as number;
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-e2e-replace-'));
  clipA = path.join(work, 'charla-original.mp4');
  clipB = path.join(work, 'charla-corregida.mp4');
  await Promise.all([
    generateTestVideo(clipA, { seconds: 4, pattern: 'smptebars', toneHz: 440, label: 'Versión A' }),
    generateTestVideo(clipB, { seconds: 9, pattern: 'testsrc2', toneHz: 880, label: 'Versión B' }),
  ]);
  product = await startProduct();
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  videoId = await createVideo(clipA, TITLE);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid', bypassCSP: true });
  page = await context.newPage();
  watched = watchPage(page);
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const toast = (text: string) => newestToast(page, text);
const editor = () => page.getByRole('dialog', { name: 'Editar video' });
const section = () => editor().getByRole('group', { name: 'Reemplazar archivo' });
const card = () => page.getByRole('list', { name: 'Videos' }).getByRole('listitem').filter({ has: page.getByRole('heading', { name: TITLE, exact: true }) });
const stars = () => page.getByRole('radiogroup', { name: 'Su puntuación' });

async function pick(radio: Locator): Promise<void> {
  const id = await radio.getAttribute('id');
  await page.locator(`label[for="${id}"]`).click();
}

/** Plays the page's video (muted) until it is playing past `seconds`; answers its duration. */
async function playedDuration(seconds: number): Promise<number> {
  const video = page.locator('main video');
  await video.waitFor();
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
  });
  await page.waitForFunction((past) => {
    const element = document.querySelector<HTMLVideoElement>('main video');
    return element !== null && !element.paused && element.currentTime > past;
  }, seconds, { timeout: 20_000 });
  return video.evaluate((element: HTMLVideoElement) => element.duration);
}

async function openEditor(): Promise<void> {
  await card().getByRole('button', { name: `Editar ${TITLE}` }).click();
  await editor().waitFor();
}

async function chooseReplacement(file: string): Promise<void> {
  await section().locator('input[type="file"]').setInputFiles(file);
}

describe("replacing a video's file in Chromium", () => {
  it('keeps the id, rating and favourite; the same page plays the new 9-second file (R-ADM-20, R-ADM-21)', async () => {
    try {
      // The administrator watches, rates and marks the original.
      await openSignedIn(page, product, admin, `/videos/${videoId}`);
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      expect(await playedDuration(0.5)).toBeCloseTo(4, 0);
      await pick(stars().getByRole('radio', { name: '4 estrellas' }));
      await toast('Video puntuado con 4 estrellas').waitFor();
      await page.getByRole('button', { name: 'Favorito' }).click();
      await toast('Video añadido a favoritos').waitFor();
      const oldVideoUrl = (await callApi(product, 'GET', `/api/videos/${videoId}`, undefined, admin.token)).urlVideo as string;

      await page.goto(`${product.url}/videos`);
      await card().waitFor();
      expect(await card().getByText(/^\d+:\d\d$/).innerText()).toBe('0:04');
      const oldThumbnail = await card().getByRole('img', { name: `Miniatura de ${TITLE}` }).getAttribute('src');
      await openEditor();
      await section().getByText(/conserva sus datos, valoraciones, favoritos/).waitFor();
      await chooseReplacement(clipB);
      await section().getByText('charla-corregida.mp4').waitFor();
      await section().getByRole('progressbar', { name: 'Progreso de la subida' }).waitFor();
      await section().getByText('El video actual se sigue viendo hasta que el nuevo esté listo.', { exact: false }).waitFor();
      const replace = section().getByRole('button', { name: 'Reemplazar archivo' });
      await replace.waitFor({ timeout: 120_000 });
      expect(await section().getByRole('progressbar', { name: 'Progreso de la subida' }).getAttribute('aria-valuenow')).toBe('100');
      await section().scrollIntoViewIfNeeded();
      await screenshot(page, 'replace-file-ready-desktop');
      expect(await axeViolations(page), 'the edit dialog with a replacement ready').toEqual([]);
      // Until the swap the old file is still the video's.
      expect((await callApi(product, 'GET', `/api/videos/${videoId}`, undefined, admin.token)).urlVideo).toBe(oldVideoUrl);

      await replace.click();
      await toast('Archivo reemplazado').waitFor();
      await section().getByText('Archivo reemplazado por «charla-corregida.mp4»').waitFor();
      await section().scrollIntoViewIfNeeded();
      await screenshot(page, 'replace-file-done-desktop');
      await editor().getByRole('button', { name: 'Cancelar' }).click();
      await editor().waitFor({ state: 'hidden' });
      // The card shows the new duration and thumbnail without reloading.
      await card().getByText('0:09', { exact: true }).waitFor();
      expect(await card().getByRole('img', { name: `Miniatura de ${TITLE}` }).getAttribute('src')).not.toBe(oldThumbnail);
      expect((await fetch(`${product.url}${oldVideoUrl}`)).status).toBe(404);

      // The same address plays the new file, with the administrator's marks.
      await card().getByRole('link', { name: `Reproducir ${TITLE}` }).click();
      await page.waitForURL(`${product.url}/videos/${videoId}`);
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      const duration = await playedDuration(4.5);
      expect(duration).toBeGreaterThan(8.5);
      expect(duration).toBeLessThan(9.5);
      expect(await stars().getByRole('radio', { name: '4 estrellas' }).isChecked()).toBe(true);
      expect(await page.getByRole('button', { name: 'Favorito' }).getAttribute('aria-pressed')).toBe('true');
      await screenshot(page, 'replace-file-playing-desktop');
    } catch (error) {
      throw new Error(`${String(error)}\n${await watched.describe('replace-file')}`, { cause: error });
    }
  }, 300_000);

  it('fits a phone: the section showing its progress, then ready, at 375×812; Cancelar discards it (R-ADM-20, R-ADM-23)', async () => {
    try {
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(`${product.url}/videos`);
      await card().waitFor();
      await openEditor();
      // A slow uplink (about 80 KB/s), so the transfer lasts long enough to be looked at (the screenshot waits up to 5 s for animations).
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 80 * 1024 });
      await chooseReplacement(clipB);
      await section().getByText(/^\d+(,\d)? (B|KB|MB)\/s$/).waitFor({ timeout: 20_000 });
      expect(Number(await section().getByRole('progressbar', { name: 'Progreso de la subida' }).getAttribute('aria-valuenow'))).toBeLessThan(100);
      await section().scrollIntoViewIfNeeded();
      await screenshot(page, 'replace-file-progress-mobile');
      expect(await axeViolations(page), 'the edit dialog with a replacement under way').toEqual([]);
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await section().getByRole('button', { name: 'Reemplazar archivo' }).waitFor({ timeout: 120_000 });
      await section().scrollIntoViewIfNeeded();
      await screenshot(page, 'replace-file-ready-mobile');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const discarded = page.waitForRequest((request) => request.method() === 'DELETE' && request.url().includes('/api/uploads/'));
      await section().getByRole('button', { name: 'Cancelar el reemplazo' }).click();
      expect((await (await discarded).response())?.status()).toBe(204);
      await section().getByRole('button', { name: 'Elegir el video que reemplaza al actual' }).waitFor();
      await editor().getByRole('button', { name: 'Cancelar' }).click();
      await editor().waitFor({ state: 'hidden' });
      // The video still has the file it was given, 9 seconds long.
      expect(Math.round((await callApi(product, 'GET', `/api/videos/${videoId}`, undefined, admin.token)).duracion as number)).toBe(9);
    } catch (error) {
      throw new Error(`${String(error)}\n${await watched.describe('replace-file-mobile')}`, { cause: error });
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  }, 300_000);
});
