import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStorage } from './local-storage.ts';
import { MEMORY_READ_MAX_BYTES } from './storage.ts';
import { ASSET, describeStorageContract, from } from './storage-contract.test-support.ts';

describeStorageContract(
  'local storage',
  () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-storage-'));
    return { storage: new LocalStorage(path.join(root, 'media')), dispose: () => fs.rmSync(root, { recursive: true, force: true }) };
  },
  { bytesBeforeTemporary: 64 * 1024, replacedWhileOpen: 'reads-opened-version' },
);

describe('local storage: the directory', () => {
  let root: string;
  let storage: LocalStorage;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-storage-'));
    storage = new LocalStorage(path.join(root, 'media'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('keeps a file at <root>/<asset>/<file>, and gives its local path (for ffmpeg)', async () => {
    await storage.write(ASSET, 'video.mp4', from('0123456789'));
    expect(fs.readFileSync(path.join(root, 'media', ASSET, 'video.mp4'), 'utf8')).toBe('0123456789');
    expect(storage.localPath(ASSET, 'video.mp4')).toBe(path.join(root, 'media', ASSET, 'video.mp4'));
  });

  it('lists and cleans up abandoned temporary files in <root>/.tmp older than a date', async () => {
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

  it('never writes outside its directory', async () => {
    await expect(storage.write('../../etc', 'passwd', from('x'))).rejects.toThrow(/invalid/);
    expect(fs.existsSync(path.join(root, 'passwd'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'etc'))).toBe(false);
  });
});

describe('local storage: a range read in one go (readBytes)', () => {
  let root: string;
  let storage: LocalStorage;
  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-storage-'));
    storage = new LocalStorage(path.join(root, 'media'));
    await storage.write(ASSET, 'video.mp4', from(bytes));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const openFds = () => fs.readdirSync('/proc/self/fd').length;

  it('answers the bytes of the range from the version opened, and closes the file', async () => {
    const before = openFds();
    const opened = (await storage.open(ASSET, 'video.mp4'))!;
    await storage.write(ASSET, 'video.mp4', from('replaced'));
    const read = await opened.readBytes!({ start: 1000, end: 2499 });
    expect(read.bytes.equals(bytes.subarray(1000, 2500))).toBe(true);
    read.release();
    expect(openFds()).toBe(before);
    await expect(opened.readBytes!({ start: 0, end: 9 })).rejects.toThrow(/already been read/);
    expect(() => opened.createReadStream()).toThrow(/already been read/);
  });

  it('refuses a range over MEMORY_READ_MAX_BYTES (such ranges are streamed), leaving the file open for a stream', async () => {
    const opened = (await storage.open(ASSET, 'video.mp4'))!;
    await expect(opened.readBytes!({ start: 0, end: MEMORY_READ_MAX_BYTES })).rejects.toThrow(RangeError);
    const streamed: Buffer[] = [];
    for await (const chunk of opened.createReadStream({ start: 0, end: 9 })) streamed.push(chunk as Buffer);
    expect(Buffer.concat(streamed).equals(bytes.subarray(0, 10))).toBe(true);
  });

  it('fails, and closes the file, when the file holds fewer bytes than the range asks for', async () => {
    const before = openFds();
    const opened = (await storage.open(ASSET, 'video.mp4'))!;
    fs.truncateSync(path.join(root, 'media', ASSET, 'video.mp4'), 100);
    await expect(opened.readBytes!({ start: 50, end: 199 })).rejects.toThrow(/ended at byte 100/);
    expect(openFds()).toBe(before);
  });
});
