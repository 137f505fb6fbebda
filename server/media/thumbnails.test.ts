import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../storage/local-storage.ts';
import { mediaTools, probe } from './ffmpeg.ts';
import { adoptPendingThumbnail, PENDING_THUMBNAIL, storeThumbnail, THUMBNAIL_SMALL_WEBP, THUMBNAIL_WEBP } from './thumbnails.ts';

const ASSET = 'thumb_asset_01';

describe('storeThumbnail: the JPEG and its WebP copy', () => {
  let work: string;
  let storage: LocalStorage;
  let jpeg: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-thumbnails-'));
    storage = new LocalStorage(path.join(work, 'media'));
    jpeg = path.join(work, 'thumbnail.jpg');
    // a 640×360 picture with detail, as a video's thumbnail is
    execFileSync(mediaTools().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=640x360', '-frames:v', '1', '-q:v', '3', '-c:v', 'mjpeg', jpeg]);
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  const stored = (file: string) => fs.readFileSync(storage.localPath(ASSET, file));

  it('stores the JPEG as it is and a WebP of the same picture, smaller', async () => {
    expect(await storeThumbnail(storage, ASSET, jpeg)).toBe(true);
    expect(stored('thumbnail.jpg').equals(fs.readFileSync(jpeg))).toBe(true);
    const webp = stored(THUMBNAIL_WEBP);
    expect(webp.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(webp.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(webp.length).toBeLessThan(stored('thumbnail.jpg').length * 0.8);
    const info = await probe(storage.localPath(ASSET, THUMBNAIL_WEBP));
    expect([info.width, info.height]).toEqual([640, 360]);
  });

  it('stores a card-sized WebP copy, 400 pixels wide in proportion, with a fraction of the bytes', async () => {
    expect(await storeThumbnail(storage, ASSET, jpeg)).toBe(true);
    const small = stored(THUMBNAIL_SMALL_WEBP);
    expect(small.subarray(8, 12).toString('latin1')).toBe('WEBP');
    const info = await probe(storage.localPath(ASSET, THUMBNAIL_SMALL_WEBP));
    expect([info.width, info.height]).toEqual([400, 225]);
    expect(small.length).toBeLessThan(stored(THUMBNAIL_WEBP).length * 0.6);
  });

  it('keeps a picture narrower than a card at its own width in the card-sized copy', async () => {
    const narrow = path.join(work, 'narrow.jpg');
    execFileSync(mediaTools().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=320x240', '-frames:v', '1', '-q:v', '3', '-c:v', 'mjpeg', narrow]);
    expect(await storeThumbnail(storage, ASSET, narrow)).toBe(true);
    const info = await probe(storage.localPath(ASSET, THUMBNAIL_SMALL_WEBP));
    expect([info.width, info.height]).toEqual([320, 240]);
  });

  it('never leaves the previous picture\'s copies beside a new JPEG it could not copy, and logs why', async () => {
    await storage.write(ASSET, THUMBNAIL_WEBP, Readable.from([Buffer.from('RIFF....WEBP the previous picture')]));
    await storage.write(ASSET, THUMBNAIL_SMALL_WEBP, Readable.from([Buffer.from('RIFF....WEBP the previous picture, small')]));
    const broken = path.join(work, 'broken.jpg');
    fs.writeFileSync(broken, crypto.randomBytes(2_000));
    const warnings: unknown[][] = [];
    expect(await storeThumbnail(storage, ASSET, broken, { warn: (...args: unknown[]) => void warnings.push(args) })).toBe(false);
    // the operator learns why browsers get the JPEG
    expect(warnings).toHaveLength(2);
    for (const [i, file] of [THUMBNAIL_WEBP, THUMBNAIL_SMALL_WEBP].entries()) {
      expect(warnings[i]).toEqual([expect.objectContaining({ assetId: ASSET, file, err: expect.any(Error) }), expect.stringMatching(/WebP copy/)]);
    }
    expect(stored('thumbnail.jpg').equals(fs.readFileSync(broken))).toBe(true);
    expect(await storage.stat(ASSET, THUMBNAIL_WEBP)).toBeUndefined();
    expect(await storage.stat(ASSET, THUMBNAIL_SMALL_WEBP)).toBeUndefined();
  });
});

describe('adopting an uploaded thumbnail', () => {
  it('stores the picture when its WebP copy cannot be written (the JPEG is served), and logs why', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-thumbnails-'));
    try {
      const local = new LocalStorage(path.join(work, 'media'));
      const picture = path.join(work, 'picture.png');
      execFileSync(mediaTools().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=320x180', '-frames:v', '1', picture]);
      await local.write(ASSET, PENDING_THUMBNAIL, fs.createReadStream(picture));
      // a disk that fills up just as the copy is written
      const storage = Object.create(local) as LocalStorage;
      storage.write = (assetId, file, source, options) =>
        file === THUMBNAIL_WEBP ? Promise.reject(new Error('ENOSPC: no space left on device')) : local.write(assetId, file, source, options);
      const warnings: unknown[][] = [];
      expect(await adoptPendingThumbnail(storage, ASSET, { warn: (...args: unknown[]) => void warnings.push(args) })).toBe(true);
      expect((await probe(local.localPath(ASSET, 'thumbnail.jpg'))).width).toBe(320);
      expect(await local.stat(ASSET, THUMBNAIL_WEBP)).toBeUndefined();
      expect(await local.stat(ASSET, PENDING_THUMBNAIL)).toBeUndefined();
      expect(warnings).toEqual([[expect.objectContaining({ assetId: ASSET, err: expect.objectContaining({ message: expect.stringMatching(/ENOSPC/) }) }), expect.stringMatching(/WebP copy/)]]);
      // the card-sized copy, written to a disk with room again, is still made
      expect((await probe(local.localPath(ASSET, THUMBNAIL_SMALL_WEBP))).width).toBe(320);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
