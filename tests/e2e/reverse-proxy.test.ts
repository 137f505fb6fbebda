import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsProxy, type HttpsProxy } from '../../bench/https-proxy.ts';
import { generateTestVideo } from '../../server/media/ffmpeg.ts';
import { launchBrowser, padded, screenshot, startProduct, type RunningProduct } from './harness.ts';
import { cli, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * The product as an organisation runs it: behind nginx with HTTPS and HTTP/2, configured by
 * deploy/nginx-https.conf itself (only its names, ports and certificate paths replaced for this
 * machine: bench/https-proxy.ts). Chromium signs in, lists, uploads a 30 MB video through the wizard (one PUT: nginx's
 * default 1 MB limit would refuse it) and plays it by byte ranges, all over HTTP/2; plain HTTP sends
 * to HTTPS, and the product, trusting the proxy, marks its cookie Secure and sends HSTS.
 */

let product: RunningProduct;
let proxy: HttpsProxy;
let work: string;
let httpsUrl: string;
let httpUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SignedIn;
let clip: string;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-e2e-proxy-'));
  clip = path.join(work, 'asamblea-general.mp4');
  const source = path.join(work, 'fuente.mp4');
  await generateTestVideo(source, { seconds: 4, pattern: 'testsrc2', toneHz: 660, label: 'Por el proxy' });
  await padded(source, clip, 30 * 1024 * 1024);

  // The product learns its public address (invitation links) before the proxy's port is known: any
  // https address serves here, the pages and the API use relative addresses.
  product = await startProduct({
    TRUST_PROXY: 'true',
    PUBLIC_URL: 'https://videos.example.org',
  });
  await cli(product, ['demo', '--videos', '2'], 300_000);
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  proxy = await startHttpsProxy(product.url);
  ({ httpsUrl, httpUrl } = proxy);

  browser = await launchBrowser();
  context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    ignoreHTTPSErrors: true,
  });
  page = await context.newPage();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.stop();
  await product?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const behindProxy = () => ({ ...product, url: httpsUrl });
const dialog = (name: string) => page.getByRole('dialog', { name });
const grid = () => page.getByRole('list', { name: 'Videos' });
const card = (title: string) =>
  grid()
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

describe('behind nginx with HTTPS and HTTP/2 (deploy/nginx-https.conf)', () => {
  it('plain HTTP sends to the same address on HTTPS', async () => {
    const answer = await fetch(`${httpUrl}/videos?q=gato`, {
      redirect: 'manual',
    });
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe(`${httpsUrl}/videos?q=gato`);
  });

  it('the library over HTTP/2: the product knows it is HTTPS (HSTS, a Secure cookie)', async () => {
    await openSignedIn(page, behindProxy(), admin);
    const document = await page.goto(`${httpsUrl}/videos`);
    expect(document?.status()).toBe(200);
    expect(document?.headers()['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await grid().getByRole('listitem').first().waitFor();
    const protocols = await page.evaluate(() =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map(
        (entry) => (entry as PerformanceResourceTiming).nextHopProtocol,
      ),
    );
    expect(protocols.length).toBeGreaterThan(3);
    expect(new Set(protocols)).toEqual(new Set(['h2']));
    const xsrf = (await context.cookies(httpsUrl)).find((cookie) => cookie.name === 'XSRF-TOKEN');
    expect(xsrf?.secure).toBe(true);
  });

  it('uploads a 30 MB video through the wizard (one PUT through nginx) and plays it by byte ranges', async () => {
    const puts: Array<Promise<number>> = [];
    const media: Response[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'PUT' && response.url().includes('/api/uploads/')) puts.push(Promise.resolve(response.status()));
      // The progressive MP4, or the HLS renditions (one fMP4 per height, read by ranges) once ready.
      if (response.url().includes('/api/media/') && /\/(video|hls-[0-9]+p)\.mp4/.test(response.url())) media.push(response);
    });
    await page.getByRole('button', { name: /\(Menú de usuario\)/ }).click();
    await page.getByRole('menuitem', { name: 'Subir video' }).click();
    const wizard = dialog('Subir video');
    await wizard.waitFor();
    await wizard.locator('input[type="file"]').first().setInputFiles(clip);
    await wizard.getByRole('textbox', { name: 'Título' }).fill('Asamblea general');
    await wizard.getByRole('textbox', { name: 'Descripción corta' }).fill('Subida a través del proxy');
    await wizard.getByRole('button', { name: 'Confirmar' }).and(page.locator(':enabled')).waitFor({ timeout: 120_000 });
    expect(await wizard.getByRole('progressbar', { name: /^Progreso de / }).getAttribute('aria-valuenow')).toBe('100');
    await wizard.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('alert').filter({ hasText: 'El video se ha creado correctamente' }).waitFor();
    expect(await Promise.all(puts)).toContain(204);

    await card('Asamblea general').getByRole('link', { name: 'Reproducir Asamblea general' }).click();
    const player = page.locator('video[aria-label="Asamblea general"]');
    await player.waitFor();
    await player.evaluate((video: HTMLVideoElement) => {
      video.muted = true;
      return video.play();
    });
    await page.waitForFunction((video) => video instanceof HTMLVideoElement && video.currentTime > 0.5, await player.elementHandle(), { timeout: 20_000 });
    await screenshot(page, 'behind-nginx-video-desktop');
    expect(media.some((response) => response.status() === 206)).toBe(true);
    // Neither the upload nor the video went through nginx's disk (it warns when it buffers one there).
    const log = proxy.log();
    expect(log).not.toMatch(/buffered to a temporary file/);
    expect(log).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });
});
