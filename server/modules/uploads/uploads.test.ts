import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { call, describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { buildApp } from '../../app.ts';
import { now } from '../../db/database.ts';
import { indexFirst, probe, testVideoBytes } from '../../media/ffmpeg.ts';
import { makeForeignVideo } from '../../media/foreign-videos.ts';
import { mediaUrl, signedLocation } from '../../media/signed-urls.ts';
import { LocalStorage } from '../../storage/local-storage.ts';
import { addVideo, assetId as newAssetId, createUser, type LibraryUser } from '../videos/videos.test-support.ts';
import { findUpload, insertUpload } from './uploads.repository.ts';

type UploadSession = components['schemas']['UploadSession'];
type UploadState = components['schemas']['UploadThumbnailSession'];

const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(200)]);
/** Leading bytes of an MP4 (`ftyp` box) followed by garbage: passes the check at the door, fails processing. */
const FAKE_MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), crypto.randomBytes(30_000)]);

let VIDEO: Buffer;
/** A browser's screen recording (VP8 and Vorbis in WebM), long enough that its rewrite takes a few seconds. */
let WEBM: Buffer;

beforeAll(async () => {
  const webm = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tao-uploads-test-')), 'recording.webm');
  [VIDEO] = await Promise.all([
    testVideoBytes({ seconds: 2, pattern: 'testsrc2', toneHz: 440, width: 320, height: 180 }),
    makeForeignVideo(webm, 'webm', 20, { width: 1280, height: 720 }),
  ]);
  WEBM = fs.readFileSync(webm);
  fs.rmSync(path.dirname(webm), { recursive: true, force: true });
}, 120_000);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A PUT over a real connection of its own (inject would buffer the body). `chunks` are written one by
 * one. `abort`: after that many chunks, waits for `before` and destroys the connection. `pause`: before
 * chunk `at`, waits for `until`. `keepOpen`:
 * the body is not ended; the answer is awaited (a refusal while streaming), then the connection closed.
 */
function put(
  port: number,
  url: string,
  headers: Record<string, string>,
  chunks: Buffer[],
  options: { abort?: { after: number; before: () => Promise<void> }; pause?: { at: number; until: () => Promise<void> }; keepOpen?: boolean } = {},
): Promise<Answer | 'aborted'> {
  const { abort, pause, keepOpen } = options;
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request({ host: '127.0.0.1', port, method: 'PUT', path: url, headers, agent: false }, (response) => {
      answered = true;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => (body += d));
      response.on('end', () => {
        resolve({ status: response.statusCode!, headers: response.headers, body });
        if (keepOpen) request.destroy();
      });
    });
    request.on('error', (error) => {
      if (abort) resolve('aborted');
      else if (!answered) reject(error);
    });
    void (async () => {
      for (const [i, chunk] of chunks.entries()) {
        if (abort && i === abort.after) {
          await abort.before();
          request.destroy();
          return;
        }
        if (pause && i === pause.at) await pause.until();
        if (!request.write(chunk)) await new Promise((r) => request.once('drain', r));
      }
      if (!keepOpen) request.end();
    })().catch(reject);
  });
}

