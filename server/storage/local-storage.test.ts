import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStorage } from './local-storage.ts';
import { PartialOffsetError, StorageLimitError } from './storage.ts';

const ASSET = 'asset_0001';
let root: string;
let storage: LocalStorage;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-storage-'));
  storage = new LocalStorage(path.join(root, 'media'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const from = (s: string) => Readable.from([Buffer.from(s)]);

describe('local storage', () => {
  it('writes a stream to <root>/<asset>/<file> and reads it back, whole or by inclusive range', async () => {
    const info = await storage.write(ASSET, 'video.mp4', from('0123456789'));
    expect(info.size).toBe(10);
    expect(fs.readFileSync(path.join(root, 'media', ASSET, 'video.mp4'), 'utf8')).toBe('0123456789');
    expect(await storage.stat(ASSET, 'video.mp4')).toEqual({ size: 10, modified: info.modified });

    const whole = (await storage.open(ASSET, 'video.mp4'))!;
    expect(whole.size).toBe(10);
    expect(await text(whole.createReadStream())).toBe('0123456789');
    const part = (await storage.open(ASSET, 'video.mp4'))!;
    expect(await text(part.createReadStream({ start: 2, end: 4 }))).toBe('234');
    const last = (await storage.open(ASSET, 'video.mp4'))!;
    expect(await text(last.createReadStream({ start: 9, end: 9 }))).toBe('9');
    expect(await storage.list(ASSET)).toEqual(['video.mp4']);
  });

  it('answers undefined for files and assets that do not exist', async () => {
    expect(await storage.stat(ASSET, 'video.mp4')).toBeUndefined();
    expect(await storage.open(ASSET, 'video.mp4')).toBeUndefined();
    expect(await storage.list(ASSET)).toEqual([]);
    await storage.write(ASSET, 'video.mp4', from('x'));
    expect(await storage.stat(ASSET, 'thumbnail.jpg')).toBeUndefined();
    expect(await storage.open(ASSET, 'thumbnail.jpg')).toBeUndefined();
  });

  it('makes a file visible only when its stream has ended', async () => {
    const source = new PassThrough();
    const writing = storage.write(ASSET, 'video.mp4', source);
    source.write(Buffer.alloc(64 * 1024, 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await storage.stat(ASSET, 'video.mp4')).toBeUndefined();
    expect((await storage.listTemporary()).length).toBe(1);
    source.end(Buffer.alloc(1000, 2));
    expect((await writing).size).toBe(64 * 1024 + 1000);
    expect((await storage.stat(ASSET, 'video.mp4'))?.size).toBe(64 * 1024 + 1000);
    expect(await storage.listTemporary()).toEqual([]);
  });

  it('keeps the previous version when a replacement fails, and removes its temporary file', async () => {
    await storage.write(ASSET, 'thumbnail.jpg', from('old'));
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial new'));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.write(ASSET, 'thumbnail.jpg', failing)).rejects.toThrow('client went away');
    const opened = (await storage.open(ASSET, 'thumbnail.jpg'))!;
    expect(await text(opened.createReadStream())).toBe('old');
    expect(await storage.listTemporary()).toEqual([]);
  });

  it('refuses a stream longer than maxBytes and keeps nothing', async () => {
    await expect(storage.write(ASSET, 'video.mp4', from('0123456789'), { maxBytes: 9 })).rejects.toBeInstanceOf(StorageLimitError);
    expect(await storage.stat(ASSET, 'video.mp4')).toBeUndefined();
    expect(await storage.listTemporary()).toEqual([]);
    expect((await storage.write(ASSET, 'video.mp4', from('0123456789'), { maxBytes: 10 })).size).toBe(10);
  });

  it('an opened file reads the version it opened, even if replaced meanwhile', async () => {
    await storage.write(ASSET, 'thumbnail.jpg', from('first version'));
    const opened = (await storage.open(ASSET, 'thumbnail.jpg'))!;
    await storage.write(ASSET, 'thumbnail.jpg', from('second'));
    expect(opened.size).toBe('first version'.length);
    expect(await text(opened.createReadStream())).toBe('first version');
    const again = (await storage.open(ASSET, 'thumbnail.jpg'))!;
    expect(await text(again.createReadStream())).toBe('second');
  });

  it('an opened file that is not read is closed with close(); a second read is refused', async () => {
    await storage.write(ASSET, 'video.mp4', from('abc'));
    const opened = (await storage.open(ASSET, 'video.mp4'))!;
    await opened.close();
    await opened.close();
    expect(() => opened.createReadStream()).toThrow();
  });

  it('deletes every file of an asset', async () => {
    await storage.write(ASSET, 'video.mp4', from('v'));
    await storage.write(ASSET, 'thumbnail.jpg', from('t'));
    await storage.write('asset_0002', 'video.mp4', from('other'));
    expect(await storage.list(ASSET)).toEqual(['thumbnail.jpg', 'video.mp4']);
    await storage.deleteAsset(ASSET);
    expect(await storage.list(ASSET)).toEqual([]);
    expect(await storage.stat('asset_0002', 'video.mp4')).toBeDefined();
    await storage.deleteAsset(ASSET); // nothing left: no error
  });

  it('lists and cleans up abandoned temporary files older than a date', async () => {
    const tmp = path.join(root, 'media', '.tmp');
    fs.mkdirSync(tmp, { recursive: true });
    fs.writeFileSync(path.join(tmp, 'old.tmp'), 'abandoned');
    const past = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(path.join(tmp, 'old.tmp'), past, past);
    fs.writeFileSync(path.join(tmp, 'young.tmp'), 'in progress');
    const listed = await storage.listTemporary();
    expect(listed.map((f) => f.name).sort()).toEqual(['old.tmp', 'young.tmp']);
    expect(listed.find((f) => f.name === 'old.tmp')?.size).toBe('abandoned'.length);
    expect(await storage.cleanupTemporary(new Date(Date.now() - 3600_000))).toBe(1);
    expect((await storage.listTemporary()).map((f) => f.name)).toEqual(['young.tmp']);
  });

  it('resumable writes: parts append to an invisible partial file, which becomes the file when committed', async () => {
    expect(await storage.partialSize(ASSET, 'video.mp4')).toBeUndefined();
    expect(await storage.appendPartial(ASSET, 'video.mp4', from('01234'), { offset: 0 })).toBe(5);
    expect(await storage.stat(ASSET, 'video.mp4')).toBeUndefined();
    expect(await storage.list(ASSET)).toEqual([]);
    expect((await storage.listTemporary()).map((f) => f.size)).toEqual([5]);
    await expect(storage.appendPartial(ASSET, 'video.mp4', from('xx'), { offset: 3 })).rejects.toEqual(new PartialOffsetError(5));
    expect(await storage.appendPartial(ASSET, 'video.mp4', from('56789'), { offset: 5 })).toBe(10);
    expect((await storage.commitPartial(ASSET, 'video.mp4')).size).toBe(10);
    const opened = (await storage.open(ASSET, 'video.mp4'))!;
    expect(await text(opened.createReadStream())).toBe('0123456789');
    expect(await storage.partialSize(ASSET, 'video.mp4')).toBeUndefined();
    expect(await storage.listTemporary()).toEqual([]);
  });

  it('a part that breaks off keeps the bytes that arrived; one over maxBytes adds nothing past the limit', async () => {
    const source = new PassThrough();
    const appending = storage.appendPartial(ASSET, 'video.mp4', source, { offset: 0 });
    source.write(Buffer.alloc(1000, 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    source.destroy(new Error('client went away'));
    await expect(appending).rejects.toThrow('client went away');
    expect(await storage.partialSize(ASSET, 'video.mp4')).toBe(1000);
    await expect(storage.appendPartial(ASSET, 'video.mp4', from('0123456789'), { offset: 1000, maxBytes: 1005 })).rejects.toBeInstanceOf(StorageLimitError);
    expect(await storage.partialSize(ASSET, 'video.mp4')).toBe(1000);
    await storage.discardPartial(ASSET, 'video.mp4');
    expect(await storage.partialSize(ASSET, 'video.mp4')).toBeUndefined();
    expect(await storage.listTemporary()).toEqual([]);
  });

  it('removes one file of an asset, and gives the local path of a file', async () => {
    await storage.write(ASSET, 'video.mp4', from('v'));
    await storage.write(ASSET, 'thumbnail.jpg', from('t'));
    expect(storage.localPath(ASSET, 'video.mp4')).toBe(path.join(root, 'media', ASSET, 'video.mp4'));
    await storage.remove(ASSET, 'thumbnail.jpg');
    await storage.remove(ASSET, 'thumbnail.jpg');
    expect(await storage.list(ASSET)).toEqual(['video.mp4']);
  });

  it('refuses addresses outside the contract shapes: no path traversal', async () => {
    for (const [asset, file] of [
      ['../../etc', 'passwd'],
      ['..', 'video.mp4'],
      [ASSET, '../asset_0002/video.mp4'],
      [ASSET, '.hidden'],
      [ASSET, 'a/b'],
      ['.tmp', 'x.tmp'],
      ['short', 'video.mp4'],
      [ASSET, ''],
    ] as const) {
      await expect(storage.stat(asset, file), `${asset}/${file}`).rejects.toThrow(/invalid/);
      await expect(storage.open(asset, file)).rejects.toThrow(/invalid/);
      await expect(storage.write(asset, file, from('x'))).rejects.toThrow(/invalid/);
      await expect(storage.appendPartial(asset, file, from('x'), { offset: 0 })).rejects.toThrow(/invalid/);
    }
    await expect(storage.deleteAsset('../media')).rejects.toThrow(/invalid/);
    expect(fs.existsSync(path.join(root, 'passwd'))).toBe(false);
  });
});
