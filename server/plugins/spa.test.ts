import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../tests/utils/server-harness.ts';

let server: Awaited<ReturnType<typeof startTestServer>>;
const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-client-'));

beforeAll(async () => {
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>TAO</title><div id="root"></div>');
  fs.writeFileSync(path.join(clientDir, 'assets', 'main-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(clientDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await startTestServer('sqlite', { CLIENT_DIR: clientDir });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('serving the single-page app', () => {
  it.each(['/', '/videos', '/videos/12?q=gato', '/register?invitation=x', '/no-such-page'])('GET %s answers index.html, never cached', async (url) => {
    const res = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
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
