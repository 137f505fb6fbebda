import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter, generateTestVideo, makePreview, makeThumbnail, mediaTools, NotMediaError, probe } from './ffmpeg.ts';

/** Offsets of the top-level mp4 boxes: with +faststart, `moov` comes before `mdat`. */
function topLevelBoxes(file: string): string[] {
  const data = fs.readFileSync(file);
  const boxes: string[] = [];
  for (let offset = 0; offset + 8 <= data.length; ) {
    const size = data.readUInt32BE(offset);
    boxes.push(data.toString('latin1', offset + 4, offset + 8));
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

describe('ffmpeg helpers', () => {
  let dir: string;
  const video = () => path.join(dir, 'video.mp4');

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-ffmpeg-'));
    await generateTestVideo(video(), { seconds: 2, pattern: 'smptebars', toneHz: 440, label: 'Reunión: 50% «prueba»\nsegunda línea', hue: 90 });
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds ffmpeg and ffprobe (PATH first, else the installer packages)', () => {
    const tools = mediaTools();
    for (const program of [tools.ffmpeg, tools.ffprobe]) {
      expect(() => fs.accessSync(program, fs.constants.X_OK)).not.toThrow();
    }
  });

  it('generates a playable test video: H.264 yuv420p 640x360 with AAC sound, +faststart, of the asked length', async () => {
    const info = await probe(video());
    expect(info.hasVideo).toBe(true);
    expect(info.hasAudio).toBe(true);
    expect(info.videoCodec).toBe('h264');
    expect(info.pixelFormat).toBe('yuv420p');
    expect([info.width, info.height]).toEqual([640, 360]);
    expect(info.durationSeconds).toBeGreaterThan(1.9);
    expect(info.durationSeconds).toBeLessThan(2.2);
    expect(info.formatName).toContain('mp4');
    const boxes = topLevelBoxes(video());
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it('different options make different videos', async () => {
    const other = path.join(dir, 'other.mp4');
    await generateTestVideo(other, { seconds: 2, pattern: 'testsrc2', toneHz: 660 });
    expect(fs.readFileSync(other).equals(fs.readFileSync(video()))).toBe(false);
    expect((await probe(other)).hasVideo).toBe(true);
  });

  it('makes a 640-wide JPEG thumbnail, which is not a video', async () => {
    const thumb = path.join(dir, 'thumbnail.jpg');
    await makeThumbnail(video(), thumb);
    const bytes = fs.readFileSync(thumb);
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    const info = await probe(thumb);
    expect(info.width).toBe(640);
    expect(info.height).toBe(360);
    expect(info.hasVideo).toBe(false);
  });

  it('makes a small muted H.264 preview about 320 wide, with +faststart', async () => {
    const preview = path.join(dir, 'preview.mp4');
    await makePreview(video(), preview);
    const info = await probe(preview);
    expect(info.hasVideo).toBe(true);
    expect(info.hasAudio).toBe(false);
    expect(info.videoCodec).toBe('h264');
    expect(info.pixelFormat).toBe('yuv420p');
    expect([info.width, info.height]).toEqual([320, 180]);
    expect(info.durationSeconds).toBeGreaterThan(1);
    expect(info.durationSeconds).toBeLessThanOrEqual(4.1);
    expect(fs.statSync(preview).size).toBeLessThan(fs.statSync(video()).size);
    const boxes = topLevelBoxes(preview);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it('a preview of a longer video joins four moments of it', async () => {
    const long = path.join(dir, 'long.mp4');
    await generateTestVideo(long, { seconds: 12, pattern: 'pal100bars', toneHz: 330, width: 320, height: 180 });
    const preview = path.join(dir, 'long-preview.mp4');
    await makePreview(long, preview);
    const info = await probe(preview);
    expect(info.durationSeconds).toBeGreaterThan(5.5);
    expect(info.durationSeconds).toBeLessThan(6.5);
  }, 60_000);

  it('refuses files that are not media, and does not take a text file for a video', async () => {
    const text = 'esto no es un vídeo\n'.repeat(100);
    const unknown = path.join(dir, 'upload.bin');
    fs.writeFileSync(unknown, Buffer.concat([Buffer.from([0, 1, 2, 3]), Buffer.from(text)]));
    await expect(probe(unknown)).rejects.toBeInstanceOf(NotMediaError);
    await expect(makeThumbnail(unknown, path.join(dir, 'x.jpg'))).rejects.toBeInstanceOf(NotMediaError);
    // ffprobe reads a .txt as ANSI art ("tty" format): probe says it is no video
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, text);
    const info = await probe(notes).catch((error: unknown) => error);
    expect(info instanceof NotMediaError || (info as { hasVideo: boolean }).hasVideo === false).toBe(true);
    // nor a video with its extension but text inside
    const fake = path.join(dir, 'fake.mp4');
    fs.writeFileSync(fake, text);
    await expect(probe(fake)).rejects.toBeInstanceOf(NotMediaError);
  });
});

describe('createLimiter', () => {
  it('runs at most n tasks at once, in order, and passes results and errors through', async () => {
    const limit = createLimiter(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (i: number) =>
      limit(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        if (i === 3) throw new Error('task 3 failed');
        return i * 10;
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5, 6].map(task));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results[3]).toMatchObject({ status: 'rejected' });
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual([0, 10, 20, 40, 50, 60]);
    // a late caller while the queue drains still waits for a free slot
    const late = await Promise.all([task(7), task(8), task(9)]);
    expect(late).toEqual([70, 80, 90]);
    expect(most).toBe(2);
  });
});
