import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFirstAdmin, type TestUser } from '../../tests/utils/accounts.ts';
import { call, startTestServer } from '../../tests/utils/server-harness.ts';
import { mediaUrl } from '../media/signed-urls.ts';
import { insertVideo } from '../modules/videos/videos.service.ts';
import { LocalStorage } from '../storage/local-storage.ts';

/** JSON answers compressed on the fly (server/app.ts), never media or partial content. */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestUser;
const ASSET = 'compress_asset_01';
const VIDEO = crypto.randomBytes(20_000);

/** Thirty videos: a page of them is JSON well over the 1 KB threshold. */
async function addVideos(): Promise<void> {
  for (let i = 1; i <= 30; i++) {
    await insertVideo(server.db, {
      idExterno: `compress_video_${String(i).padStart(2, '0')}`,
      titulo: `Video número ${i}`,
      descripcionCorta: 'Una descripción corta que se repite en cada video de la lista',
      nombreUsuarioAlta: 'admin',
    });
  }
}

beforeAll(async () => {
  server = await startTestServer('sqlite');
  admin = await createFirstAdmin(server);
  await addVideos();
  await new LocalStorage(server.config.mediaDir).write(ASSET, 'video.mp4', Readable.from([VIDEO]));
});
afterAll(async () => {
  const violations = server.violations;
  await server.close();
  expect(violations, 'responses that do not match openapi.yaml').toEqual([]);
});

/** The first page of 30 as `token` gets it from `on`, asking for `acceptEncoding`. */
const list = (acceptEncoding?: string) =>
  call(server.app, {
    method: 'GET',
    url: '/api/videos?limit=30',
    token: admin.session,
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });

describe('compressed API answers', () => {
  it('sends a large JSON list with brotli when accepted, the same JSON once decompressed', async () => {
    const plain = await list();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await list('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers['x-total-count']).toBe(plain.headers['x-total-count']);
  });

  it('sends gzip to a client that accepts only gzip', async () => {
    const plain = await list();
    const gz = await list('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it('follows the client\'s preferences: q=0 refuses an encoding, * and x-gzip mean gzip, identity none', async () => {
    const plain = await list();
    const refusesBr = await list('br;q=0, gzip');
    expect(refusesBr.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(refusesBr.rawPayload).toString()).toBe(plain.body);
    expect((await list('*')).headers['content-encoding']).toBe('gzip');
    expect((await list('x-gzip')).headers['content-encoding']).toBe('gzip');
    const identity = await list('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(plain.body);
  });

  it('compresses other JSON answers too, as they are sent: a video\'s own JSON with brotli or gzip', async () => {
    const made = await insertVideo(server.db, {
      idExterno: 'compress_video_long',
      titulo: 'Un video con una descripción larga',
      descripcionCorta: 'Corta',
      descripcion: 'Una descripción que ocupa bastante. '.repeat(60),
      nombreUsuarioAlta: 'admin',
    });
    const detail = (acceptEncoding?: string) =>
      call(server.app, { method: 'GET', url: `/api/videos/${made.id}`, token: admin.session, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
    const plain = await detail();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(2048);

    const br = await detail('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    // the same video as the plain answer (a repeat opening: the signed locations and state are the same)
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await detail('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    const refused = await call(server.app, { method: 'GET', url: `/api/videos/${made.id}`, token: admin.session, headers: { 'accept-encoding': 'br', 'x-no-compression': '1' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.json()).toEqual(plain.json());
  });

  it('leaves small answers and problems as they are', async () => {
    const health = await call(server.app, { method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toBeTypeOf('object');

    const problem = await call(server.app, { method: 'GET', url: '/api/videos/999999', token: admin.session, headers: { 'accept-encoding': 'br' } });
    expect(problem.statusCode).toBe(404);
    expect(problem.headers['content-type']).toContain('application/problem+json');
    expect(problem.headers['content-encoding']).toBeUndefined();
    expect(problem.json()).toMatchObject({ type: expect.stringContaining('resource-not-found'), status: 404 });
  });

  it('never compresses media: a Range answer and a whole file go as they are, with their ETag', async () => {
    const url = mediaUrl(server.app.ctx.secrets.urlKey, ASSET, 'video.mp4');
    const partial = await server.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br', range: 'bytes=100-4195' } });
    expect(partial.statusCode).toBe(206);
    expect(partial.headers['content-encoding']).toBeUndefined();
    expect(partial.headers['content-range']).toBe(`bytes 100-4195/${VIDEO.length}`);
    expect(partial.rawPayload.equals(VIDEO.subarray(100, 4196))).toBe(true);

    const whole = await server.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.headers['content-length']).toBe(String(VIDEO.length));
    expect(whole.headers.etag).toBe(partial.headers.etag);
    expect(whole.rawPayload.equals(VIDEO)).toBe(true);
  });
});
