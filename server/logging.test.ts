import { describe, expect, it } from 'vitest';
import { redactUrl } from './logging.ts';

describe('redactUrl: the credentials of logged URLs', () => {
  it('replaces the values of signature, invitation, token and xwikiid parameters, whatever their case or encoding', () => {
    expect(redactUrl('/api/media/asset_0123/video.mp4?expires=1795345200&signature=Wd6o7Mw6VcLugVhXBCIevSL5cabp3oSQ_RYLNoUhK5Y&v=2')).toBe(
      '/api/media/asset_0123/video.mp4?expires=1795345200&signature=[redacted]&v=2',
    );
    expect(redactUrl('/register?invitation=abc%2Fdef')).toBe('/register?invitation=[redacted]');
    expect(redactUrl('/x?SIGNATURE=a&%74oken=b&taoToken=c')).toBe('/x?SIGNATURE=[redacted]&%74oken=[redacted]&taoToken=[redacted]');
    expect(redactUrl('/x?signature=a&signature=b')).toBe('/x?signature=[redacted]&signature=[redacted]');
    // the single-sign-on link of the organisation's portal: /videos?xwikiid=<JWT>
    expect(redactUrl('/videos?q=gato&xwikiid=eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjoibHVpc2EifQ.c2ln')).toBe('/videos?q=gato&xwikiid=[redacted]');
  });

  it("replaces the signature a streaming location carries in its path, keeping the asset, expiry and file (R-SEC-4)", () => {
    expect(redactUrl('/api/media/asset_0123/s/1795345200/Wd6o7Mw6VcLugVhXBCIevSL5cabp3oSQ_RYLNoUhK5Y/hls-360p.mp4')).toBe(
      '/api/media/asset_0123/s/1795345200/[redacted]/hls-360p.mp4',
    );
    expect(redactUrl('/api/media/asset_0123/s/1795345200/forged/hls-master.m3u8?x=1')).toBe('/api/media/asset_0123/s/1795345200/[redacted]/hls-master.m3u8?x=1');
  });

  it('leaves paths, other parameters and malformed names as they are', () => {
    expect(redactUrl('/api/videos?q=hola&limit=5')).toBe('/api/videos?q=hola&limit=5');
    expect(redactUrl('/api/videos')).toBe('/api/videos');
    expect(redactUrl('/x?%E0%A4%A=1&signature')).toBe('/x?%E0%A4%A=1&signature');
  });
});
