import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { generateTestVideo } from '../../server/media/ffmpeg.ts';
import { axeViolations } from './axe.ts';
import { startCuttingProxy, type CuttingProxy } from './cutting-proxy.ts';
import { launchBrowser, startProduct, watchPage, type RunningProduct } from './harness.ts';
import { callApi, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * Adaptive streaming in Chromium (MSE, no native HLS: hls.js plays) on the built product: a real
 * 90-s 856×480 clip is uploaded through the API, the server makes its ladder (240p, 360p, 480p) and
 * storyboard after it is ready, and the pages open through a proxy that can take the network down.
 * STREAMING_SHOTS=dir keeps pictures of the quality menu and the storyboard preview.
 */
const SECONDS = 90;
let product: RunningProduct;
let proxy: CuttingProxy;
let browser: Browser;
let user: SignedIn;
let work: string;
let videoPath: string;
let hls: { master: string; storyboard: string; heights: number[] };
const shots = process.env.STREAMING_SHOTS;

async function waitUntil<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-e2e-streaming-'));
  const clip = path.join(work, 'clip.mp4');
  const [started] = await Promise.all([
    startProduct(),
    generateTestVideo(clip, { seconds: SECONDS, width: 856, height: 480, pattern: 'testsrc2', toneHz: 440, label: 'Streaming E2E' }),
  ]);
  product = started;
  proxy = await startCuttingProxy(product.url);
  const admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  user = await registerThroughApi(product, 'pia.user');

  // The upload as the wizard makes it: a session, the file PUT to its signed location, the video created once ready.
  const bytes = fs.readFileSync(clip);
  const session = (await callApi(product, 'POST', '/api/uploads', { video: { contentType: 'video/mp4', size: bytes.length } }, admin.token)) as {
    assetId: string;
    video: { uploadUrl: string };
  };
  const put = await fetch(new URL(session.video.uploadUrl, product.url), { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: bytes });
  expect(put.status).toBe(204);
  await waitUntil('the upload is processed', 120_000, async () => {
    const state = await callApi(product, 'GET', `/api/uploads/${session.assetId}`, undefined, admin.token);
    if (state.estado === 'failed') throw new Error(`processing failed: ${JSON.stringify(state)}`);
    return state.estado === 'ready' ? true : undefined;
  });
  const created = await callApi(
    product,
    'POST',
    '/api/videos',
    { isVisible: true, titulo: 'Streaming adaptativo', descripcionCorta: 'Tres calidades y un storyboard', tags: [], idExterno: session.assetId },
    admin.token,
  );
  videoPath = `/videos/${String(created.id)}`;

  // The ladder is made after the video is ready; the master is rewritten as each rendition is done.
  hls = await waitUntil('the ladder and the storyboard are made', 400_000, async () => {
    const video = await callApi(product, 'GET', `/api/videos/${String(created.id)}`, undefined, admin.token);
    if (typeof video.urlHls !== 'string' || typeof video.urlStoryboard !== 'string') return undefined;
    const master = await (await fetch(new URL(video.urlHls, product.url))).text();
    const heights = [...master.matchAll(/RESOLUTION=\d+x(\d+)/g)].map((match) => Number(match[1]));
    return heights.length >= 3 ? { master: video.urlHls, storyboard: video.urlStoryboard, heights } : undefined;
  });
  browser = await launchBrowser();
}, 480_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await product?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** One rendition's media playlist as the server wrote it: each segment's start time and byte range. */
async function segmentsOf(height: number): Promise<{ init: { offset: number; length: number }; segments: Array<{ start: number; offset: number; length: number }>; size: number }> {
  const text = await (await fetch(new URL(hls.master.replace('hls-master.m3u8', `hls-${height}p.m3u8`), product.url))).text();
  const map = /#EXT-X-MAP:URI="[^"]+",BYTERANGE="(\d+)@(\d+)"/.exec(text)!;
  const segments: Array<{ start: number; offset: number; length: number }> = [];
  let time = 0;
  let duration = 0;
  for (const line of text.split('\n')) {
    const extinf = /^#EXTINF:([\d.]+)/.exec(line);
    if (extinf) duration = Number(extinf[1]);
    const range = /^#EXT-X-BYTERANGE:(\d+)@(\d+)/.exec(line);
    if (range) {
      segments.push({ start: time, offset: Number(range[2]), length: Number(range[1]) });
      time += duration;
    }
  }
  const last = segments.at(-1)!;
  return { init: { offset: Number(map[2]), length: Number(map[1]) }, segments, size: last.offset + last.length };
}

