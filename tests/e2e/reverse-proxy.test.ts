import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/built-server.ts';
import { generateTestVideo } from '../../server/media/ffmpeg.ts';
import { launchBrowser, screenshot, startProduct, type RunningProduct } from './harness.ts';
import { cli, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * The product as an organisation runs it: behind nginx with HTTPS and HTTP/2, configured by
 * deploy/nginx-https.conf itself (only its names, ports and certificate paths replaced for this
 * machine). Chromium signs in, lists, uploads a 30 MB video through the wizard (one PUT: nginx's
 * default 1 MB limit would refuse it) and plays it by byte ranges, all over HTTP/2; plain HTTP sends
 * to HTTPS, and the product, trusting the proxy, marks its cookie Secure and sends HSTS.
 */

const run = promisify(execFile);
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const root = path.resolve(import.meta.dirname, '../..');

let product: RunningProduct;
let nginx: ChildProcess;
let work: string;
let httpsUrl: string;
let httpUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SignedIn;
let clip: string;
let nginxLog = '';

/** deploy/nginx-https.conf with this machine's names, ports and certificate, as an operator edits it. */
function siteConfig(ports: { http: number; https: number; product: number }, certificate: { cert: string; key: string }): string {
  const site = fs.readFileSync(path.join(root, 'deploy/nginx-https.conf'), 'utf8');
  const replaced = site
    .replaceAll('videos.example.org', '127.0.0.1')
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${ports.product};`)
    .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`)
    .replace(/^\s*listen \[::\]:\d+.*$/gm, '')
    .replace('return 301 https://$host$request_uri;', `return 301 https://$host:${ports.https}$request_uri;`)
    .replace('/etc/letsencrypt/live/127.0.0.1/fullchain.pem', certificate.cert)
    .replace('/etc/letsencrypt/live/127.0.0.1/privkey.pem', certificate.key);
  // Every edit above must have found its line: an edit that finds nothing would test another file.
  for (const expected of [`server 127.0.0.1:${ports.product};`, `:${ports.http};`, `:${ports.https} ssl http2;`, certificate.cert, certificate.key]) {
    if (!replaced.includes(expected)) throw new Error(`deploy/nginx-https.conf changed: could not set ${expected}`);
  }
  return replaced;
}

beforeAll(async () => {
  if (!fs.existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX}: run \`apt-get install -y nginx\` (.ci/run does) or set NGINX_PATH.`);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-e2e-proxy-'));
  // nginx's worker runs as nobody: it writes its temporary files here.
  fs.chmodSync(work, 0o777);
  const cert = path.join(work, 'cert.pem');
  const key = path.join(work, 'key.pem');
  clip = path.join(work, 'asamblea-general.mp4');
  await Promise.all([
    run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert]),
    (async () => {
      await generateTestVideo(clip, { seconds: 4, pattern: 'testsrc2', toneHz: 660, label: 'Por el proxy' });
      // 30 MB in all: a trailing `free` box (players and ffprobe skip it).
      const extra = 30 * 1024 * 1024;
      const header = Buffer.alloc(8);
      header.writeUInt32BE(extra + 8, 0);
      header.write('free', 4, 'latin1');
      await fs.promises.appendFile(clip, Buffer.concat([header, Buffer.alloc(extra, 0x2a)]));
    })(),
  ]);

  const ports = { http: await freePort(), https: await freePort() };
  httpsUrl = `https://127.0.0.1:${ports.https}`;
  httpUrl = `http://127.0.0.1:${ports.http}`;
  product = await startProduct({ TRUST_PROXY: 'true', PUBLIC_URL: httpsUrl });
  await cli(product, ['demo', '--videos', '2'], 300_000);
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });

  const productPort = Number(new URL(product.url).port);
  fs.writeFileSync(path.join(work, 'site.conf'), siteConfig({ ...ports, product: productPort }, { cert, key }));
  const main = [
    'daemon off;',
    'worker_processes 1;',
    `pid ${work}/nginx.pid;`,
    `error_log ${work}/error.log warn;`,
    'events { worker_connections 256; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${work}/${kind}-temp;`),
    `  include ${work}/site.conf;`,
    '}',
  ].join('\n');
  fs.writeFileSync(path.join(work, 'nginx.conf'), main);
  await run(NGINX, ['-t', '-q', '-p', work, '-c', path.join(work, 'nginx.conf')]);
  nginx = spawn(NGINX, ['-p', work, '-c', path.join(work, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  nginx.stderr!.on('data', (d: Buffer) => (nginxLog += d.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}): ${nginxLog}`);
    try {
      const answer = await fetch(`${httpUrl}/`, { redirect: 'manual' });
      if (answer.status === 301) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 10 s: ${nginxLog}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid', ignoreHTTPSErrors: true });
  page = await context.newPage();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx.once('exit', r));
    nginx.kill('SIGQUIT');
    await exited;
  }
  await product?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const behindProxy = () => ({ ...product, url: httpsUrl });
const dialog = (name: string) => page.getByRole('dialog', { name });
const grid = () => page.getByRole('list', { name: 'Videos' });
const card = (title: string) => grid().getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

describe('behind nginx with HTTPS and HTTP/2 (deploy/nginx-https.conf)', () => {
  it('plain HTTP sends to the same address on HTTPS', async () => {
    const answer = await fetch(`${httpUrl}/videos?q=gato`, { redirect: 'manual' });
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
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((entry) => (entry as PerformanceResourceTiming).nextHopProtocol),
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
      if (response.url().includes('/api/media/') && response.url().includes('video.mp4')) media.push(response);
    });
    await page.getByRole('button', { name: /\(Menú de usuario\)/ }).click();
    await page.getByRole('menuitem', { name: 'Subir video' }).click();
    const wizard = dialog('Subir video');
    await wizard.waitFor();
    await wizard.locator('input[type="file"]').first().setInputFiles(clip);
    await wizard.getByRole('textbox', { name: 'Título' }).fill('Asamblea general');
    await wizard.getByRole('textbox', { name: 'Descripción corta' }).fill('Subida a través del proxy');
    await wizard.getByRole('button', { name: 'Confirmar' }).and(page.locator(':enabled')).waitFor({ timeout: 120_000 });
    expect(await wizard.getByRole('progressbar', { name: 'Progreso de la subida' }).getAttribute('aria-valuenow')).toBe('100');
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
    const log = nginxLog + fs.readFileSync(path.join(work, 'error.log'), 'utf8');
    expect(log).not.toMatch(/buffered to a temporary file/);
    expect(log).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });
});
