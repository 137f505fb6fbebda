import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../tests/utils/server-harness.ts';

let server: Awaited<ReturnType<typeof startTestServer>>;
const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-client-'));
const EARLY_SCRIPT_HASH = "'sha256-YKjTi3tcB1h0He8YZrw3KLJ3l3DTU2Z8xkI0oQMxBE4='";
/** A script large enough to be worth compressing. */
const APP_JS = Array.from({ length: 200 }, (_, i) => `export const label${i} = 'Contenido audiovisual TAO ${i}';`).join('\n');

beforeAll(async () => {
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>TAO</title><div id="root"></div>');
  fs.writeFileSync(path.join(clientDir, 'assets', 'main-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(clientDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // A page's own document (scripts/route-pages.ts): index.html with its route's code preloaded.
  fs.mkdirSync(path.join(clientDir, 'pages'));
  fs.writeFileSync(path.join(clientDir, 'pages', 'videos.$id.html'), '<!doctype html><title>TAO</title><link rel="modulepreload" href="/assets/id-1.js"><div id="root"></div>');
  fs.writeFileSync(
    path.join(clientDir, 'pages', 'pages.json'),
    JSON.stringify([{ path: '/videos/$id', pattern: '^/videos/[^/]+/?$', file: 'pages/videos.$id.html' }]),
  );
  // The early reads' inline script's hash (scripts/route-pages.ts), and an entry that is no hash.
  fs.writeFileSync(path.join(clientDir, 'pages', 'inline-scripts.json'), JSON.stringify([EARLY_SCRIPT_HASH, "'unsafe-inline'"]));
  // As the build writes them (vite.config.ts): a .br and a .gz beside each text file.
  for (const file of ['index.html', 'assets/app-def456.js']) {
    const full = path.join(clientDir, file);
    if (!fs.existsSync(full)) fs.writeFileSync(full, APP_JS);
    const bytes = fs.readFileSync(full);
    fs.writeFileSync(`${full}.br`, zlib.brotliCompressSync(bytes));
    fs.writeFileSync(`${full}.gz`, zlib.gzipSync(bytes));
  }
  server = await startTestServer('sqlite', { CLIENT_DIR: clientDir });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('serving the single-page app', () => {
  it.each(['/', '/videos', '/register?invitation=x', '/no-such-page'])('GET %s answers index.html, never cached', async (url) => {
    const res = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it.each(['/videos/12', '/videos/12/', '/videos/12?q=gato'])('GET %s answers the page\'s own document (its route\'s code preloaded), never cached', async (url) => {
    const res = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<link rel="modulepreload" href="/assets/id-1.js">');
  });

  it.each(['/', '/videos', '/videos/12/comments'])('GET %s, which no page document matches, answers index.html', async (url) => {
    const res = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.body).toContain('<div id="root">');
    expect(res.body).not.toContain('modulepreload');
  });

  it('a page\'s own document allows the build\'s inline script by its hash, and no other inline script; index.html allows none', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/videos/12', headers: { accept: 'text/html' } });
    const pagePolicy = String(page.headers['content-security-policy']);
    expect(pagePolicy.split('; ').find((directive) => directive.startsWith('script-src'))).toBe(`script-src 'self' ${EARLY_SCRIPT_HASH}`);
    for (const url of ['/', '/videos']) {
      const index = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(String(index.headers['content-security-policy']).split('; ')).toContain("script-src 'self'");
    }
    const api = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(api.headers['content-security-policy']).split('; ')).toContain("script-src 'self'");
  });

  it('serves hashed assets for a year, immutable', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves other public files, revalidated', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/logo.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset with a plain 404, not the app', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/assets/missing-123.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });
});

describe('precompressed files', () => {
  const get = (url: string, acceptEncoding?: string) =>
    server.app.inject({ method: 'GET', url, headers: { accept: '*/*', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } });

  it('sends the brotli file to a client that accepts br: the same bytes once decompressed, still cached a year', async () => {
    const res = await get('/assets/app-def456.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers.vary).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(APP_JS.length / 4);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends the gzip file to a client that accepts only gzip', async () => {
    const res = await get('/assets/app-def456.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends the file itself without Accept-Encoding', async () => {
    const res = await get('/assets/app-def456.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(APP_JS);
  });

  it('sends index.html compressed on every client-side route, never cached', async () => {
    for (const url of ['/', '/videos/12']) {
      const res = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html', 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toContain('<div id="root">');
    }
  });
});