interface RangeRequest {
  height: number;
  first: number;
  last: number;
  request: Request;
}

/** The byte-range requests of the renditions' media files the page makes, as they go. */
function watchRanges(page: Page): RangeRequest[] {
  const seen: RangeRequest[] = [];
  page.on('request', (request) => {
    const file = /\/hls-0*(\d+)p\.mp4$/.exec(new URL(request.url()).pathname);
    if (!file) return;
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers()['range'] ?? '');
    // A request without a range (the whole file) counts as all of it.
    seen.push({ height: Number(file[1]), first: range ? Number(range[1]) : 0, last: range ? Number(range[2]) : Number.POSITIVE_INFINITY, request });
  });
  return seen;
}

async function openVideo(viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page; describe: (name: string) => Promise<string> }> {
  const context = await browser.newContext({ viewport, bypassCSP: true, locale: 'es-ES' });
  const page = await context.newPage();
  const watcher = watchPage(page);
  return { context, page, describe: watcher.describe };
}

/** Runs an assertion and, only when it fails, adds the page's description (and its screenshot) to the error. */
async function described(describe: (name: string) => Promise<string>, name: string, check: () => unknown): Promise<void> {
  try {
    await check();
  } catch (error) {
    throw new Error(`${String(error)}\n${await describe(name)}`);
  }
}

const media = (page: Page) => page.locator('main video');
const currentTime = (page: Page) => media(page).evaluate((element: HTMLVideoElement) => element.currentTime);
/** The seek bar's whole track (its slider role is on the thumb only). */
const seekBar = (page: Page) => page.locator('[data-player-controls] .mantine-Slider-root').first();
const qualityButton = (page: Page) => page.getByRole('button', { name: /^Calidad: / });

/**
 * Opens the video's page through the proxy, signed in, with hls.js's levels known and the sound off;
 * `search` ('?t=0') to start from somewhere else than the position the earlier tests saved.
 */
