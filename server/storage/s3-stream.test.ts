import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../tests/utils/server-harness.ts';
import { streamPrefix, streamUrl } from '../media/signed-urls.ts';
import { startMotoServer } from './moto-server.test-support.ts';
import { startS3rver } from './s3rver.test-support.ts';

const ASSET = 's3_stream_asset';
const PLAYLIST = Buffer.from('#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-MAP:URI="hls-240p.mp4",BYTERANGE="700@0"\n#EXTINF:4.0,\n#EXT-X-BYTERANGE:9300@700\nhls-240p.mp4\n#EXT-X-ENDLIST\n');
const FMP4 = crypto.randomBytes(10_000);

// started while the file is collected, so the suites' names say which server ran
const moto = await startMotoServer();
const s3rver = await startS3rver();
afterAll(async () => {
  await moto.close();
  await s3rver.close();
});

/**
 * The streaming route of the app whose media is in a bucket: the playlist and byte ranges of the
 * rendition's MP4 come through our own origin from S3 (as getMedia's files do), so the names inside
 * the playlist resolve under the signed prefix.
 */
describe.each([
  { name: moto.name, env: async () => (await moto.newBucket()).env('tao-stream') },
  { name: s3rver.name, env: async () => s3rver.env('tao-stream') },
])('GET /api/media/{id}/s/…/{file} with media in S3 on $name', ({ env }) => {
  let server: TestServer & { close(): Promise<void> };

  beforeAll(async () => {
    server = await startTestServer('sqlite', await env());
    expect(server.config.s3?.bucket, 'the media are in a bucket').toBeDefined();
    await server.app.ctx.storage.write(ASSET, 'hls-240p.m3u8', Readable.from([PLAYLIST]));
    await server.app.ctx.storage.write(ASSET, 'hls-240p.mp4', Readable.from([FMP4]));
  }, 60_000);
  afterAll(async () => {
    const violations = server?.violations ?? [];
    await server?.close();
    expect(violations, 'responses that do not match openapi.yaml').toEqual([]);
  });

  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => server.app.inject({ method, url, headers });

  it('answers the playlist from the bucket byte for byte, and the ranges it names with exactly those bytes (R-MED-11)', async () => {
    const key = server.app.ctx.secrets.urlKey;
    const playlist = await get(streamUrl(key, ASSET, 'hls-240p.m3u8'));
    expect([playlist.statusCode, playlist.headers['content-type']]).toEqual([200, 'application/vnd.apple.mpegurl']);
    expect(playlist.rawPayload.equals(PLAYLIST)).toBe(true);

    const fragments = `${streamPrefix(key, ASSET)}hls-240p.mp4`;
    for (const [start, end] of [
      [0, 699],
      [700, 9999],
      [4321, 4321],
    ] as const) {
      const part = await get(fragments, { range: `bytes=${start}-${end}` });
      expect([part.statusCode, part.headers['content-range'], part.headers['content-length']]).toEqual([206, `bytes ${start}-${end}/${FMP4.length}`, String(end - start + 1)]);
      expect(part.rawPayload.equals(FMP4.subarray(start, end + 1))).toBe(true);
    }
    const whole = await get(fragments);
    expect([whole.statusCode, whole.rawPayload.equals(FMP4)]).toEqual([200, true]);
    const head = await get(fragments, {}, 'HEAD');
    expect([head.statusCode, head.headers['content-length'], head.rawPayload.length]).toEqual([200, String(FMP4.length), 0]);
    expect((await get(fragments, { 'if-none-match': String(whole.headers.etag) })).statusCode).toBe(304);
  });

  it('answers 404 for a file the bucket does not hold and 403 for a forged prefix (R-MED-10)', async () => {
    const key = server.app.ctx.secrets.urlKey;
    expect((await get(streamUrl(key, ASSET, 'hls-master.m3u8'))).statusCode).toBe(404);
    const forged = streamUrl(key, ASSET, 'hls-240p.m3u8').replace(/\/s\/(\d+)\/(.)/, (_all, expires: string, c: string) => `/s/${expires}/${c === 'A' ? 'B' : 'A'}`);
    const refused = await get(forged);
    expect([refused.statusCode, refused.json().type]).toEqual([403, 'invalid-signature']);
  });
});
