import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { generateTestVideo } from '../../server/media/ffmpeg.ts';
import { axeViolations } from './axe.ts';
import { launchBrowser, newestToast, screenshot, screenshotsDir, startProduct, watchPage, type RunningProduct } from './harness.ts';
import { callApi, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';
import { BEACON_PATH, PAYLOADS } from './xss-corpus.ts';

/**
 * Captions, the transcript and chapters on a video's page (R-VID-20 … R-VID-29) in Chromium on the
 * built product: a real 2-minute clip is uploaded through the API, its HLS ladder made (so hls.js
 * plays it, from MSE), tracks in Spanish, English and French are added with the subtitles API (the
 * French one holds the XSS corpus), and the page is used as a person would. Screenshots at 1280 px and
 * 375×812 go to test-results/screenshots (captions-*.png).
 */
const SECONDS = 120;
let product: RunningProduct;
let browser: Browser;
let admin: SignedIn;
let user: SignedIn;
let work: string;
let videoId: number;
let videoPath: string;

/** A cue every 4 s; the one at 10 s says what the tests look for. */
const SPANISH_CUES = Array.from({ length: 29 }, (_, index) => {
  const start = 2 + index * 4;
  const text = start === 10 ? 'Hablamos de la <b>canción</b> del equipo' : `Frase ${index + 1} de la charla`;
  return { start, end: start + 3, text };
});
const ENGLISH_CUES = [{ start: 2, end: 5, text: 'Welcome, everyone' }, { start: 10, end: 13, text: 'We talk about the team song' }];
/** The corpus, one payload a cue (1 s each); `-->` would end a cue's text as a timing line does. */
const XSS_CUES = PAYLOADS.map((payload, index) => ({
  start: index,
  end: index + 0.9,
  text: `Frase ${payload.n}: ${payload.text.replace(/-->/g, '--&gt;')}`,
}));

const vttTime = (seconds: number) => {
  const whole = Math.floor(seconds);
  const millis = Math.round((seconds - whole) * 1000);
  return `00:${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}.${String(millis).padStart(3, '0')}`;
};
const vtt = (cues: Array<{ start: number; end: number; text: string }>) =>
  `WEBVTT\n\n${cues.map((cue) => `${vttTime(cue.start)} --> ${vttTime(cue.end)}\n${cue.text}`).join('\n\n')}\n`;

async function waitUntil<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** PUT /api/videos/{id}/subtitulos/{idioma} as an administrator's client sends a file. */
async function putTrack(language: string, body: string): Promise<void> {
  const xsrf = 'e2e-xsrf-token';
  const response = await fetch(`${product.url}/api/videos/${videoId}/subtitulos/${language}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'text/vtt', Cookie: `XSRF-TOKEN=${xsrf}`, 'X-XSRF-TOKEN': xsrf, Authorization: `Bearer ${admin.token}` },
    body,
  });
  if (response.status !== 200 && response.status !== 201) throw new Error(`PUT ${language} answered ${response.status}: ${await response.text()}`);
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-e2e-captions-'));
  const clip = path.join(work, 'clip.mp4');
  const [started] = await Promise.all([
    startProduct(),
    generateTestVideo(clip, { seconds: SECONDS, width: 640, height: 360, pattern: 'testsrc2', toneHz: 440, label: 'Subtítulos E2E' }),
  ]);
  product = started;
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  user = await registerThroughApi(product, 'pia.user');

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
    {
      isVisible: true,
      titulo: 'Charla con subtítulos',
      descripcionCorta: 'Tres idiomas y capítulos',
      descripcion: 'Índice:\n0:00 Presentación\n0:40 Desarrollo\n1:20 Preguntas\nLa demostración empieza en 1:05.',
      tags: [],
      idExterno: session.assetId,
    },
    admin.token,
  );
  videoId = created.id as number;
  videoPath = `/videos/${videoId}`;
  await putTrack('es', vtt(SPANISH_CUES));
  await putTrack('en', vtt(ENGLISH_CUES));
  await putTrack('fr', vtt(XSS_CUES));
  // hls.js plays once a rendition is ready (the ladder is made after the video is).
  await waitUntil('the HLS ladder is made', 400_000, async () => {
    const video = await callApi(product, 'GET', `/api/videos/${videoId}`, undefined, admin.token);
    return typeof video.urlHls === 'string' ? true : undefined;
  });
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const media = (page: Page) => page.locator('main video');
const currentTime = (page: Page) => media(page).evaluate((element: HTMLVideoElement) => element.currentTime);
const transcript = (page: Page) => page.getByRole('region', { name: 'Transcripción' });
const cue = (page: Page, text: string) => transcript(page).locator('li button').filter({ hasText: text });

async function openPage(options: { viewport?: { width: number; height: number }; bypassCSP?: boolean; path?: string } = {}) {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 }, locale: 'es-ES', bypassCSP: options.bypassCSP ?? false });
  const page = await context.newPage();
  const watcher = watchPage(page);
  await openSignedIn(page, product, user, options.path ?? videoPath);
  // hls.js attached (a blob: source) and the metadata known; the Spanish cues parsed.
  await page.waitForFunction(() => {
    const video = document.querySelector('main video') as HTMLVideoElement | null;
    return video !== null && video.readyState >= 1 && video.currentSrc.startsWith('blob:');
  }, undefined, { timeout: 30_000 }).catch(async (error: unknown) => {
    throw new Error(`${String(error)}\n${await watcher.describe('captions-no-media')}`);
  });
  await media(page).evaluate((element: HTMLVideoElement) => void (element.muted = true));
  return { context, page, describe: watcher.describe };
}

/** What the <video> holds: its <track> children and its TextTrackList (kind, language, mode, cues). */
function textTracks(page: Page) {
  return media(page).evaluate((element: HTMLVideoElement) => ({
    elements: [...element.querySelectorAll('track')].map((track) => `${track.kind}:${track.srclang}`),
    tracks: [...element.textTracks].map((track) => ({ kind: track.kind, language: track.language, mode: track.mode, cues: track.cues?.length ?? null })),
  }));
}

describe('captions over the playing video (R-VID-20, R-VID-21)', () => {
  it('shows the Spanish cue at its time through hls.js, in a readable box above the controls', async () => {
    const { context, page, describe } = await openPage();
    try {
      await page.waitForFunction(() => [...(document.querySelector('main video') as HTMLVideoElement).textTracks].every((t) => (t.cues?.length ?? 0) > 0));
      // One <track> per language, none removed or added by hls.js.
      expect(await textTracks(page)).toEqual({
        elements: ['subtitles:en', 'subtitles:es', 'subtitles:fr'],
        tracks: [
          { kind: 'subtitles', language: 'en', mode: 'hidden', cues: ENGLISH_CUES.length },
          { kind: 'subtitles', language: 'es', mode: 'showing', cues: SPANISH_CUES.length },
          { kind: 'subtitles', language: 'fr', mode: 'hidden', cues: XSS_CUES.length },
        ],
      });
      await media(page).evaluate((element: HTMLVideoElement) => void (element.currentTime = 9.6));
      await page.getByRole('button', { name: 'Reproducir', exact: true }).click();
      const active = await page.waitForFunction(
        () => {
          const video = document.querySelector('main video') as HTMLVideoElement;
          const track = [...video.textTracks].find((t) => t.mode === 'showing');
          const cue = track?.activeCues?.[0] as VTTCue | undefined;
          return cue ? { at: video.currentTime, text: cue.text, start: cue.startTime, end: cue.endTime } : false;
        },
        undefined,
        { timeout: 15_000 },
      );
      const seen = (await active.jsonValue()) as { at: number; text: string; start: number; end: number };
      expect(seen.text).toContain('canción');
      expect(seen.at).toBeGreaterThanOrEqual(seen.start);
      expect(seen.at).toBeLessThan(seen.end);
      await page.getByRole('button', { name: 'Pausar', exact: true }).click();
      // Still the same track elements after playing (hls.js appended nothing).
      expect((await textTracks(page)).elements).toEqual(['subtitles:en', 'subtitles:es', 'subtitles:fr']);
      await page.mouse.move(0, 0);
      await screenshot(page, 'captions-desktop-1280');
      // The picture alone, to judge the caption box against the frame and the control bar.
      await page.locator('main section[aria-label="Reproductor de video"]').screenshot({ path: path.join(screenshotsDir, 'captions-player-1280.png') });
    } catch (error) {
      throw new Error(`${String(error)}\n${await describe('captions-playing')}`);
    } finally {
      await context.close();
    }
  });

  it('c turns them off and on; the Subtítulos menu picks a language or Desactivados', async () => {
    const { context, page } = await openPage();
    try {
      await page.getByRole('button', { name: 'Subtítulos: Español' }).waitFor();
      await page.locator('body').press('c');
      await page.getByRole('button', { name: 'Subtítulos: Desactivados' }).waitFor();
      // Off for good: Chromium turns no other track on by itself (ADR 0121).
      await page.waitForTimeout(300);
      expect((await textTracks(page)).tracks.map((track) => track.mode)).toEqual(['hidden', 'hidden', 'hidden']);
      await page.locator('body').press('c');
      await page.getByRole('button', { name: 'Subtítulos: Español' }).click();
      await page.getByRole('menuitem', { name: 'Inglés' }).click();
      await page.getByRole('button', { name: 'Subtítulos: Inglés' }).waitFor();
      expect((await textTracks(page)).tracks.map((track) => track.mode)).toEqual(['showing', 'hidden', 'hidden']);
    } finally {
      await context.close();
    }
  });
});

describe('the transcript and the chapters (R-VID-22 … R-VID-27)', () => {
  it('seeks to a cue clicked, and highlights it as the video gets there', async () => {
    const { context, page } = await openPage();
    try {
      await cue(page, 'Hablamos de la canción del equipo').click();
      await page.waitForFunction(() => Math.abs((document.querySelector('main video') as HTMLVideoElement).currentTime - 10) < 0.5);
      expect(Math.abs((await currentTime(page)) - 10)).toBeLessThan(0.5);
      await expect.poll(() => cue(page, 'Hablamos de la canción del equipo').getAttribute('aria-current')).toBe('true');
      // The page did not scroll to follow: only the panel does.
      const scrolled = await page.evaluate(() => window.scrollY);
      await cue(page, 'Frase 20 de la charla').click();
      await page.waitForFunction(() => Math.abs((document.querySelector('main video') as HTMLVideoElement).currentTime - 78) < 0.5);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      // The search ignores accents.
      await transcript(page).getByRole('searchbox', { name: 'Buscar en la transcripción' }).fill('CANCION');
      await expect.poll(() => transcript(page).locator('li').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('follows the playing cue inside the panel, but not while the user has just scrolled it', async () => {
    const { context, page } = await openPage();
    try {
      const viewport = transcript(page).locator('.mantine-ScrollArea-viewport');
      await cue(page, 'Frase 20 de la charla').click();
      await page.waitForFunction(() => Math.abs((document.querySelector('main video') as HTMLVideoElement).currentTime - 78) < 0.5);
      // Followed: the current cue is inside the panel, which scrolled (the page did not).
      await expect.poll(() => viewport.evaluate((box) => box.scrollTop)).toBeGreaterThan(0);
      // While it plays, the user scrolls back to the top with the wheel; the next cue (at 1:22) starts
      // well inside the 5 s the panel is left alone, so it must stay at the top.
      await page.getByRole('button', { name: 'Reproducir', exact: true }).click();
      await page.waitForFunction(() => (document.querySelector('main video') as HTMLVideoElement).currentTime > 80.5, undefined, { timeout: 15_000 });
      const box = (await viewport.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + 20);
      await page.mouse.wheel(0, -5000);
      await expect.poll(() => viewport.evaluate((element) => element.scrollTop)).toBe(0);
      await page.waitForFunction(() => (document.querySelector('main video') as HTMLVideoElement).currentTime > 82.5, undefined, { timeout: 15_000 });
      expect(await viewport.evaluate((element) => element.scrollTop)).toBe(0);
      // After a few quiet seconds it follows again.
      await expect.poll(() => viewport.evaluate((element) => element.scrollTop), { timeout: 15_000 }).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Pausar', exact: true }).click();
    } finally {
      await context.close();
    }
  });

  it('marks the chapters on the seek bar and names them in its preview; the list seeks', async () => {
    const { context, page } = await openPage();
    try {
      const bar = page.locator('[data-player-controls] .mantine-Slider-root').first();
      expect(await bar.locator('.mantine-Slider-mark').count()).toBe(2);
      const box = (await bar.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
      await expect.poll(() => page.locator('[data-chapter-name]').textContent()).toBe('Desarrollo');
      await screenshot(page, 'captions-chapter-preview-1280');
      const chapters = page.getByRole('region', { name: 'Capítulos' });
      await chapters.getByRole('button', { name: /Preguntas/ }).click();
      await page.waitForFunction(() => Math.abs((document.querySelector('main video') as HTMLVideoElement).currentTime - 80) < 0.5);
      await expect
        .poll(() => page.getByRole('slider', { name: 'Posición' }).getAttribute('aria-valuetext'))
        .toBe('1:20 de 2:00, Preguntas');
      // A timestamp of the description seeks too.
      await page.getByRole('region', { name: 'Descripción' }).getByRole('button', { name: '1:05' }).click();
      await page.waitForFunction(() => Math.abs((document.querySelector('main video') as HTMLVideoElement).currentTime - 65) < 0.5);
    } finally {
      await context.close();
    }
  });
});

describe('the moment in the address (R-VID-28)', () => {
  it('?t= starts there; Copiar enlace en este momento copies the page at the current second', async () => {
    const { context, page } = await openPage({ path: `${videoPath}?t=75` });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
      await page.waitForFunction(() => Math.abs((document.querySelector('main video') as HTMLVideoElement).currentTime - 75) < 0.5);
      await page.getByRole('button', { name: 'Copiar enlace en este momento' }).click();
      await newestToast(page, 'Enlace copiado').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${product.url}${videoPath}?t=75`);
    } finally {
      await context.close();
    }
  });
});