async function showVideo(page: Page, describe: (name: string) => Promise<string>, search = ''): Promise<void> {
  await openSignedIn(page, { ...product, url: proxy.url }, user, `${videoPath}${search}`);
  await qualityButton(page)
    .waitFor({ timeout: 20_000 })
    .catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await describe('no-quality-menu')}`);
    });
  await page.waitForFunction(() => (document.querySelector('main video') as HTMLVideoElement | null)?.readyState! >= 1, undefined, { timeout: 20_000 });
  await media(page).evaluate((element: HTMLVideoElement) => void (element.muted = true));
}

async function advances(page: Page, beyond: number, timeout = 15_000): Promise<void> {
  await page.waitForFunction((at) => (document.querySelector('main video') as HTMLVideoElement).currentTime > at, beyond, { timeout });
}

/** The slow link ADR 0106 plans for: 1.6 Mbit/s, 150 ms. */
async function slowLink(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 200_000 });
}

async function shot(page: Page, name: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

describe('adaptive streaming in Chromium', () => {
  it('answers the signed streaming locations with 206 for a byte range (R-VID-17)', async () => {
    const url = new URL(hls.master.replace('hls-master.m3u8', `hls-${hls.heights[0]}p.mp4`), product.url);
    const response = await fetch(url, { headers: { Range: 'bytes=100-199' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toMatch(/^bytes 100-199\/\d+$/);
    expect((await response.arrayBuffer()).byteLength).toBe(100);
  });

  it('plays through hls.js from a blob: source, starting at the lowest rendition (R-VID-9, R-VID-18)', async () => {
    const { context, page, describe } = await openVideo();
    try {
      const ranges = watchRanges(page);
      const playlists: string[] = [];
      page.on('request', (request) => {
        const name = /\/(hls-[^/]+\.m3u8)$/.exec(new URL(request.url()).pathname)?.[1];
        if (name) playlists.push(name);
      });
      await showVideo(page, describe);
      expect(await media(page).evaluate((element: HTMLVideoElement) => element.currentSrc)).toMatch(/^blob:/);
      // ADR 0106: the first picture comes from the lowest rendition, whatever hls.js guesses of the link.
      await described(describe, 'streaming-start', () => expect(playlists.slice(0, 2)).toEqual(['hls-master.m3u8', `hls-${hls.heights[0]}p.m3u8`]));
      expect(ranges[0]?.height).toBe(hls.heights[0]);
      await page.getByRole('button', { name: 'Reproducir', exact: true }).click();
      await advances(page, 1.5);
      await page.getByRole('button', { name: 'Pausar', exact: true }).waitFor();
    } finally {
      await context.close();
    }
  }, 60_000);

  it('switches to a fixed height from Calidad, saying so until it plays, and back to Automática (R-VID-12, R-VID-32)', async () => {
    const { context, page, describe } = await openVideo();
    try {
      await showVideo(page, describe);
      await page.getByRole('button', { name: 'Reproducir', exact: true }).click();
      await advances(page, 0.5);
      const height = () => media(page).evaluate((element: HTMLVideoElement) => element.videoHeight);
      const choose = async (label: string) => {
        await qualityButton(page).click();
        const menu = page.getByRole('menu');
        await menu.waitFor();
        await menu.getByRole('menuitem', { name: label, exact: true }).click();
        await menu.waitFor({ state: 'hidden' });
      };
      const top = Math.max(...hls.heights);
      const lowest = Math.min(...hls.heights);
      // hls.js starts on the lowest rendition: choosing it may settle at once (R-VID-32).
      await choose(`${lowest}p`);
      await described(describe, 'quality-lowest', () => expect.poll(height, { timeout: 20_000 }).toBe(lowest));
      await page.getByRole('button', { name: `Calidad: ${lowest}p` }).waitFor();
      // R-VID-32: every text the switch's status shows, however briefly, is recorded.
      await page.evaluate(() => {
        const status = document.querySelector('[data-player-controls] > [role="status"]')!;
        const seen: string[] = [];
        (window as unknown as { qualityStatus: string[] }).qualityStatus = seen;
        new MutationObserver(() => seen.push(status.textContent ?? '')).observe(status, { childList: true, characterData: true, subtree: true });
      });
      await choose(`${top}p`);
      await expect.poll(height, { timeout: 20_000 }).toBe(top);
      // Once the height plays, hls.js says so and the switch settles: the button names it, the status is empty.
      await page.getByRole('button', { name: `Calidad: ${top}p` }).waitFor({ timeout: 5000 });
      const seen = await page.evaluate(() => (window as unknown as { qualityStatus: string[] }).qualityStatus);
      await described(describe, 'quality-switching', () => expect(seen).toContain(`Cambiando a ${top}p`));
      expect(seen.at(-1)).toBe('');
      await choose('Automática');
      await page.getByRole('button', { name: 'Calidad: Automática' }).waitFor();
      await qualityButton(page).click();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      expect(await menu.getByRole('menuitem', { name: 'Automática' }).getAttribute('aria-current')).toBe('true');
      expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Automática', ...[...hls.heights].sort((a, b) => b - a).map((h) => `${h}p`)]);
      await shot(page, 'desktop-quality-menu');
      if (shots) {
        await page.keyboard.press('Escape');
        await page.setViewportSize({ width: 375, height: 812 });
        await qualityButton(page).click();
        await page.getByRole('menu').waitFor();
        await shot(page, 'phone-quality-menu');
      }
    } finally {
      await context.close();
    }
  }, 90_000);

  it('fetches only the first seconds until the video is started, then buffers ahead (R-VID-31)', async () => {
    const { context, page, describe } = await openVideo();
    try {
      // From the start: the earlier tests played on, and saved where they were (R-VID-28).
      await showVideo(page, describe, '?t=0');
      const bufferedEnd = () => media(page).evaluate((element: HTMLVideoElement) => (element.buffered.length ? element.buffered.end(element.buffered.length - 1) : 0));
      await page.waitForFunction(() => (document.querySelector('main video') as HTMLVideoElement).readyState >= 3, undefined, { timeout: 20_000 });
      // Time enough for hls.js to fill its whole buffer on the loopback, as it did before.
      await page.waitForTimeout(3000);
      const early = await bufferedEnd();
      // 4 s asked for, rounded up to whole segments of 2 s, one of slack.
      await described(describe, 'preload', () => expect(early).toBeGreaterThan(0));
      expect(early).toBeLessThanOrEqual(8.5);
      await page.getByRole('button', { name: 'Reproducir', exact: true }).click();
      await expect.poll(bufferedEnd, { timeout: 15_000 }).toBeGreaterThan(20);
      await page.getByRole('button', { name: 'Pausar', exact: true }).click();
    } finally {
      await context.close();
    }
  });

  it('fetches, after a seek to the middle, only the byte ranges of the segments from there on (R-VID-17)', async () => {
    const { context, page, describe } = await openVideo();
    try {
      // On the loopback hls.js would have the whole clip before any seek (it buffers up to 60 MB
      // ahead), and the seek would fetch nothing: the slow link keeps its buffer short.
      await slowLink(context, page);
      const ranges = watchRanges(page);
      await showVideo(page, describe);
      await page.waitForFunction(() => (document.querySelector('main video') as HTMLVideoElement).readyState >= 3, undefined, { timeout: 20_000 });
      const bufferedEnd = await media(page).evaluate((element: HTMLVideoElement) => (element.buffered.length ? element.buffered.end(element.buffered.length - 1) : 0));
      expect(bufferedEnd).toBeLessThan(SECONDS / 2 - 4);
      // What the page asks for before the seek (its first seconds, hls.js's climb to a higher
      // rendition) is not the seek's: wait until it has been quiet for 2 s.
      for (let last = -1, quietSince = Date.now(); Date.now() - quietSince < 2000; await page.waitForTimeout(250)) {
        if (ranges.length !== last) {
          last = ranges.length;
          quietSince = Date.now();
        }
      }
      const before = ranges.length;

      const bar = seekBar(page);
      const box = (await bar.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction(() => {
        const element = document.querySelector('main video') as HTMLVideoElement;
        return !element.seeking && element.readyState >= 3;
      }, undefined, { timeout: 30_000 });
      const target = await currentTime(page);
      expect(Math.abs(target - SECONDS / 2)).toBeLessThan(3);
      // A few more segments ahead of the new position, then look at what was asked for.
      await page.waitForTimeout(3000);
      const sinceSeek = ranges.slice(before);
      await described(describe, 'seek-ranges', () => expect(sinceSeek.length).toBeGreaterThan(0));

      // The bound: per rendition, nothing before the segment 4 s ahead of the target (one segment of
      // slack for hls.js's choice) other than the init section, and no more in all than the segments
      // up to 34 s after it (its 30-s goal plus two segments): about 40 % of a 90-s file.
      for (const height of new Set(sinceSeek.map((entry) => entry.height))) {
        const { init, segments, size } = await segmentsOf(height);
        const from = segments.filter((segment) => segment.start <= target - 4).at(-1) ?? segments[0]!;
        const until = segments.filter((segment) => segment.start <= target + 34).at(-1)!;
        const allowed = until.offset + until.length - from.offset + init.length;
        const mine = sinceSeek.filter((entry) => entry.height === height);
        for (const entry of mine) {
          const isInit = entry.first === init.offset && entry.last === init.offset + init.length - 1;
          if (!isInit) expect(entry.first, `a range of ${height}p after the seek to ${target.toFixed(1)} s`).toBeGreaterThanOrEqual(from.offset);
        }
        const requested = mine.reduce((sum, entry) => sum + (entry.last - entry.first + 1), 0);
        expect(requested, `${height}p: bytes after the seek, of ${size}`).toBeLessThanOrEqual(allowed);
        expect(allowed).toBeLessThan(size * 0.6);
      }
      // The ranges are answered as ranges.
      const statuses = await Promise.all(sinceSeek.map(async (entry) => (await entry.request.response())?.status()));
      expect(new Set(statuses)).toEqual(new Set([206]));
    } finally {
      await context.close();
    }
  }, 90_000);

  it('obeys the shortcuts on the HLS path and previews storyboard frames over the seek bar (R-VID-13, R-VID-15)', async () => {
    const { context, page, describe } = await openVideo();
    try {
      const sprites: number[] = [];
      page.on('response', (response) => {
        if (response.url().endsWith('/storyboard.jpg')) sprites.push(response.status());
      });
      await showVideo(page, describe);
      await page.locator('body').focus();
      await page.keyboard.press(' ');
      await advances(page, 1);
      await page.getByRole('button', { name: 'Pausar', exact: true }).waitFor();
      await page.keyboard.press(' ');
      await page.getByRole('button', { name: 'Reproducir', exact: true }).waitFor();

      const at = await currentTime(page);
      await page.keyboard.press('l');
      await expect.poll(() => currentTime(page)).toBeCloseTo(at + 10, 0);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => currentTime(page)).toBeCloseTo(at + 5, 0);
      // The picture there arrives: the seek is played from the stream.
      await page.waitForFunction(() => (document.querySelector('main video') as HTMLVideoElement).readyState >= 3, undefined, { timeout: 15_000 });

      await page.keyboard.press('m');
      await expect.poll(() => media(page).evaluate((element: HTMLVideoElement) => element.muted)).toBe(false);
      await page.getByRole('button', { name: 'Silenciar', exact: true }).waitFor();
      await page.keyboard.press('m');
      await page.getByRole('button', { name: 'Activar sonido', exact: true }).waitFor();

      await page.keyboard.press('f');
      await page.getByRole('button', { name: 'Salir de pantalla completa' }).waitFor({ timeout: 5000 });
      expect(await page.evaluate(() => document.fullscreenElement?.getAttribute('aria-label'))).toBeTruthy();
      await page.keyboard.press('f');
      await page.getByRole('button', { name: 'Pantalla completa', exact: true }).waitFor();

      await page.keyboard.press('?');
      const overlay = page.getByRole('dialog', { name: 'Atajos de teclado' });
      await overlay.waitFor();
      await page.keyboard.press('Escape');
      await overlay.waitFor({ state: 'hidden' });

      // Hovering the seek bar at three quarters: the sprite's frame of that time, and the time.
      const bar = seekBar(page);
      const box = (await bar.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
      const preview = page.locator('[data-storyboard-preview]');
      await preview.waitFor();
      const frame = preview.getByRole('img');
      // Read at once, while the pointer is there (the page's description, a screenshot, only on a mismatch).
      const { background, label, shown } = await frame.evaluate((element) => ({
        background: getComputedStyle(element).backgroundImage,
        label: element.getAttribute('aria-label') ?? '',
        shown: element.closest('[data-storyboard-preview]')?.textContent ?? '',
      }));
      const sprite = /\/api\/media\/[^/]+\/s\/\d+\/[^/]+\/storyboard\.jpg"\)$/;
      if (!sprite.test(background)) throw new Error(`no storyboard frame (${background})\n${await describe('storyboard-preview')}`);
      expect(label).toMatch(/^\d+:\d{2}$/);
      expect(shown).toContain(label);
      const [minutes, seconds] = label.split(':').map(Number);
      expect(Math.abs(minutes! * 60 + seconds! - SECONDS * 0.75)).toBeLessThan(3);
      const position = await frame.evaluate((element) => getComputedStyle(element).backgroundPosition);
      expect(position).not.toBe('0px 0px');
      await expect.poll(() => sprites).toContain(200);
      await shot(page, 'desktop-storyboard');
      if (shots) {
        await page.setViewportSize({ width: 375, height: 812 });
        const small = (await bar.boundingBox())!;
        await page.mouse.move(small.x + small.width * 0.3, small.y + small.height / 2);
        await preview.waitFor();
        await shot(page, 'phone-storyboard');
      }
    } finally {
      await context.close();
    }
  }, 90_000);

  it("says 'No se ha podido reproducir el video' once the network stays down, and 'Reintentar' plays on from there (R-VID-16)", async () => {
    const { context, page, describe } = await openVideo();
    try {
      // On a slow link hls.js holds only a little ahead (on localhost it would hold the whole video).
      await slowLink(context, page);
      await showVideo(page, describe);
      await media(page).evaluate((element: HTMLVideoElement) => element.play());
      await advances(page, 0.5, 30_000);
      // Down, then a seek past what is buffered: the segments there cannot arrive.
      proxy.goDown();
      const { target, ahead } = await media(page).evaluate((element: HTMLVideoElement) => {
        const end = element.buffered.length ? element.buffered.end(element.buffered.length - 1) : 0;
        element.currentTime = Math.min(element.duration - 5, Math.ceil(end) + 10);
        return { target: element.currentTime, ahead: end };
      });
      expect(ahead, 'the seek goes past what is buffered').toBeLessThan(target);
      const failure = page.getByRole('alert').filter({ hasText: 'No se ha podido reproducir el video' });
      await failure.waitFor({ timeout: 90_000 }).catch(async (error: unknown) => {
        throw new Error(`${String(error)}\n${await describe('no-failure-shown')}`);
      });
      proxy.restore();
      await failure.getByRole('button', { name: 'Reintentar' }).click();
      await advances(page, target + 1, 30_000).catch(async (error: unknown) => {
        throw new Error(`${String(error)}\n${await describe('not-playing-after-retry')}`);
      });
      expect(await media(page).evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
      await expect(failure.count()).resolves.toBe(0);
    } finally {
      proxy.restore();
      await context.close();
    }
  }, 180_000);

  it('has no axe violations on the video page with the quality menu open (R-VID-12)', async () => {
    const { context, page, describe } = await openVideo();
    try {
      await showVideo(page, describe);
      await qualityButton(page).click();
      await page.getByRole('menu').waitFor();
      await page.waitForTimeout(300);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
