import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../contract/openapi.gen.ts';
import { call, startTestServer, type TestServer } from '../../tests/utils/server-harness.ts';
import { mediaTools, testVideoBytes } from '../media/ffmpeg.ts';
import { createUser, type LibraryUser } from '../modules/videos/videos.test-support.ts';
import { startMotoServer, type MotoBucket } from './moto-server.test-support.ts';

type UploadSession = components['schemas']['UploadSession'];
type UploadState = components['schemas']['UploadThumbnailSession'];
type Video = components['schemas']['Video'];

const PREFIX = 'tao-e2e';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
// started while the file is collected, so the suite's name says which server ran
const moto = await startMotoServer();
afterAll(() => moto.close());

/**
 * The real app with its media in S3 (moto_server, a bucket of its own): a video uploaded through the API's signed upload
 * location in two resumable parts, processed by ffmpeg from a temporary copy, its thumbnail and the
 * video itself served from the bucket with ranges, and nothing kept in the local media directory.
 */
describe(`the app with media in S3 on ${moto.name}`, () => {
  let s3: MotoBucket;
  let server: TestServer & { close(): Promise<void> };
  let admin: LibraryUser;
  let base: string;
  let work: string;
  let VIDEO: Buffer;
  let PNG: Buffer;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-s3-app-'));
    VIDEO = await testVideoBytes({ seconds: 2, pattern: 'testsrc2', toneHz: 440, width: 320, height: 180 });
    execFileSync(mediaTools().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=64x48', '-frames:v', '1', path.join(work, 'cover.png')]);
    PNG = fs.readFileSync(path.join(work, 'cover.png'));
    s3 = await moto.newBucket();
    server = await startTestServer('sqlite', s3.env(PREFIX));
    admin = await createUser(server, 'gestora', { rol: 'admin', organizacion: 'TAO' });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
  }, 90_000);
  afterAll(async () => {
    const violations = server?.violations ?? [];
    await server?.close();
    fs.rmSync(work, { recursive: true, force: true });
    expect(violations, 'responses that do not match openapi.yaml').toEqual([]);
  });

  async function bucketObject(key: string): Promise<Buffer> {
    const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3.credentials });
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } finally {
      client.destroy();
    }
  }

  async function bucketKeys(): Promise<string[]> {
    const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3.credentials });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${PREFIX}/` }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    } finally {
      client.destroy();
    }
  }

  it('uploads, processes and serves a video from the bucket', async () => {
    const created = await call(server.app, { method: 'POST', url: '/api/uploads', token: admin.session, payload: { video: { contentType: 'video/mp4', size: VIDEO.length } } });
    expect(created.statusCode, created.body).toBe(201);
    const session = created.json() as UploadSession;
    const uploadUrl = `${base}${session.video.uploadUrl}`;

    // two parts over real HTTP, the second after asking for the offset, as a client that lost its connection does
    const half = Math.floor(VIDEO.length / 2) + 1;
    const first = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes 0-${half - 1}/${VIDEO.length}` }, body: new Uint8Array(VIDEO.subarray(0, half)) });
    expect([first.status, first.headers.get('upload-offset')]).toEqual([202, String(half)]);
    const state = await call(server.app, { method: 'GET', url: `/api/uploads/${session.assetId}`, token: admin.session });
    expect((state.json() as UploadState).recibido).toBe(half);
    expect(await bucketKeys()).toEqual([`${PREFIX}/.tmp/${session.assetId}/video.mp4/partial.json`, expect.stringMatching(new RegExp(`^${PREFIX}/\\.tmp/${session.assetId}/video\\.mp4/tail-`))]);
    const rest = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${half}-${VIDEO.length - 1}/${VIDEO.length}` }, body: new Uint8Array(VIDEO.subarray(half)) });
    expect(rest.status, await rest.text()).toBe(204);

    let upload: UploadState | undefined;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
      upload = (await call(server.app, { method: 'GET', url: `/api/uploads/${session.assetId}`, token: admin.session })).json() as UploadState;
      if (upload.estado === 'ready' || upload.estado === 'failed') break;
    }
    expect(upload).toMatchObject({ estado: 'ready', recibido: VIDEO.length, error: null });
    expect(upload!.duracion).toBeGreaterThan(1.9);
    // the HLS stage runs on after ready (R-MED-5): its rendition, master and storyboard land in the bucket too
    const storyboardKey = `${PREFIX}/${session.assetId}/storyboard.vtt`;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline && !(await bucketKeys()).includes(storyboardKey); ) await sleep(200);
    const stored = ['hls-180p.m3u8', 'hls-180p.mp4', 'hls-master.m3u8', 'preview.mp4', 'storyboard.jpg', 'storyboard.vtt', 'thumbnail-400.webp', 'thumbnail.jpg', 'thumbnail.webp', 'video.mp4'];
    expect(await bucketKeys()).toEqual(stored.map((f) => `${PREFIX}/${session.assetId}/${f}`));
    expect(fs.existsSync(server.config.mediaDir), 'nothing in the local media directory').toBe(false);

    // an administrator's own thumbnail waits in the bucket, and is converted (from a temporary copy) when the video is made
    const processedThumbnail = await bucketObject(`${PREFIX}/${session.assetId}/thumbnail.jpg`);
    const processedWebp = await bucketObject(`${PREFIX}/${session.assetId}/thumbnail.webp`);
    const cover = await fetch(`${base}${session.thumbnail.uploadUrl}`, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(PNG) });
    expect(cover.status, await cover.text()).toBe(204);
    expect(await bucketKeys()).toContain(`${PREFIX}/${session.assetId}/thumbnail.pending`);

    const made = await call(server.app, {
      method: 'POST',
      url: '/api/videos',
      token: admin.session,
      payload: { isVisible: true, titulo: 'Vídeo en S3', descripcionCorta: 'Guardado en un bucket', tags: [], idExterno: session.assetId },
    });
    expect(made.statusCode, made.body).toBe(201);
    const video = made.json() as Video;

    const thumbnail = await fetch(`${base}${video.urlThumbnail}`);
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const served = Buffer.from(await thumbnail.arrayBuffer());
    expect([...served.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(served.equals(processedThumbnail), 'the adopted thumbnail, not the one processing made').toBe(false);
    expect(served.equals(await bucketObject(`${PREFIX}/${session.assetId}/thumbnail.jpg`))).toBe(true);
    expect(await bucketKeys()).toEqual(stored.map((f) => `${PREFIX}/${session.assetId}/${f}`));

    // the HLS master and its rendition are streamed from the bucket under the signed prefix (R-MED-11)
    expect(video.urlHls).not.toBeNull();
    const master = await fetch(`${base}${video.urlHls}`);
    expect([master.status, master.headers.get('content-type')]).toEqual([200, 'application/vnd.apple.mpegurl']);
    expect(await master.text()).toContain('hls-180p.m3u8');
    const rendition = await fetch(new URL('hls-180p.mp4', `${base}${video.urlHls}`), { headers: { range: 'bytes=0-99' } });
    expect([rendition.status, Buffer.from(await rendition.arrayBuffer()).length]).toEqual([206, 100]);
    // a browser (Accept names image/webp) gets the adopted picture's WebP copy from the bucket
    const webp = await fetch(`${base}${video.urlThumbnail}`, { headers: { accept: 'image/avif,image/webp,*/*;q=0.8' } });
    expect([webp.status, webp.headers.get('content-type'), webp.headers.get('vary')]).toEqual([200, 'image/webp', 'Accept']);
    const servedWebp = Buffer.from(await webp.arrayBuffer());
    expect(servedWebp.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(servedWebp.equals(await bucketObject(`${PREFIX}/${session.assetId}/thumbnail.webp`))).toBe(true);
    expect(servedWebp.equals(processedWebp), 'the adopted thumbnail\'s copy, not the one processing made').toBe(false);

    const whole = await fetch(`${base}${video.urlVideo}`);
    expect([whole.status, whole.headers.get('content-length'), whole.headers.get('accept-ranges')]).toEqual([200, String(VIDEO.length), 'bytes']);
    expect(Buffer.from(await whole.arrayBuffer()).equals(VIDEO)).toBe(true);
    const start = 1000;
    const end = VIDEO.length - 7;
    const part = await fetch(`${base}${video.urlVideo}`, { headers: { range: `bytes=${start}-${end}` } });
    expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes ${start}-${end}/${VIDEO.length}`]);
    expect(Buffer.from(await part.arrayBuffer()).equals(VIDEO.subarray(start, end + 1))).toBe(true);
    const etag = whole.headers.get('etag')!;
    expect((await fetch(`${base}${video.urlVideo}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const tooFar = await fetch(`${base}${video.urlVideo}`, { headers: { range: `bytes=${VIDEO.length}-` } });
    expect([tooFar.status, tooFar.headers.get('content-range')]).toEqual([416, `bytes */${VIDEO.length}`]);

    const removed = await call(server.app, { method: 'DELETE', url: `/api/videos/${video.id}`, token: admin.session });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await bucketKeys()).toEqual([]);
  });
});
