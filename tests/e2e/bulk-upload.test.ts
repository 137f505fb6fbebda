/**
 * 'Subir video' with several files in Chromium against the real built server (R-UPL-12…18): five
 * files dropped at once, one of them random bytes named .mp4; with the upload throttled, never more
 * than two files transfer at a time while the others wait 'En cola'; the corrupt file is refused
 * with its message while the others are processed; 'Confirmar todos' creates the four videos and,
 * once the refused file is removed, the dialog closes with '4 videos creados' and the list shows
 * the four cards. axe finds nothing on the queue, on a desktop and on a phone.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestVideo } from '../../server/media/ffmpeg.ts';
import { axeViolations } from './axe.ts';
import { launchBrowser, newestToast, padded, screenshot, startProduct, type RunningProduct } from './harness.ts';
import { openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

const NAMES = ['reunion_anual-2024.mp4', 'formacion.mp4', 'bienvenida.mp4', 'cierre-del-curso.mp4'];
const TITLES = ['Reunion anual 2024', 'Formacion', 'Bienvenida', 'Cierre del curso'];
const CORRUPT = 'corrupto.mp4';

let product: RunningProduct;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let admin: SignedIn;
let work: string;
let files: string[];

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-e2e-bulk-'));
  const clip = path.join(work, 'clip.mp4');
  await generateTestVideo(clip, { seconds: 2, pattern: 'smptebars', toneHz: 440, label: 'Lote' });
  // Each clip padded to 3 MB, so that a throttled transfer lasts long enough to be seen.
  files = NAMES.map((name) => path.join(work, name));
  await Promise.all(files.map((file) => padded(clip, file, 3 * 1024 * 1024)));
  const corrupt = path.join(work, CORRUPT);
  fs.writeFileSync(corrupt, crypto.randomBytes(256 * 1024));
  files.splice(2, 0, corrupt);

  product = await startProduct();
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
  page = await context.newPage();
  cdp = await context.newCDPSession(page);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const wizard = () => page.getByRole('dialog', { name: 'Subir video' });
/** A file's row: its accordion control, named by the file. */
const row = (name: string) => wizard().locator(`[data-file="${name}"]`);
const statusOf = (name: string) => row(name).locator('[data-status]');
const control = (name: string) => wizard().locator('.mantine-Accordion-control', { has: page.locator(`[data-file="${name}"]`) });
const item = (name: string) => wizard().locator('.mantine-Accordion-item', { has: page.locator(`[data-file="${name}"]`) });

async function throttle(bytesPerSecond: number | null) {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond ?? -1,
  });
}

async function expand(name: string) {
  if ((await control(name).getAttribute('aria-expanded')) !== 'true') await control(name).click();
}

describe('Subir video with several files at once (Chromium)', () => {
  it('drops five files, transfers two at a time, refuses the corrupt one and creates the other four (R-UPL-12, R-UPL-13, R-UPL-14, R-UPL-16, R-UPL-17)', async () => {
    await openSignedIn(page, product, admin);
    await page.getByRole('button', { name: /\(Menú de usuario\)/ }).click();
    await page.getByRole('menuitem', { name: 'Subir video' }).click();
    await wizard().waitFor();

    // About 1 MB/s for the whole page: each 3 MB file takes seconds.
    await throttle(1024 * 1024);
    await wizard().locator('input[type="file"]').first().setInputFiles(files);
    await row(NAMES[0]!).waitFor();
    expect(await wizard().locator('[data-file]').count()).toBe(5);

    // R-UPL-14: sampled while the transfers run, never more than two files hold a transfer.
    let most = 0;
    let sawQueued = false;
    const names = [...NAMES, CORRUPT];
    for (let sample = 0; sample < 40; sample += 1) {
      const texts = await Promise.all(names.map((name) => statusOf(name).textContent()));
      const transferring = texts.filter((text) => /^(Preparando…|Subiendo \d+ %)$/.test(text ?? '')).length;
      most = Math.max(most, transferring);
      sawQueued ||= texts.includes('En cola') && transferring === 2;
      if (sample === 3) {
        await screenshot(page, 'bulk-upload-queue-desktop');
        expect(await axeViolations(page)).toEqual([]);
      }
      if (texts.every((text) => text !== 'En cola' && !/^(Preparando|Subiendo)/.test(text ?? ''))) break;
      await page.waitForTimeout(250);
    }
    expect(most).toBe(2);
    expect(sawQueued).toBe(true);
    await throttle(null);

    // R-UPL-16: the corrupt file is refused with its message; the others go on to 'Listo'.
    await statusOf(CORRUPT).filter({ hasText: 'Error' }).waitFor({ timeout: 60_000 });
    await expand(CORRUPT);
    await item(CORRUPT).getByText('El archivo no es un video válido').waitFor();
    for (const name of NAMES) await statusOf(name).filter({ hasText: 'Listo' }).waitFor({ timeout: 120_000 });
    await screenshot(page, 'bulk-upload-ready-desktop');

    // R-UPL-15: each file's title comes from its name; its short description is typed.
    for (const [index, name] of NAMES.entries()) {
      await expand(name);
      expect(await item(name).getByRole('textbox', { name: 'Título' }).inputValue()).toBe(TITLES[index]);
      await item(name).getByRole('textbox', { name: 'Descripción corta' }).fill(`Resumen de ${TITLES[index]}`);
    }
    await wizard().getByRole('button', { name: 'Confirmar todos' }).click();
    await wizard().getByText('Ya se han creado 4 videos.').waitFor({ timeout: 30_000 });
    // Only the refused file is left (shown alone, as a single upload): 'Quitar' it and the dialog closes with the batch's toast.
    await wizard().getByRole('button', { name: `Quitar ${CORRUPT}` }).click();
    await newestToast(page, '4 videos creados').waitFor();
    await wizard().waitFor({ state: 'hidden' });
    const grid = page.getByRole('list', { name: 'Videos' });
    for (const title of TITLES) await grid.getByRole('heading', { name: title, exact: true }).waitFor({ timeout: 30_000 });
    expect(await grid.getByRole('listitem').count()).toBe(4);
  }, 300_000);

  it('fits a phone, and closing mid-transfer asks first (R-UPL-18)', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('button', { name: /\(Menú de usuario\)/ }).click();
    await page.getByRole('menuitem', { name: 'Subir video' }).click();
    await wizard().waitFor();
    await throttle(256 * 1024);
    await wizard().locator('input[type="file"]').first().setInputFiles(files);
    await statusOf(CORRUPT).waitFor();
    await screenshot(page, 'bulk-upload-queue-mobile');
    expect(await axeViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await wizard().getByRole('button', { name: 'Cancelar', exact: true }).click();
    const question = page.getByRole('dialog', { name: '¿Cancelar las subidas en curso?' });
    await question.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await question.getByRole('button', { name: 'Seguir subiendo' }).click();
    await question.waitFor({ state: 'hidden' });
    expect(await wizard().isVisible()).toBe(true);
    await wizard().getByRole('button', { name: 'Cancelar', exact: true }).click();
    await question.getByRole('button', { name: 'Cancelar las subidas' }).click();
    await wizard().waitFor({ state: 'hidden' });
    await throttle(null);
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 180_000);
});
