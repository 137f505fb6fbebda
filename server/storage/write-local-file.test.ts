import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalStorage } from './local-storage.ts';
import { writeLocalFile } from './write-local-file.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-write-local-'));
  dirs.push(dir);
  return dir;
}
const ASSET = 'asset-0123456789';

describe('storing a local file', () => {
  it('stores its bytes and answers their size', async () => {
    const storage = new LocalStorage(tempDir());
    const source = path.join(tempDir(), 'preview.mp4');
    fs.writeFileSync(source, 'the preview');
    expect((await writeLocalFile(storage, ASSET, 'preview.mp4', source)).size).toBe(11);
    expect(fs.readFileSync(storage.localPath(ASSET, 'preview.mp4'), 'utf8')).toBe('the preview');
  });

  it('a file removed before it is stored fails the write (no uncaught error) and stores nothing', async () => {
    // A data directory removed too (as a stopped job finds it): the write recreates its folders before
    // reading, the moment a stream opened by path reports its error to nobody.
    const storage = new LocalStorage(path.join(tempDir(), 'data', 'media'));
    const work = tempDir();
    const source = path.join(work, 'preview.mp4');
    fs.writeFileSync(source, 'the preview');
    fs.rmSync(work, { recursive: true });
    await expect(writeLocalFile(storage, ASSET, 'preview.mp4', source)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await storage.stat(ASSET, 'preview.mp4')).toBeUndefined();
  });

  it('a refused write closes the file it opened', async () => {
    const storage = new LocalStorage(tempDir());
    const source = path.join(tempDir(), 'video.mp4');
    fs.writeFileSync(source, Buffer.alloc(4096));
    const openFiles = () => fs.readdirSync('/proc/self/fd').length;
    const before = openFiles();
    await expect(writeLocalFile(storage, ASSET, 'video.mp4', source, { maxBytes: 10 })).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openFiles()).toBe(before);
    expect(await storage.stat(ASSET, 'video.mp4')).toBeUndefined();
  });
});
