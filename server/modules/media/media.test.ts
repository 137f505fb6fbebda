import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { mediaExpiry, mediaUrl, signPath, type MediaFile } from '../../media/signed-urls.ts';
import { THUMBNAIL_SMALL_WEBP, THUMBNAIL_WEBP } from '../../media/thumbnails.ts';
import { LocalStorage } from '../../storage/local-storage.ts';

const ASSET = 'demo_asset_01';
const OTHER = 'demo_asset_02';
const VIDEO = crypto.randomBytes(10_000);
const THUMB = crypto.randomBytes(1_234);
const PREVIEW = crypto.randomBytes(2_000);
/** An asset whose thumbnail has its WebP copy (server/media/thumbnails.ts storeThumbnail). */
const WITH_WEBP = 'demo_asset_03';
const WEBP = crypto.randomBytes(600);
/** An asset whose thumbnail has both WebP copies, the whole picture's and the card-sized one. */
const WITH_SMALL = 'demo_asset_04';
const SMALL_WEBP = crypto.randomBytes(250);
const BROWSER_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

function split(url: string) {
  const u = new URL(url, 'http://localhost');
  return { path: u.pathname, expires: Number(u.searchParams.get('expires')), signature: u.searchParams.get('signature')! };
}

describeOnEachDatabase('GET /api/media/{id}/{file}', (server: () => TestServer) => {
  const key = () => server().app.ctx.secrets.urlKey;
  const url = (file: MediaFile, asset = ASSET, now?: number) => mediaUrl(key(), asset, file, now);
  const get = (target: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    server().app.inject({ method, url: target, headers });

  beforeAll(async () => {
    const storage = new LocalStorage(server().config.mediaDir);
    await storage.write(ASSET, 'video.mp4', Readable.from([VIDEO]));
    await storage.write(ASSET, 'thumbnail.jpg', Readable.from([THUMB]));
    await storage.write(ASSET, 'preview.mp4', Readable.from([PREVIEW]));
    await storage.write(WITH_WEBP, 'thumbnail.jpg', Readable.from([THUMB]));
    await storage.write(WITH_WEBP, THUMBNAIL_WEBP, Readable.from([WEBP]));
    await storage.write(WITH_SMALL, 'thumbnail.jpg', Readable.from([THUMB]));
    await storage.write(WITH_SMALL, THUMBNAIL_WEBP, Readable.from([WEBP]));
    await storage.write(WITH_SMALL, THUMBNAIL_SMALL_WEBP, Readable.from([SMALL_WEBP]));
  });

  it("answers w=400 with the thumbnail's card-sized WebP copy, with a validator of its own", async () => {
    const small = await get(`${url('thumbnail.jpg', WITH_SMALL)}&w=400`, { accept: BROWSER_ACCEPT });
    expect([small.statusCode, small.headers['content-type'], small.headers.vary]).toEqual([200, 'image/webp', 'Accept']);
    expect(small.rawPayload.equals(SMALL_WEBP)).toBe(true);
    const whole = await get(url('thumbnail.jpg', WITH_SMALL), { accept: BROWSER_ACCEPT });
    expect(whole.rawPayload.equals(WEBP)).toBe(true);
    expect(small.headers.etag).not.toBe(whole.headers.etag);
    // after a replaced thumbnail, the location carries its version too
    const versioned = await get(`${url('thumbnail.jpg', WITH_SMALL)}&v=3&w=400`, { accept: BROWSER_ACCEPT });
    expect(versioned.rawPayload.equals(SMALL_WEBP)).toBe(true);
  });

  it('answers w=400 as without it where there is no card-sized copy, and to a client that takes no WebP', async () => {
    const noSmall = await get(`${url('thumbnail.jpg', WITH_WEBP)}&w=400`, { accept: BROWSER_ACCEPT });
    expect([noSmall.statusCode, noSmall.headers['content-type']]).toEqual([200, 'image/webp']);
    expect(noSmall.rawPayload.equals(WEBP)).toBe(true);
    const noWebp = await get(`${url('thumbnail.jpg')}&w=400`, { accept: BROWSER_ACCEPT });
    expect(noWebp.rawPayload.equals(THUMB)).toBe(true);
    const jpegClient = await get(`${url('thumbnail.jpg', WITH_SMALL)}&w=400`, { accept: 'image/jpeg' });
    expect([jpegClient.headers['content-type'], jpegClient.rawPayload.equals(THUMB)]).toEqual(['image/jpeg', true]);
    const video = await get(`${url('video.mp4')}&w=400`);
    expect([video.statusCode, video.rawPayload.equals(VIDEO)]).toEqual([200, true]);
  });

  it('refuses a width it keeps no copy at with a validation problem naming w', async () => {
    const res = await get(`${url('thumbnail.jpg', WITH_SMALL)}&w=300`, { accept: BROWSER_ACCEPT });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ type: expect.stringMatching(/validation-error$/), detail: expect.stringMatching(/\bw\b/) });
  });

  it("answers a thumbnail's WebP copy to a browser that accepts WebP, and the JPEG to a client that does not", async () => {
    const browser = await get(url('thumbnail.jpg', WITH_WEBP), { accept: BROWSER_ACCEPT });
    expect([browser.statusCode, browser.headers['content-type'], browser.headers.vary]).toEqual([200, 'image/webp', 'Accept']);
    expect(browser.rawPayload.equals(WEBP)).toBe(true);
    expect(browser.headers['content-length']).toBe(String(WEBP.length));
    for (const accept of [undefined, '*/*', 'image/*', 'image/jpeg', 'image/webp;q=0']) {
      const other = await get(url('thumbnail.jpg', WITH_WEBP), accept ? { accept } : {});
      expect([other.statusCode, other.headers['content-type'], other.headers.vary], String(accept)).toEqual([200, 'image/jpeg', 'Accept']);
      expect(other.rawPayload.equals(THUMB)).toBe(true);
    }
  });

  it('answers the JPEG to a browser when the thumbnail has no WebP copy (stored before copies were made)', async () => {
    const res = await get(url('thumbnail.jpg'), { accept: BROWSER_ACCEPT });
    expect([res.statusCode, res.headers['content-type'], res.headers.vary]).toEqual([200, 'image/jpeg', 'Accept']);
    expect(res.rawPayload.equals(THUMB)).toBe(true);
  });

  it("gives the WebP copy its own validator: the JPEG's does not make a browser's request 304", async () => {
    const jpeg = await get(url('thumbnail.jpg', WITH_WEBP));
    const webp = await get(url('thumbnail.jpg', WITH_WEBP), { accept: BROWSER_ACCEPT });
    expect(webp.headers.etag).not.toBe(jpeg.headers.etag);
    const again = await get(url('thumbnail.jpg', WITH_WEBP), { accept: BROWSER_ACCEPT, 'if-none-match': String(jpeg.headers.etag) });
    expect(again.statusCode).toBe(200);
    const cached = await get(url('thumbnail.jpg', WITH_WEBP), { accept: BROWSER_ACCEPT, 'if-none-match': String(webp.headers.etag) });
    expect([cached.statusCode, cached.headers.vary]).toEqual([304, 'Accept']);
  });

  it('names Accept in Vary only for thumbnails', async () => {
    expect((await get(url('video.mp4'), { accept: BROWSER_ACCEPT })).headers.vary).toBeUndefined();
    expect((await get(url('preview.mp4'), { accept: BROWSER_ACCEPT })).headers.vary).toBeUndefined();
  });

  it('answers the whole file with its type, length, validators and a private cache lifetime within the expiry', async () => {
    const location = url('video.mp4');
    const expires = Number(new URL(location, 'http://localhost').searchParams.get('expires'));
    const before = Math.floor(Date.now() / 1000);
    const res = await get(location);
    const after = Math.ceil(Date.now() / 1000);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(VIDEO)).toBe(true);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['content-length']).toBe('10000');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(new Date(String(res.headers['last-modified'])).toUTCString()).toBe(res.headers['last-modified']);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(res.headers['cache-control']))?.[1]);
    // The lifetime runs to the location's expiry from the second the server answered, which lies
    // between the seconds before and after the request (a second may turn in between).
    expect(maxAge).toBeGreaterThan(3600 - 5);
    expect(maxAge).toBeLessThanOrEqual(expires - before);
    expect(maxAge).toBeGreaterThanOrEqual(expires - after);
  });

  it('answers the thumbnail as image/jpeg and the preview as video/mp4', async () => {
    const thumb = await get(url('thumbnail.jpg'));
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.rawPayload.equals(THUMB)).toBe(true);
    const preview = await get(url('preview.mp4'));
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('video/mp4');
    expect(preview.rawPayload.equals(PREVIEW)).toBe(true);
    expect(thumb.headers.etag).not.toBe(preview.headers.etag);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, 9999],
    ['bytes=-500', 9500, 9999],
    ['bytes=9990-20000', 9990, 9999],
    ['bytes=-20000', 0, 9999],
    ['bytes=9999-9999', 9999, 9999],
    ['BYTES=5-9', 5, 9],
    ['bytes= 5-9 ,', 5, 9],
  ])('answers 206 for %s', async (range, start, end) => {
    const res = await get(url('video.mp4'), { range });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/10000`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.equals(VIDEO.subarray(start, end + 1))).toBe(true);
  });

  it.each(['bytes=10000-', 'bytes=10000-10005', 'bytes=-0', 'bytes=99999999999999999999-'])('answers 416 with bytes */size for %s', async (range) => {
    const res = await get(url('video.mp4'), { range });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */10000');
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ type: 'range-not-satisfiable', status: 416 });
    expect(res.headers.etag).toBeUndefined();
  });

  it.each(['bytes=abc', 'bytes=500-100', 'bytes=0-1,5-6', 'items=0-5', 'bytes=', 'bytes=1-2-3', 'bytes=--5'])(
    'ignores the malformed or multiple range %s and answers the whole file',
    async (range) => {
      const res = await get(url('video.mp4'), { range });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-range']).toBeUndefined();
      expect(res.rawPayload.equals(VIDEO)).toBe(true);
    },
  );

  it('serves ranges of a thumbnail too', async () => {
    const res = await get(url('thumbnail.jpg'), { range: 'bytes=-10' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(THUMB.subarray(-10))).toBe(true);
  });

  it('answers 304 to If-None-Match naming the current version (weak comparison, lists, *)', async () => {
    const first = await get(url('video.mp4'));
    const etag = String(first.headers.etag);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get(url('video.mp4'), { 'if-none-match': inm });
      expect(res.statusCode, inm).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    }
    const other = await get(url('video.mp4'), { 'if-none-match': '"not-this-one"' });
    expect(other.statusCode).toBe(200);
    // If-None-Match wins over If-Modified-Since
    const both = await get(url('video.mp4'), { 'if-none-match': '"not-this-one"', 'if-modified-since': String(first.headers['last-modified']) });
    expect(both.statusCode).toBe(200);
  });

  it('answers 304 to If-Modified-Since at or after Last-Modified, and ignores an invalid date', async () => {
    const first = await get(url('video.mp4'));
    const lastModified = String(first.headers['last-modified']);
    expect((await get(url('video.mp4'), { 'if-modified-since': lastModified })).statusCode).toBe(304);
    const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();
    expect((await get(url('video.mp4'), { 'if-modified-since': later })).statusCode).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await get(url('video.mp4'), { 'if-modified-since': earlier })).statusCode).toBe(200);
    expect((await get(url('video.mp4'), { 'if-modified-since': 'yesterday' })).statusCode).toBe(200);
  });

  it('honours If-Range: the range only for the current version', async () => {
    const first = await get(url('video.mp4'));
    const etag = String(first.headers.etag);
    const ranged = await get(url('video.mp4'), { range: 'bytes=0-9', 'if-range': etag });
    expect(ranged.statusCode).toBe(206);
    const byDate = await get(url('video.mp4'), { range: 'bytes=0-9', 'if-range': String(first.headers['last-modified']) });
    expect(byDate.statusCode).toBe(206);
    for (const stale of ['"an-older-version"', `W/${etag}`, 'Thu, 01 Jan 2015 00:00:00 GMT']) {
      const res = await get(url('video.mp4'), { range: 'bytes=0-9', 'if-range': stale });
      expect(res.statusCode, stale).toBe(200);
      expect(res.rawPayload.equals(VIDEO)).toBe(true);
    }
  });

  it('answers HEAD with the headers of GET and no body (Range is for GET only)', async () => {
    const res = await get(url('video.mp4'), {}, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('10000');
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.length).toBe(0);
    const ranged = await get(url('video.mp4'), { range: 'bytes=0-9' }, 'HEAD');
    expect(ranged.statusCode).toBe(200);
    expect(ranged.headers['content-length']).toBe('10000');
    const etag = String(res.headers.etag);
    expect((await get(url('video.mp4'), { 'if-none-match': etag }, 'HEAD')).statusCode).toBe(304);
  });

  it('refuses an expired location with 403 invalid-signature', async () => {
    const expired = url('video.mp4', ASSET, Date.now() - 3 * 3600_000);
    expect(split(expired).expires).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const res = await get(expired);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ type: 'invalid-signature', status: 403 });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses a forged signature (one bit changed) and a changed expiry', async () => {
    const { path, expires, signature } = split(url('video.mp4'));
    const bytes = Buffer.from(signature, 'base64url');
    bytes[0] = bytes[0]! ^ 0x01;
    const forged = await get(`${path}?expires=${expires}&signature=${bytes.toString('base64url')}`);
    expect(forged.statusCode).toBe(403);
    expect(forged.json().type).toBe('invalid-signature');
    const later = await get(`${path}?expires=${expires + 3600}&signature=${signature}`);
    expect(later.statusCode).toBe(403);
  });

  it('refuses a signature made for another file, another asset or another method', async () => {
    const thumb = split(url('thumbnail.jpg'));
    const res = await get(`/api/media/${ASSET}/video.mp4?expires=${thumb.expires}&signature=${thumb.signature}`);
    expect(res.statusCode).toBe(403);
    const other = split(url('video.mp4', OTHER));
    expect((await get(`/api/media/${ASSET}/video.mp4?expires=${other.expires}&signature=${other.signature}`)).statusCode).toBe(403);
    const expires = mediaExpiry();
    const put = signPath(key(), 'PUT', `/api/media/${ASSET}/video.mp4`, expires);
    expect((await get(`/api/media/${ASSET}/video.mp4?expires=${expires}&signature=${put}`)).statusCode).toBe(403);
    const uploadPath = signPath(key(), 'GET', `/api/uploads/${ASSET}/video`, expires);
    expect((await get(`/api/media/${ASSET}/video.mp4?expires=${expires}&signature=${uploadPath}`)).statusCode).toBe(403);
  });

  it('answers 404 for a validly signed file that does not exist', async () => {
    const res = await get(url('video.mp4', OTHER));
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe('resource-not-found');
  });

  it('answers 400 for a location without its signature, or with a malformed one (contract validation)', async () => {
    const { path, expires } = split(url('video.mp4'));
    expect((await get(path)).statusCode).toBe(400);
    expect((await get(`${path}?expires=${expires}&signature=short`)).statusCode).toBe(400);
    expect((await get(`/api/media/${ASSET}/other.bin?expires=${expires}&signature=${'A'.repeat(43)}`)).statusCode).toBe(400);
  });

  it('a replaced file gets a new entity tag: the old one no longer answers 304', async () => {
    const before = await get(url('preview.mp4'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const replacement = crypto.randomBytes(2_000);
    await new LocalStorage(server().config.mediaDir).write(ASSET, 'preview.mp4', Readable.from([replacement]));
    const res = await get(url('preview.mp4'), { 'if-none-match': String(before.headers.etag) });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).not.toBe(before.headers.etag);
    expect(res.rawPayload.equals(replacement)).toBe(true);
  });
});

describe('media storage at start', () => {
  it('removes temporary files abandoned for more than a day, and keeps younger ones', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-media-start-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIR: path.join(dataDir, 'no-client') });
      const tmp = path.join(config.mediaDir, '.tmp');
      fs.mkdirSync(tmp, { recursive: true });
      fs.writeFileSync(path.join(tmp, 'abandoned.tmp'), 'x');
      const old = new Date(Date.now() - 25 * 3600_000);
      fs.utimesSync(path.join(tmp, 'abandoned.tmp'), old, old);
      fs.writeFileSync(path.join(tmp, 'in-progress.tmp'), 'y');
      const app = await buildApp({ config, logger: false });
      await app.ready();
      await app.close();
      expect(fs.readdirSync(tmp)).toEqual(['in-progress.tmp']);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('media over a socket: many ranges at once', () => {
  it('sends every range and the whole file intact while the range buffers are reused (players seeking, one reading slowly)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-media-socket-'));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 40 });
    try {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIR: path.join(dataDir, 'no-client') });
      const video = crypto.randomBytes(3 * 1024 * 1024 + 123);
      await new LocalStorage(config.mediaDir).write(ASSET, 'video.mp4', Readable.from([video]));
      const app = await buildApp({ config, logger: false });
      try {
        await app.listen({ host: '127.0.0.1', port: 0 });
        const address = app.server.address() as AddressInfo;
        const target = `http://127.0.0.1:${address.port}${mediaUrl(app.ctx.secrets.urlKey, ASSET, 'video.mp4')}`;
        /** The answer's status and body. */
        const fetchBody = (range?: string) =>
          new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
            http
              .get(target, { agent, headers: range ? { range } : {} }, (res) => {
                const parts: Buffer[] = [];
                res.on('data', (part: Buffer) => parts.push(part));
                res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
                res.on('error', reject);
              })
              .on('error', reject);
          });
        const rangeOf = (i: number) => {
          const length = i % 3 === 0 ? 1024 * 1024 : 1 + ((i * 7919) % (1024 * 1024));
          const start = (i * 104_729) % (video.length - length);
          return { start, end: start + length - 1 };
        };
        const check = (answer: { status: number; body: Buffer }, r: { start: number; end: number }) => {
          expect(answer.status).toBe(206);
          expect(answer.body.equals(video.subarray(r.start, r.end + 1)), `bytes=${r.start}-${r.end}`).toBe(true);
        };
        // A slow player first: ten ranges asked at once on one connection (pipelined) whose answers it
        // does not read yet. The server answers them in turn, so it still holds the bytes of all but
        // the first while the others' ranges below are read into buffers.
        const slow = Array.from({ length: 10 }, (_, i) => ({ start: i * 200_000, end: i * 200_000 + 1024 * 1024 - 1 }));
        const pipelined = net.connect(address.port, '127.0.0.1');
        await new Promise<void>((resolve) => pipelined.once('connect', resolve));
        pipelined.pause();
        const location = new URL(target);
        pipelined.write(slow.map((r) => `GET ${location.pathname}${location.search} HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=${r.start}-${r.end}\r\n\r\n`).join(''));
        await new Promise((resolve) => setTimeout(resolve, 200));
        const ranges = Array.from({ length: 120 }, (_, i) => rangeOf(i));
        const answers = await Promise.all([
          ...ranges.map((r) => fetchBody(`bytes=${r.start}-${r.end}`)),
          fetchBody(), // over 1 MiB: streamed
          fetchBody('bytes=0-2097151'), // a range over 1 MiB: streamed
        ]);
        ranges.forEach((r, i) => check(answers[i]!, r));
        expect(answers[ranges.length]!.status).toBe(200);
        expect(answers[ranges.length]!.body.equals(video)).toBe(true);
        expect(answers[ranges.length + 1]!.body.equals(video.subarray(0, 2097152))).toBe(true);
        // Now the slow player reads its ten answers: each must hold its own range.
        const received: Buffer[] = [];
        let total = 0;
        const expected = slow.reduce((sum, r) => sum + (r.end - r.start + 1), 0);
        await new Promise<void>((resolve, reject) => {
          pipelined.on('data', (part: Buffer) => {
            received.push(part);
            total += part.length;
            if (total >= expected) resolve();
          });
          pipelined.on('error', reject);
          pipelined.resume();
        });
        let stream = Buffer.concat(received);
        for (const r of slow) {
          const headEnd = stream.indexOf('\r\n\r\n');
          const head = stream.subarray(0, headEnd).toString('latin1');
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
          while (stream.length < headEnd + 4 + length) stream = Buffer.concat([stream, await new Promise<Buffer>((resolve) => pipelined.once('data', resolve))]);
          check({ status: Number(head.split(' ')[1]), body: stream.subarray(headEnd + 4, headEnd + 4 + length) }, r);
          stream = stream.subarray(headEnd + 4 + length);
        }
        pipelined.destroy();
      } finally {
        await app.close();
      }
    } finally {
      agent.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
