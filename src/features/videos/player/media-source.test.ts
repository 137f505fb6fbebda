import { describe, expect, it } from 'vitest';
import { chooseMediaSource } from './media-source.ts';

const WITH_HLS = { urlHls: '/api/media/7/s/1/sig/hls-master.m3u8', urlVideo: '/api/media/asset-7/video.mp4' };
const MP4_ONLY = { ...WITH_HLS, urlHls: null };

describe('the player source', () => {
  it('plays HLS natively where the browser plays it itself and has no MSE (R-VID-9)', () => {
    expect(chooseMediaSource(WITH_HLS, { nativeHls: 'probably', mse: false })).toEqual({ kind: 'native-hls', url: WITH_HLS.urlHls });
  });

  it('plays HLS through hls.js wherever there is MSE, native HLS or not (R-VID-9)', () => {
    expect(chooseMediaSource(WITH_HLS, { nativeHls: '', mse: true })).toEqual({ kind: 'hls.js', url: WITH_HLS.urlHls });
    expect(chooseMediaSource(WITH_HLS, { nativeHls: 'maybe', mse: true })).toEqual({ kind: 'hls.js', url: WITH_HLS.urlHls });
  });

  it('plays the MP4 when no rendition is ready or the browser has neither (R-VID-9)', () => {
    expect(chooseMediaSource(MP4_ONLY, { nativeHls: 'maybe', mse: true })).toEqual({ kind: 'mp4', url: MP4_ONLY.urlVideo });
    expect(chooseMediaSource(WITH_HLS, { nativeHls: '', mse: false })).toEqual({ kind: 'mp4', url: WITH_HLS.urlVideo });
  });
});
