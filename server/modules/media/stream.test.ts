import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { beforeAll, expect, it } from 'vitest';
import { describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { signPath, streamExpiry, streamPrefix, streamUrl } from '../../media/signed-urls.ts';
import { LocalStorage } from '../../storage/local-storage.ts';

const ASSET = 'stream_asset_01';
const OTHER = 'stream_asset_02';
const MASTER = Buffer.from(
  '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=400000,AVERAGE-BANDWIDTH=350000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",FRAME-RATE=25\nhls-360p.m3u8\n',
);
const MEDIA = Buffer.from(
  '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI="hls-360p.mp4",BYTERANGE="800@0"\n#EXTINF:4.0,\n#EXT-X-BYTERANGE:5000@800\nhls-360p.mp4\n#EXTINF:4.0,\n#EXT-X-BYTERANGE:14200@5800\nhls-360p.mp4\n#EXT-X-ENDLIST\n',
);
/** A rendition's fragmented MP4: the route serves bytes as stored, so random ones show any byte out of place. */
const FMP4 = crypto.randomBytes(20_000);
const VTT = Buffer.from('WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nstoryboard.jpg#xywh=0,0,160,90\n');
const SPRITE = crypto.randomBytes(3_000);

const parts = (location: string) => {
  const [, id, expires, signature, file] = /^\/api\/media\/([^/]+)\/s\/(\d+)\/([^/]+)\/(.+)$/.exec(location)!;
  return { id: id!, expires: Number(expires), signature: signature!, file: file! };
};

describeOnEachDatabase('GET /api/media/{id}/s/{expires}/{signature}/{file} on local storage', (server: () => TestServer) => {
  const key = () => server().app.ctx.secrets.urlKey;
  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => server().app.inject({ method, url, headers });

  beforeAll(async () => {
    const storage = new LocalStorage(server().config.mediaDir);
    await storage.write(ASSET, 'hls-master.m3u8', Readable.from([MASTER]));
    await storage.write(ASSET, 'hls-360p.m3u8', Readable.from([MEDIA]));
    await storage.write(ASSET, 'hls-360p.mp4', Readable.from([FMP4]));
    await storage.write(ASSET, 'storyboard.vtt', Readable.from([VTT]));
    await storage.write(ASSET, 'storyboard.jpg', Readable.from([SPRITE]));
    await storage.write(OTHER, 'hls-master.m3u8', Readable.from([MASTER]));
  });

  it('answers the master playlist byte for byte, and the names in it resolve to files under the same prefix (R-MED-10)', async () => {
    const master = streamUrl(key(), ASSET, 'hls-master.m3u8');
    const res = await get(master);
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'application/vnd.apple.mpegurl']);
    expect(res.rawPayload.equals(MASTER)).toBe(true);
    expect(res.headers['content-length']).toBe(String(MASTER.length));
    // a playlist is revalidated, as the master gains renditions while they are made
    expect(res.headers['cache-control']).toBe('private, max-age=0');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);

    // what a player does: each name inside resolves against the playlist's own location
    const rendition = new URL(res.rawPayload.toString().trim().split('\n').at(-1)!, `http://localhost${master}`).pathname;
    const media = await get(rendition);
    expect([media.statusCode, media.headers['content-type']]).toEqual([200, 'application/vnd.apple.mpegurl']);
    expect(media.rawPayload.equals(MEDIA)).toBe(true);
    const fragments = new URL('hls-360p.mp4', `http://localhost${rendition}`).pathname;
    expect(fragments).toBe(`${streamPrefix(key(), ASSET)}hls-360p.mp4`);
    expect((await get(fragments)).rawPayload.equals(FMP4)).toBe(true);
  });

  it("answers the byte ranges a player asks of a rendition's MP4 with exactly those bytes, cacheable no longer than the prefix (R-MED-11)", async () => {
    const location = streamUrl(key(), ASSET, 'hls-360p.mp4');
    const { expires } = parts(location);
    for (const [start, end] of [
      [0, 799],
      [800, 5799],
      [5800, 19_999],
    ] as const) {
      const res = await get(location, { range: `bytes=${start}-${end}` });
      expect([res.statusCode, res.headers['content-range'], res.headers['content-type']]).toEqual([206, `bytes ${start}-${end}/${FMP4.length}`, 'video/mp4']);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(FMP4.subarray(start, end + 1))).toBe(true);
      const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(res.headers['cache-control']))?.[1]);
      expect(maxAge).toBeGreaterThan(12 * 3600 - 5);
      expect(maxAge).toBeLessThanOrEqual(expires - Math.floor(Date.now() / 1000) + 1);
    }
    const tooFar = await get(location, { range: `bytes=${FMP4.length}-` });
    expect([tooFar.statusCode, tooFar.headers['content-range']]).toEqual([416, `bytes */${FMP4.length}`]);
    const whole = await get(location);
    expect((await get(location, { 'if-none-match': String(whole.headers.etag) })).statusCode).toBe(304);
  });

  it('answers the storyboard as text/vtt and its sprite as image/jpeg (R-MED-11)', async () => {
    const vtt = await get(streamUrl(key(), ASSET, 'storyboard.vtt'));
    expect([vtt.statusCode, String(vtt.headers['content-type']).split(';')[0]]).toEqual([200, 'text/vtt']);
    expect(vtt.rawPayload.equals(VTT)).toBe(true);
    const sprite = await get(streamUrl(key(), ASSET, 'storyboard.jpg'));
    expect([sprite.statusCode, sprite.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect(sprite.rawPayload.equals(SPRITE)).toBe(true);
  });

  it('answers HEAD with the headers of GET and no body (R-MED-11)', async () => {
    const res = await get(streamUrl(key(), ASSET, 'hls-360p.mp4'), { range: 'bytes=0-9' }, 'HEAD');
    expect([res.statusCode, res.headers['content-length'], res.headers['content-type'], res.headers['accept-ranges']]).toEqual([200, String(FMP4.length), 'video/mp4', 'bytes']);
    expect(res.rawPayload.length).toBe(0);
  });

  it('refuses a forged signature, a changed expiry and a tampered prefix with 403 invalid-signature (R-MED-10)', async () => {
    const { id, expires, signature, file } = parts(streamUrl(key(), ASSET, 'hls-360p.mp4'));
    const bytes = Buffer.from(signature, 'base64url');
    bytes[0] = bytes[0]! ^ 0x01;
    const refused = [
      `/api/media/${id}/s/${expires}/${bytes.toString('base64url')}/${file}`,
      `/api/media/${id}/s/${expires + 3600}/${signature}/${file}`,
      // a signature of the asset's media file path, or of the prefix for PUT, is not one of the prefix
      `/api/media/${id}/s/${expires}/${signPath(key(), 'GET', `/api/media/${id}/video.mp4`, expires)}/${file}`,
      `/api/media/${id}/s/${expires}/${signPath(key(), 'PUT', `/api/media/${id}/s/`, expires)}/${file}`,
      `/api/media/${id}/s/${expires}/${signPath(key(), 'GET', `/api/media/${id}/s/${expires}/`, expires)}/${file}`,
    ];
    for (const url of refused) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toMatchObject({ type: 'invalid-signature', status: 403 });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it("refuses another asset's prefix and an expired one with 403 invalid-signature (R-MED-10)", async () => {
    const other = parts(streamUrl(key(), OTHER, 'hls-master.m3u8'));
    const borrowed = await get(`/api/media/${ASSET}/s/${other.expires}/${other.signature}/hls-master.m3u8`);
    expect([borrowed.statusCode, borrowed.json().type]).toEqual([403, 'invalid-signature']);
    const old = Date.now() - 14 * 3600_000;
    expect(streamExpiry(old)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const expired = await get(streamUrl(key(), ASSET, 'hls-master.m3u8', old));
    expect([expired.statusCode, expired.json().type, expired.json().detail]).toEqual([403, 'invalid-signature', 'this streaming location has expired']);
  });

  it('answers 404 for a validly signed file the asset does not have, and 400 for a name outside the layout (R-MED-11)', async () => {
    const missing = await get(streamUrl(key(), OTHER, 'hls-720p.mp4'));
    expect([missing.statusCode, missing.json().type]).toEqual([404, 'resource-not-found']);
    const prefix = streamPrefix(key(), ASSET);
    expect((await get(`${prefix}video.mp4`)).statusCode).toBe(400);
    expect((await get(`${prefix}..%2Fvideo.mp4`)).statusCode).toBe(400);
  });
});