describe('cue text is never markup (R-SEC-3)', () => {
  it('renders the XSS corpus in the French captions and transcript as text, with zero executions', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', bypassCSP: true });
    const alarms: string[] = [];
    await context.addInitScript(() => {
      (window as unknown as { __xss: (n: number) => void }).__xss = (n: number) => console.error(`XSS-SENTINEL ${n}`);
    });
    context.on('console', (message) => {
      if (message.text().includes('XSS-SENTINEL')) alarms.push(`sentinel: ${message.text()}`);
    });
    context.on('dialog', (shown) => {
      alarms.push(`dialog ${shown.type()}: ${shown.message()}`);
      void shown.dismiss();
    });
    const productHost = new URL(product.url).host;
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && (url.host !== productHost || url.pathname.startsWith(BEACON_PATH))) alarms.push(`request: ${request.url()}`);
    });
    await context.route((url) => url.host !== productHost && url.protocol.startsWith('http'), (route) => route.abort());
    const page = await context.newPage();
    try {
      await openSignedIn(page, product, user, videoPath);
      await page.getByRole('button', { name: 'Subtítulos: Español' }).click();
      await page.getByRole('menuitem', { name: 'Francés' }).click();
      await expect.poll(() => transcript(page).locator('li').count(), { timeout: 15_000 }).toBe(PAYLOADS.length);
      // Every cue shown, the captions drawn over the picture too, the page used for a while.
      await media(page).evaluate((element: HTMLVideoElement) => {
        element.muted = true;
        element.currentTime = 10.2;
      });
      await page.waitForTimeout(1000);
      const texts = await transcript(page).locator('li').allTextContents();
      for (const payload of PAYLOADS) expect(texts.some((text) => text.includes(`Frase ${payload.n}:`)), `payload ${payload.n}`).toBe(true);
      // The cue list holds only the page's own elements: items, buttons and text spans.
      const injected = await transcript(page).locator('ol').evaluate((list) => ({
        tags: [...new Set([...list.querySelectorAll('*')].map((node) => node.tagName.toLowerCase()))].sort(),
        marked: list.querySelectorAll('[data-xss]').length,
        handlers: [...list.querySelectorAll('*')].flatMap((node) => [...node.attributes].filter((a) => a.name.startsWith('on') || /javascript:/i.test(a.value)).map((a) => a.name)),
      }));
      expect(injected).toEqual({ tags: ['button', 'li', 'span'], marked: 0, handlers: [] });
      expect(await page.locator('[data-xss]').count()).toBe(0);
      expect(alarms).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('accessibility and small screens (R-A11Y-1)', () => {
  it('has no axe violations with the transcript shown and the Subtítulos menu open', async () => {
    const { context, page } = await openPage({ bypassCSP: true });
    try {
      await cue(page, 'Hablamos de la canción del equipo').waitFor();
      await page.getByRole('button', { name: 'Subtítulos: Español' }).click();
      await page.getByRole('menu').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'captions-menu-1280');
    } finally {
      await context.close();
    }
  });

  it('puts the transcript below the player at 375×812, with no violations', async () => {
    const { context, page } = await openPage({ viewport: { width: 375, height: 812 }, bypassCSP: true });
    try {
      await cue(page, 'Hablamos de la canción del equipo').click();
      const player = (await page.locator('main section[aria-label="Reproductor de video"]').boundingBox())!;
      const panel = (await transcript(page).boundingBox())!;
      expect(panel.y).toBeGreaterThan(player.y + player.height);
      expect(panel.width).toBeLessThanOrEqual(375);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'captions-phone-375');
    } finally {
      await context.close();
    }
  });
});