const split = (buffer: Buffer, size: number) => Array.from({ length: Math.ceil(buffer.length / size) }, (_, i) => buffer.subarray(i * size, (i + 1) * size));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describeOnEachDatabase('uploads: sessions, signed locations, resumable transfer, processing', () => ({ MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) }), (server: () => TestServer) => {
  let admin: LibraryUser;
  let ana: LibraryUser;
  let port: number;
  const storage = () => new LocalStorage(server().config.mediaDir);

  beforeAll(async () => {
    admin = await createUser(server(), `admin_${crypto.randomBytes(3).toString('hex')}`, { rol: 'admin' });
    ana = await createUser(server(), `ana_${crypto.randomBytes(3).toString('hex')}`);
    await server().app.listen({ port: 0, host: '127.0.0.1' });
    port = (server().app.server.address() as { port: number }).port;
  });

  async function session(body?: object): Promise<UploadSession> {
    const res = await call(server().app, { method: 'POST', url: '/api/uploads', token: admin.session, ...(body === undefined ? {} : { payload: body }) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function state(assetId: string): Promise<UploadState> {
    const res = await call(server().app, { method: 'GET', url: `/api/uploads/${assetId}`, token: admin.session });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  async function settled(assetId: string): Promise<UploadState> {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
      const s = await state(assetId);
      if (s.estado === 'ready' || s.estado === 'failed') return s;
    }
    throw new Error(`${assetId} was not processed within a minute`);
  }
  /** The asset's stored files but those of the HLS stage, which goes on after `ready` (R-MED-5). */
  const playbackFiles = async (assetId: string) => (await storage().list(assetId)).filter((file) => !/^(hls-|storyboard\.)/.test(file));
  const putWhole = (url: string, body: Buffer, type = 'video/mp4') =>
    put(port, url, { 'content-type': type, 'content-length': String(body.length) }, split(body, 16 * 1024)) as Promise<Answer>;
  const problemType = (answer: Answer | 'aborted') => (answer === 'aborted' ? answer : (JSON.parse(answer.body) as { type: string }).type);

  it('opens a session only for administrators (403 unauthorized-role), with signed PUT locations of its video and thumbnail', async () => {
    for (const request of [
      { method: 'POST' as const, url: '/api/uploads' },
      { method: 'GET' as const, url: `/api/uploads/${newAssetId()}` },
    ]) {
      const res = await call(server().app, { ...request, token: ana.session });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ type: 'unauthorized-role' });
    }
    const created = await session();
    const expires = Math.floor(Date.now() / 1000) + 3600;
    for (const file of ['video', 'thumbnail'] as const) {
      const url = new URL(created[file].uploadUrl, 'http://x');
      expect(url.pathname).toBe(`/api/uploads/${created.assetId}/${file}`);
      expect(Math.abs(Number(url.searchParams.get('expires')) - expires)).toBeLessThan(5);
    }
    expect(await state(created.assetId)).toMatchObject({ assetId: created.assetId, estado: 'pending', recibido: 0, duracion: null, error: null });
  });

  it('checks the announced content types and sizes at once (415, 413)', async () => {
    const cases: Array<[object, number]> = [
      [{ video: { contentType: 'image/png', size: 10 } }, 415],
      [{ thumbnail: { contentType: 'video/mp4', size: 10 } }, 415],
      [{ video: { contentType: 'video/mp4', size: MAX_UPLOAD_BYTES + 1 } }, 413],
      [{ thumbnail: { contentType: 'image/png', size: 20 * 1024 * 1024 + 1 } }, 413],
    ];
    for (const [payload, status] of cases) {
      const res = await call(server().app, { method: 'POST', url: '/api/uploads', token: admin.session, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().type).toBe(status === 415 ? 'unsupported-media-type' : 'payload-too-large');
    }
    await session({ video: { contentType: 'video/webm', size: MAX_UPLOAD_BYTES }, thumbnail: { contentType: 'image/jpeg', size: 1000 } });
  });

  it('GET answers 404 for an unknown asset, and a thumbnail location (estado ready) for a video that never had an upload session', async () => {
    const unknown = await call(server().app, { method: 'GET', url: `/api/uploads/${newAssetId()}`, token: admin.session });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ type: 'resource-not-found' });
    const asset = newAssetId();
    await addVideo(server(), { titulo: 'Demo sin sesión', idExterno: asset, duracion: 42 });
    const answer = await state(asset);
    expect(answer).toMatchObject({ assetId: asset, estado: 'ready', duracion: 42, error: null });
    expect(answer.video).toBeUndefined();
    const thumb = await putWhole(answer.thumbnail.uploadUrl, PNG, 'image/png');
    expect(thumb.status).toBe(204);
    expect((await findUpload(server().db.kysely, asset))?.thumbnail_pending).toBe(1);
  });

  it('refuses a content type the location does not take, and a PNG sent as video/mp4 (415, nothing stored)', async () => {
    const { assetId, video, thumbnail } = await session();
    const wrongType = await putWhole(video.uploadUrl, PNG, 'image/png');
    expect(wrongType.status).toBe(415);
    expect(problemType(wrongType)).toBe('unsupported-media-type');
    const renamed = await putWhole(video.uploadUrl, PNG, 'video/mp4');
    expect(renamed.status).toBe(415);
    expect(problemType(renamed)).toBe('unsupported-media-type');
    const notAnImage = await putWhole(thumbnail.uploadUrl, FAKE_MP4.subarray(0, 100), 'image/png');
    expect(notAnImage.status).toBe(415);
    expect(await state(assetId)).toMatchObject({ estado: 'pending', recibido: 0 });
    expect(await storage().list(assetId)).toEqual([]);
    expect(await storage().partialSize(assetId, 'video.mp4')).toBeUndefined();
  });

  it('refuses a video over MAX_UPLOAD_BYTES by Content-Length, by Content-Range total and while streaming (413)', async () => {
    const { assetId, video } = await session();
    const byLength = await put(port, video.uploadUrl, { 'content-type': 'video/mp4', 'content-length': String(MAX_UPLOAD_BYTES + 1) }, []);
    expect(byLength !== 'aborted' && byLength.status).toBe(413);
    const byRange = await call(server().app, {
      method: 'PUT',
      url: video.uploadUrl,
      headers: { 'content-type': 'video/mp4', 'content-range': `bytes 0-9/${MAX_UPLOAD_BYTES + 1}` },
      payload: VIDEO.subarray(0, 10),
    });
    expect(byRange.statusCode).toBe(413);
    expect(byRange.json()).toMatchObject({ type: 'payload-too-large' });
    // chunked: the size is only known while streaming
    const big = Buffer.concat([VIDEO.subarray(0, 64), Buffer.alloc(MAX_UPLOAD_BYTES)]);
    const streaming = await put(port, video.uploadUrl, { 'content-type': 'video/mp4' }, split(big, 64 * 1024), { keepOpen: true });
    expect(streaming !== 'aborted' && streaming.status).toBe(413);
    expect(problemType(streaming)).toBe('payload-too-large');
    expect(await state(assetId)).toMatchObject({ estado: 'pending', recibido: 0 });
    expect(await storage().list(assetId)).toEqual([]);
  });

  it('answers 403 invalid-signature for a forged or expired location, and for the other file\'s location', async () => {
    const { assetId, video, thumbnail } = await session();
    const key = server().app.ctx.secrets.urlKey;
    const past = Math.floor(Date.now() / 1000) - 10;
    const urls = [
      video.uploadUrl.replace(/signature=.{5}/, 'signature=AAAAA'),
      signedLocation(key, 'PUT', `/api/uploads/${assetId}/video`, past),
      signedLocation(key, 'GET', `/api/uploads/${assetId}/video`, past + 3600),
      thumbnail.uploadUrl.replace('/thumbnail?', '/video?'),
      video.uploadUrl.replace('/video?', '/thumbnail?'),
    ];
    for (const url of urls) {
      const res = await call(server().app, { method: 'PUT', url, headers: { 'content-type': 'video/mp4' }, payload: VIDEO });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ type: 'invalid-signature' });
    }
    expect(await storage().list(assetId)).toEqual([]);
  });

  it('checks the expiry when a request starts: a transfer in progress when the location expires completes', async () => {
    const { assetId } = await session();
    const expires = Math.floor(Date.now() / 1000) + 2;
    const url = signedLocation(server().app.ctx.secrets.urlKey, 'PUT', `/api/uploads/${assetId}/video`, expires);
    const chunks = split(VIDEO, 8 * 1024);
    const untilExpired = () => sleep((expires + 1) * 1000 - Date.now());
    const answer = await put(port, url, { 'content-type': 'video/mp4', 'content-length': String(VIDEO.length) }, chunks, { pause: { at: 1, until: untilExpired } });
    expect(answer !== 'aborted' && answer.status).toBe(204);
    const late = await call(server().app, { method: 'PUT', url, headers: { 'content-range': `bytes */${VIDEO.length}` } });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ type: 'invalid-signature', detail: 'this upload location has expired' });
    expect((await storage().stat(assetId, 'video.mp4'))?.size).toBe(VIDEO.length);
  });

  it('keeps the bytes of a transfer that broke off invisible; the offset query reports them, the rest completes the file byte for byte', async () => {
    const { assetId, video } = await session({ video: { contentType: 'video/mp4', size: VIDEO.length } });
    const chunks = split(VIDEO, 8 * 1024);
    const sent = 3 * 8 * 1024;
    const broken = await put(port, video.uploadUrl, { 'content-type': 'video/mp4', 'content-length': String(VIDEO.length) }, chunks, {
      abort: {
        after: 3,
        before: async () => {
          for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(20)) {
            if ((await storage().partialSize(assetId, 'video.mp4')) === sent) return;
          }
          throw new Error('the server did not receive the first chunks');
        },
      },
    });
    expect(broken).toBe('aborted');
    const query = await call(server().app, { method: 'PUT', url: video.uploadUrl, headers: { 'content-range': `bytes */${VIDEO.length}` } });
    expect(query.statusCode).toBe(202);
    expect(query.headers['upload-offset']).toBe(String(sent));
    expect(await storage().stat(assetId, 'video.mp4')).toBeUndefined();
    expect(await state(assetId)).toMatchObject({ estado: 'receiving', recibido: sent });

    const mismatch = await call(server().app, {
      method: 'PUT',
      url: video.uploadUrl,
      headers: { 'content-type': 'video/mp4', 'content-range': `bytes 100-199/${VIDEO.length}` },
      payload: VIDEO.subarray(100, 200),
    });
    expect(mismatch.statusCode).toBe(409);
    expect(mismatch.json()).toMatchObject({ type: 'upload-offset-mismatch' });
    expect(mismatch.headers['upload-offset']).toBe(String(sent));

    const middle = sent + 10_000;
    const part = await put(port, video.uploadUrl, { 'content-type': 'video/mp4', 'content-range': `bytes ${sent}-${middle - 1}/${VIDEO.length}`, 'content-length': String(middle - sent) }, [VIDEO.subarray(sent, middle)]);
    expect(part !== 'aborted' && [part.status, part.headers['upload-offset']]).toEqual([202, String(middle)]);
    const rest = await put(port, video.uploadUrl, { 'content-type': 'video/mp4', 'content-range': `bytes ${middle}-${VIDEO.length - 1}/${VIDEO.length}` }, split(VIDEO.subarray(middle), 8 * 1024));
    expect(rest !== 'aborted' && [rest.status, rest.headers['upload-offset']]).toEqual([204, String(VIDEO.length)]);

    const stored = await server().app.inject({ method: 'GET', url: mediaUrl(server().app.ctx.secrets.urlKey, assetId, 'video.mp4') });
    expect(stored.statusCode).toBe(200);
    expect(stored.rawPayload.equals(VIDEO)).toBe(true);
    const done = await call(server().app, { method: 'PUT', url: video.uploadUrl, headers: { 'content-range': `bytes */${VIDEO.length}` } });
    expect([done.statusCode, done.headers['upload-offset']]).toEqual([204, String(VIDEO.length)]);
    const again = await putWhole(video.uploadUrl, VIDEO);
    expect([again.status, problemType(again)]).toEqual([409, 'conflict']);
    expect((await settled(assetId)).estado).toBe('ready');
  });

  it('a server killed once every byte had arrived (before the commit, or before the state change): the offset query completes the upload (204)', async () => {
    // Found by bench/crash-safety.ts: the query answered 202 with Upload-Offset = the size, leaving
    // the client nothing to send and the upload stuck in `receiving`.
    const first = 64 * 1024;
    for (const killedAfter of ['the last part', 'the commit'] as const) {
      const { assetId, video } = await session({ video: { contentType: 'video/mp4', size: VIDEO.length } });
      const part = await put(port, video.uploadUrl, { 'content-type': 'video/mp4', 'content-range': `bytes 0-${first - 1}/${VIDEO.length}`, 'content-length': String(first) }, [VIDEO.subarray(0, first)]);
      expect(part !== 'aborted' && part.status).toBe(202);
      // what the server had done with the last part when it was killed
      await storage().appendPartial(assetId, 'video.mp4', Readable.from([VIDEO.subarray(first)]), { offset: first });
      if (killedAfter === 'the commit') await storage().commitPartial(assetId, 'video.mp4');
      // Every byte is held, also once committed (bench/crash-safety.ts read 'recibido: 0' there).
      expect(await state(assetId), killedAfter).toMatchObject({ estado: 'receiving', recibido: VIDEO.length });

      const query = await call(server().app, { method: 'PUT', url: video.uploadUrl, headers: { 'content-range': `bytes */${VIDEO.length}` } });
      expect([query.statusCode, query.headers['upload-offset']], killedAfter).toEqual([204, String(VIDEO.length)]);
      expect((await settled(assetId)).estado, killedAfter).toBe('ready');
      const stored = await server().app.inject({ method: 'GET', url: mediaUrl(server().app.ctx.secrets.urlKey, assetId, 'video.mp4') });
      expect(stored.rawPayload.equals(VIDEO), killedAfter).toBe(true);
    }
  });

  it('a plain PUT of the whole file answers 204 at once; processing makes it ready with duration, thumbnail and preview', async () => {
    const { assetId, video } = await session();
    const res = await putWhole(video.uploadUrl, VIDEO);
    expect(res.status).toBe(204);
    expect(res.headers['upload-offset']).toBeUndefined();
    const answer = await settled(assetId);
    expect(answer).toMatchObject({ estado: 'ready', recibido: VIDEO.length, error: null });
    expect(answer.duracion).toBeGreaterThan(1.9);
    expect(answer.duracion).toBeLessThan(2.2);
    expect(answer.video).toBeUndefined();
    expect(await playbackFiles(assetId)).toEqual(['preview.mp4', 'thumbnail-400.webp', 'thumbnail.jpg', 'thumbnail.webp', 'video.mp4']);
    const row = await findUpload(server().db.kysely, assetId);
    expect([row?.has_thumbnail, row?.has_preview, Number(row?.video_size)]).toEqual([1, 1, VIDEO.length]);
  });

  it('after ready, makes the HLS renditions and storyboard; the video made of the upload offers them (R-MED-5, R-MED-8)', async () => {
    const { assetId, video } = await session();
    expect((await putWhole(video.uploadUrl, VIDEO)).status).toBe(204);
    expect((await settled(assetId)).estado).toBe('ready');
    let row = await findUpload(server().db.kysely, assetId);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline && row?.has_storyboard !== 1; await sleep(100)) row = await findUpload(server().db.kysely, assetId);
    expect([row?.hls_heights, row?.has_storyboard]).toEqual(['180', 1]);
    expect(await storage().list(assetId)).toEqual(expect.arrayContaining(['hls-180p.m3u8', 'hls-180p.mp4', 'hls-master.m3u8', 'storyboard.jpg', 'storyboard.vtt']));
    const created = await call(server().app, {
      method: 'POST',
      url: '/api/videos',
      token: admin.session,
      payload: { idExterno: assetId, titulo: 'Con renditions', descripcionCorta: 'Un video con HLS', isVisible: true, tags: [] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const made = created.json<{ urlHls: string | null; urlStoryboard: string | null }>();
    expect(made.urlHls).toMatch(new RegExp(`^/api/media/${assetId}/s/\\d+/[A-Za-z0-9_-]{43}/hls-master\\.m3u8$`));
    expect(made.urlStoryboard).toMatch(new RegExp(`^/api/media/${assetId}/s/\\d+/[A-Za-z0-9_-]{43}/storyboard\\.vtt$`));
  }, 90_000);

  it('takes older containers sent as bytes (AVI, Windows Media, MPEG program stream, Flash video) and makes each an H.264 MP4 (MP3 sound copied, the rest AAC)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-containers-'));
    try {
      for (const kind of ['avi', 'wmv', 'mpeg', 'flv'] as const) {
        const file = path.join(dir, kind);
        await makeForeignVideo(file, kind, 2, { width: 320, height: 180 });
        const bytes = fs.readFileSync(file);
        const { assetId, video } = await session({ video: { contentType: 'application/octet-stream', size: bytes.length } });
        const put = await putWhole(video.uploadUrl, bytes, 'application/octet-stream');
        expect(put.status, `${kind}: ${put.body}`).toBe(204);
        expect(await settled(assetId), kind).toMatchObject({ estado: 'ready', error: null });
        const info = await probe(storage().localPath(assetId, 'video.mp4'));
        const sound = kind === 'avi' || kind === 'flv' ? 'mp3' : 'aac';
        expect([kind, info.formatName.includes('mp4'), info.videoCodec, info.audioCodec]).toEqual([kind, true, 'h264', sound]);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a WebM is rewritten as an H.264 MP4 while GET says how much is done; `recibido` stays the bytes that arrived', async () => {
    expect(WEBM.length).toBeLessThan(MAX_UPLOAD_BYTES);
    const { assetId, video } = await session({ video: { contentType: 'video/webm', size: WEBM.length } });
    expect((await putWhole(video.uploadUrl, WEBM, 'video/webm')).status).toBe(204);
    const seen: Array<number | null> = [];
    // The rewrite is made beside the media (MEDIA_DIR/.work), not in a system temporary directory that may be small.
    const workParent = path.join(server().config.mediaDir, '.work');
    const workDirs = () => (fs.existsSync(workParent) ? fs.readdirSync(workParent) : []);
    let sawWorkDir = false;
    let answer: UploadState;
    for (const deadline = Date.now() + 120_000; ; await sleep(50)) {
      answer = await state(assetId);
      if (answer.estado !== 'processing') break;
      if (answer.procesado !== null && workDirs().some((name) => name.startsWith('tao-processing-'))) sawWorkDir = true;
      seen.push(answer.procesado);
      if (Date.now() > deadline) throw new Error('not processed within two minutes');
    }
    expect(answer).toMatchObject({ estado: 'ready', procesado: null, recibido: WEBM.length, error: null });
    expect(sawWorkDir).toBe(true);
    expect(workDirs().filter((name) => name.startsWith('tao-processing-'))).toEqual([]);
    expect(answer.duracion).toBeGreaterThan(19.8);
    expect(answer.duracion).toBeLessThan(20.3);
    // While it was rewritten: percents, never going back, below 100 until it ended.
    const percents = seen.filter((p): p is number => p !== null);
    expect(percents.length, `answers while processing: ${JSON.stringify(seen)}`).toBeGreaterThan(0);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.every((p) => p >= 0 && p <= 100)).toBe(true);
    const stored = storage().localPath(assetId, 'video.mp4');
    const info = await probe(stored);
    expect([info.videoCodec, info.pixelFormat, info.audioCodec, info.width, info.height]).toEqual(['h264', 'yuv420p', 'aac', 1280, 720]);
    expect(await indexFirst(stored)).toBe(true);
    expect(await playbackFiles(assetId)).toEqual(['preview.mp4', 'thumbnail-400.webp', 'thumbnail.jpg', 'thumbnail.webp', 'video.mp4']);
  }, 150_000);

  it('a short upload is processed while a long rewrite runs: it does not wait behind it', async () => {
    const long = await session({ video: { contentType: 'video/webm', size: WEBM.length } });
    expect((await putWhole(long.video.uploadUrl, WEBM, 'video/webm')).status).toBe(204);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(50)) {
      if ((await state(long.assetId)).procesado !== null) break;
    }
    const short = await session();
    expect((await putWhole(short.video.uploadUrl, VIDEO)).status).toBe(204);
    expect(await settled(short.assetId)).toMatchObject({ estado: 'ready' });
    const meanwhile = await state(long.assetId);
    expect(meanwhile.estado, 'the long rewrite was still running when the short upload was ready').toBe('processing');
    expect(meanwhile.procesado).toBeLessThan(100);
    // The rewrite's own ending is the test above; the rest of it is not waited for here (ffmpeg is stopped).
    expect((await call(server().app, { method: 'DELETE', url: `/api/uploads/${long.assetId}`, token: admin.session })).statusCode).toBe(204);
  }, 150_000);

  it('DELETE discards an upload: a transfer broken off (its partial file), one being rewritten (ffmpeg stopped), a refused one; 404 then, 409 once a video was made of it', async () => {
    const discard = (assetId: string, token = admin.session) => call(server().app, { method: 'DELETE', url: `/api/uploads/${assetId}`, token });

    // Half a video arrived, then the connection broke: the partial file is kept for resuming until discarded.
    const half = await session();
    const chunks = split(VIDEO, 8 * 1024);
    const halfway = Math.floor(chunks.length / 2);
    await put(port, half.video.uploadUrl, { 'content-type': 'video/mp4', 'content-length': String(VIDEO.length) }, chunks, {
      abort: {
        after: halfway,
        // Broken off once the server has stored what was sent: bytes still unread in its socket when the
        // connection is reset are dropped (a clean-clone run under load once stored none within 100 ms).
        before: async () => {
          for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(20)) {
            if ((await storage().partialSize(half.assetId, 'video.mp4')) === halfway * 8 * 1024) return;
          }
          throw new Error('the server did not store the first half');
        },
      },
    });
    expect(await storage().partialSize(half.assetId, 'video.mp4')).toBe(halfway * 8 * 1024);
    expect((await discard(half.assetId, ana.session)).statusCode).toBe(403);
    expect((await discard(half.assetId)).statusCode).toBe(204);
    expect(await storage().partialSize(half.assetId, 'video.mp4')).toBeUndefined();
    expect(await findUpload(server().db.kysely, half.assetId)).toBeUndefined();
    const gone = await call(server().app, { method: 'GET', url: `/api/uploads/${half.assetId}`, token: admin.session });
    expect(gone.statusCode).toBe(404);
    expect((await discard(half.assetId)).json()).toMatchObject({ status: 404, type: expect.stringContaining('resource-not-found') });

    // A WebM being rewritten: discarded in the middle, nothing of it is left once the answer comes.
    const rewriting = await session({ video: { contentType: 'video/webm', size: WEBM.length } });
    expect((await putWhole(rewriting.video.uploadUrl, WEBM, 'video/webm')).status).toBe(204);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(50)) {
      if ((await state(rewriting.assetId)).procesado !== null) break;
    }
    expect((await state(rewriting.assetId)).procesado).not.toBeNull();
    const started = Date.now();
    expect((await discard(rewriting.assetId)).statusCode).toBe(204);
    expect(Date.now() - started).toBeLessThan(3000); // ffmpeg was stopped, not waited for
    expect(await storage().list(rewriting.assetId)).toEqual([]);
    await sleep(500);
    expect(await storage().list(rewriting.assetId)).toEqual([]);

    // Refused by processing (not a video), then 'Elegir otro archivo': its file goes too.
    const refused = await session();
    expect((await putWhole(refused.video.uploadUrl, FAKE_MP4)).status).toBe(204);
    expect((await settled(refused.assetId)).estado).toBe('failed');
    expect((await discard(refused.assetId)).statusCode).toBe(204);
    expect(await storage().list(refused.assetId)).toEqual([]);

    // Once a video was made of it, the video is what gets deleted.
    const made = await session();
    expect((await putWhole(made.video.uploadUrl, VIDEO)).status).toBe(204);
    await settled(made.assetId);
    await addVideo(server(), { titulo: 'Hecho de una subida', idExterno: made.assetId });
    const conflict = await discard(made.assetId);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ type: expect.stringContaining('conflict') });
    expect(await storage().list(made.assetId)).toContain('video.mp4');
  }, 150_000);

  it('a file with MP4 leading bytes that is not a video fails processing with the reason', async () => {
    const { assetId, video } = await session();
    expect((await putWhole(video.uploadUrl, FAKE_MP4)).status).toBe(204);
    const answer = await settled(assetId);
    expect(answer.estado).toBe('failed');
    expect(answer.error).toMatch(/not a video/);
    expect(answer.duracion).toBeNull();
  });

  it('takes a thumbnail image whole (204) and keeps it pending; it refuses a Content-Range', async () => {
    const { assetId, thumbnail } = await session();
    const partial = await call(server().app, { method: 'PUT', url: thumbnail.uploadUrl, headers: { 'content-type': 'image/png', 'content-range': `bytes 0-9/${PNG.length}` }, payload: PNG.subarray(0, 10) });
    expect(partial.statusCode).toBe(400);
    const res = await putWhole(thumbnail.uploadUrl, PNG, 'image/png');
    expect(res.status).toBe(204);
    expect(await storage().list(assetId)).toEqual(['thumbnail.pending']);
    expect((await findUpload(server().db.kysely, assetId))?.thumbnail_pending).toBe(1);
  });

  it('after a restart: videos left processing are processed (attempts counted; after three, failed), abandoned uploads removed', async () => {
    const kysely = server().db.kysely;
    const at = now();
    const longAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
    const interrupted = newAssetId();
    const tooOften = newAssetId();
    const abandoned = newAssetId();
    const adopted = newAssetId();
    await insertUpload(kysely, { asset_id: interrupted, created_at: at, expires_at: at, video_state: 'processing', attempts: 1, updated_at: at });
    await storage().write(interrupted, 'video.mp4', Readable.from([VIDEO]));
    await insertUpload(kysely, { asset_id: tooOften, created_at: at, expires_at: at, video_state: 'processing', attempts: 3, updated_at: at });
    await storage().write(tooOften, 'video.mp4', Readable.from([VIDEO]));
    await insertUpload(kysely, { asset_id: abandoned, created_at: longAgo, expires_at: longAgo, video_state: 'receiving', updated_at: longAgo });
    await storage().appendPartial(abandoned, 'video.mp4', Readable.from([VIDEO.subarray(0, 1000)]), { offset: 0 });
    await storage().write(abandoned, 'thumbnail.pending', Readable.from([PNG]));
    await insertUpload(kysely, { asset_id: adopted, created_at: longAgo, expires_at: longAgo, video_state: 'ready', updated_at: longAgo });
    await addVideo(server(), { titulo: 'Adoptado', idExterno: adopted });
    // Files nobody owns (a deleted video whose files could not be removed), a day old and fresh ones.
    const orphan = newAssetId();
    const freshOrphan = newAssetId();
    for (const asset of [orphan, freshOrphan, adopted]) await storage().write(asset, 'video.mp4', Readable.from([VIDEO.subarray(0, 100)]));
    const dayOld = new Date(Date.now() - 25 * 3600_000);
    for (const asset of [orphan, adopted]) await fs.promises.utimes(path.join(server().config.mediaDir, asset), dayOld, dayOld);

    const restarted = await buildApp({ config: server().config, db: server().db, logger: false });
    try {
      await restarted.ready();
      expect(await findUpload(kysely, abandoned)).toBeUndefined();
      expect(await storage().list(abandoned)).toEqual([]);
      expect(await storage().partialSize(abandoned, 'video.mp4')).toBeUndefined();
      expect(await findUpload(kysely, adopted)).toBeDefined();
      expect(await storage().list(adopted)).toEqual(['video.mp4']);
      expect(await storage().list(orphan)).toEqual([]);
      expect(await storage().list(freshOrphan)).toEqual(['video.mp4']);
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
        if ((await findUpload(kysely, interrupted))?.video_state !== 'processing') break;
      }
    } finally {
      await restarted.close();
    }
    expect(await findUpload(kysely, interrupted)).toMatchObject({ video_state: 'ready', attempts: 2, has_thumbnail: 1, has_preview: 1 });
    expect(await findUpload(kysely, tooOften)).toMatchObject({ video_state: 'failed', error: 'processing was interrupted 3 times' });
  });
});
