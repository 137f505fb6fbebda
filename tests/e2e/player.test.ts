import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { launchBrowser, startProduct, type RunningProduct } from './harness.ts';
import { callApi, cli, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * The player's own controls (R-VID-10, R-VID-11, R-VID-13) in Chromium on the built product, on the
 * MP4 path (the demo library has no HLS renditions). PLAYER_SHOTS=dir keeps pictures of it.
 */
let product: RunningProduct;
let browser: Browser;
let user: SignedIn;
let videoPath: string;
const shots = process.env.PLAYER_SHOTS;

beforeAll(async () => {
  product = await startProduct();
  await cli(product, ['demo', '--videos', '1'], 300_000);
  user = await registerThroughApi(product, 'pia.user');
  const listed = (await callApi(product, 'GET', '/api/videos?limit=1', undefined, user.token)) as unknown as Array<{ id: number }>;
  videoPath = `/videos/${listed[0]!.id}`;
  browser = await launchBrowser();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function shot(page: Page, name: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

const currentTime = (page: Page) => page.locator('main video').evaluate((element: HTMLVideoElement) => element.currentTime);

describe('the player on a video’s page', () => {
  it('plays with space, seeks with l, sets 1,5× from Velocidad and lists the shortcuts with ?, axe finding nothing (R-VID-10, R-VID-11, R-VID-13)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, locale: 'es-ES' });
    const page = await context.newPage();
    try {
      await openSignedIn(page, product, user, videoPath);
      const video = page.locator('main video');
      await video.waitFor();
      expect(await video.getAttribute('controls')).toBeNull();
      const play = page.getByRole('button', { name: 'Reproducir', exact: true });
      await play.waitFor();
      await page.getByRole('slider', { name: 'Posición' }).waitFor();
      await page.waitForFunction(() => (document.querySelector('main video') as HTMLVideoElement | null)?.readyState! >= 1);
      await video.evaluate((element: HTMLVideoElement) => void (element.muted = true));
      await shot(page, 'desktop-controls');

      // Space on the page's body plays.
      await page.locator('body').focus();
      await page.keyboard.press(' ');
      await page.waitForFunction(() => (document.querySelector('main video') as HTMLVideoElement).currentTime > 0.5, undefined, { timeout: 15_000 });
      await page.getByRole('button', { name: 'Pausar', exact: true }).waitFor();
      await page.keyboard.press('k');
      await page.getByRole('button', { name: 'Reproducir', exact: true }).waitFor();
      // The demo videos are short: +10 s goes to the end when less is left.
      await video.evaluate((element: HTMLVideoElement) => void (element.currentTime = 0));
      const before = await currentTime(page);
      const duration = await video.evaluate((element: HTMLVideoElement) => element.duration);
      await page.keyboard.press('l');
      await page.waitForFunction(
        ({ from, end }) => Math.abs((document.querySelector('main video') as HTMLVideoElement).currentTime - Math.min(end, from + 10)) < 0.5,
        { from: before, end: duration },
        { timeout: 10_000 },
      );

      await page.getByRole('button', { name: 'Velocidad: Normal' }).click();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      await shot(page, 'desktop-speed-menu');
      expect(await axeViolations(page), 'the speed menu open').toEqual([]);
      await menu.getByRole('menuitem', { name: '1,5' }).click();
      expect(await video.evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(1.5);

      await page.locator('body').focus();
      await page.keyboard.press('?');
      const overlay = page.getByRole('dialog', { name: 'Atajos de teclado' });
      await overlay.waitFor();
      await overlay.getByText('Avanzar 10 segundos').waitFor();
      await page.waitForTimeout(400);
      await shot(page, 'desktop-shortcuts');
      expect(await axeViolations(page), 'the shortcuts overlay open').toEqual([]);
      await page.keyboard.press('Escape');
      await overlay.waitFor({ state: 'hidden' });

      if (shots) {
        await page.setViewportSize({ width: 375, height: 812 });
        await shot(page, 'phone-controls');
        await page.getByRole('button', { name: /^Velocidad/ }).click();
        await page.getByRole('menu').waitFor();
        await shot(page, 'phone-speed-menu');
        await page.keyboard.press('Escape');
      }
    } finally {
      await context.close();
    }
  }, 120_000);

  it('fades its control bar out while the video plays untouched and brings the same bar back at a pointer move (R-VID-30)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, locale: 'es-ES' });
    const page = await context.newPage();
    try {
      await openSignedIn(page, product, user, videoPath);
      const video = page.locator('main video');
      await page.waitForFunction(() => (document.querySelector('main video') as HTMLVideoElement | null)?.readyState! >= 1);
      await video.evaluate((element: HTMLVideoElement) => {
        element.muted = true;
        element.currentTime = 0;
      });
      const bar = await page.locator('[data-player-controls]').elementHandle();
      const opacity = () => page.locator('[data-player-controls]').evaluate((element) => getComputedStyle(element).opacity);
      await page.getByRole('button', { name: 'Reproducir', exact: true }).click();
      // The pointer leaves the player; the video plays on.
      await page.mouse.move(5, 5);
      await expect.poll(opacity, { timeout: 6_000 }).toBe('0');
      expect(await video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
      await shot(page, 'desktop-controls-idle');
      const box = (await video.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
      await expect.poll(opacity).toBe('1');
      expect(await bar!.evaluate((element) => element.isConnected)).toBe(true);
      // Paused, the bar stays however long nobody moves.
      await page.keyboard.press('k');
      await page.mouse.move(5, 5);
      await page.waitForTimeout(3_500);
      expect(await opacity()).toBe('1');
    } finally {
      await context.close();
    }
  }, 60_000);
});
