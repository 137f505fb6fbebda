import { PassThrough, Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PartialOffsetError, StorageLimitError, type Storage } from './storage.ts';

/**
 * What every media storage does, as the `Storage` interface promises it: one suite, run for the local
 * directory (local-storage.test.ts) and for S3 on moto_server (s3-storage.test.ts), so both drivers are
 * held to the same behaviour.
 */
export interface StorageUnderTest {
  storage: Storage;
  dispose?: () => Promise<void> | void;
}

export interface ContractOptions {
  /** how many bytes a write must have received before it leaves a temporary file (S3: one part) */
  bytesBeforeTemporary: number;
  /**
   * an opened file whose file is replaced before it is read: reads the version it opened (a local
   * file descriptor), or fails (S3 without versioning: the old version is gone); never the new bytes
   */
  replacedWhileOpen: 'reads-opened-version' | 'fails';
}

export const ASSET = 'asset_0001';
export const from = (s: string | Buffer) => Readable.from([Buffer.from(s)]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeStorageContract(name: string, make: () => Promise<StorageUnderTest> | StorageUnderTest, options: ContractOptions): void {
  describe(`${name}: the storage contract`, () => {
    let current: StorageUnderTest;
    let storage: Storage;
    beforeEach(async () => {
      current = await make();
      storage = current.storage;
    });
    afterEach(async () => {
      await current.dispose?.();
    });

    it('writes a stream and reads it back, whole or by inclusive range', async () => {
      const info = await storage.write(ASSET, 'video.mp4', from('0123456789'));
      expect(info.size).toBe(10);
      expect(await storage.stat(ASSET, 'video.mp4')).toEqual({ size: 10, modified: info.modified });

      const whole = (await storage.open(ASSET, 'video.mp4'))!;
      expect([whole.size, whole.modified]).toEqual([10, info.modified]);
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

    it('stores an empty file, and a stream of strings as their UTF-8 bytes', async () => {
      expect((await storage.write(ASSET, 'thumbnail.jpg', Readable.from([]))).size).toBe(0);
      expect(await text((await storage.open(ASSET, 'thumbnail.jpg'))!.createReadStream())).toBe('');
      expect((await storage.write(ASSET, 'video.mp4', Readable.from(['añade', ' texto']))).size).toBe('añade texto'.length + 1);
      expect(await storage.appendPartial(ASSET, 'preview.mp4', Readable.from(['ñ', 'u']), { offset: 0 })).toBe(3);
      expect(await text((await storage.open(ASSET, 'video.mp4'))!.createReadStream())).toBe('añade texto');
    });

    it('makes a file visible only when its stream has ended', async () => {
      const source = new PassThrough();
      const writing = storage.write(ASSET, 'video.mp4', source);
      source.write(Buffer.alloc(options.bytesBeforeTemporary, 1));
      for (const deadline = Date.now() + 5000; (await storage.listTemporary()).length === 0 && Date.now() < deadline; ) await sleep(50);
      expect(await storage.stat(ASSET, 'video.mp4')).toBeUndefined();
      expect((await storage.listTemporary()).length).toBe(1);
      source.end(Buffer.alloc(1000, 2));
      expect((await writing).size).toBe(options.bytesBeforeTemporary + 1000);
      expect((await storage.stat(ASSET, 'video.mp4'))?.size).toBe(options.bytesBeforeTemporary + 1000);
      const opened = (await storage.open(ASSET, 'video.mp4'))!;
      const edge = options.bytesBeforeTemporary;
      expect([...(await buffer(opened.createReadStream({ start: edge - 2, end: edge + 1 })))]).toEqual([1, 1, 2, 2]);
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

    it('an opened file never mixes in a version written after it was opened', async () => {
      await storage.write(ASSET, 'thumbnail.jpg', from('first version'));
      const opened = (await storage.open(ASSET, 'thumbnail.jpg'))!;
      await storage.write(ASSET, 'thumbnail.jpg', from('second'));
      expect(opened.size).toBe('first version'.length);
      if (options.replacedWhileOpen === 'reads-opened-version') expect(await text(opened.createReadStream())).toBe('first version');
      else await expect(text(opened.createReadStream())).rejects.toThrow(/replaced/);
      const again = (await storage.open(ASSET, 'thumbnail.jpg'))!;
      expect(await text(again.createReadStream())).toBe('second');
    });

    it('an opened file that is not read is closed with close(); a second read is refused', async () => {
      await storage.write(ASSET, 'video.mp4', from('abc'));
      const opened = (await storage.open(ASSET, 'video.mp4'))!;
      await opened.close();
      await opened.close();
      expect(() => opened.createReadStream()).toThrow();
      const read = (await storage.open(ASSET, 'video.mp4'))!;
      expect(await text(read.createReadStream())).toBe('abc');
      expect(() => read.createReadStream()).toThrow();
    });

    it('deletes every file of an asset, and lists the assets that have files', async () => {
      await storage.write(ASSET, 'video.mp4', from('v'));
      await storage.write(ASSET, 'thumbnail.jpg', from('t'));
      await storage.write('asset_0002', 'video.mp4', from('other'));
      await storage.appendPartial('asset_0003', 'video.mp4', from('partial'), { offset: 0 });
      expect(await storage.list(ASSET)).toEqual(['thumbnail.jpg', 'video.mp4']);
      const assets = await storage.listAssets();
      expect(assets.map((a) => a.assetId).sort()).toEqual([ASSET, 'asset_0002']);
      for (const asset of assets) expect(Math.abs(asset.modified.getTime() - Date.now())).toBeLessThan(60_000);
      await storage.deleteAsset(ASSET);
      expect(await storage.list(ASSET)).toEqual([]);
      expect(await storage.stat('asset_0002', 'video.mp4')).toBeDefined();
      await storage.deleteAsset(ASSET); // nothing left: no error
      expect((await storage.listAssets()).map((a) => a.assetId)).toEqual(['asset_0002']);
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

    it('a committed partial file replaces the previous version; an empty one is a file of 0 bytes', async () => {
      await storage.write(ASSET, 'video.mp4', from('previous version'));
      expect(await storage.appendPartial(ASSET, 'video.mp4', Readable.from([]), { offset: 0 })).toBe(0);
      expect(await storage.partialSize(ASSET, 'video.mp4')).toBe(0);
      expect(await text((await storage.open(ASSET, 'video.mp4'))!.createReadStream())).toBe('previous version');
      expect((await storage.commitPartial(ASSET, 'video.mp4')).size).toBe(0);
      expect((await storage.stat(ASSET, 'video.mp4'))?.size).toBe(0);
    });

    it('a source that fails before the storage reads it is refused, without an uncaught error; nothing is kept', async () => {
      const source = new PassThrough();
      source.destroy(new Error('client went away'));
      await expect(storage.appendPartial(ASSET, 'video.mp4', source, { offset: 0 })).rejects.toThrow('client went away');
      expect((await storage.partialSize(ASSET, 'video.mp4')) ?? 0).toBe(0);
    });

    it('a part that breaks off keeps the bytes that arrived; one over maxBytes adds nothing past the limit', async () => {
      const source = new PassThrough();
      const appending = storage.appendPartial(ASSET, 'video.mp4', source, { offset: 0 });
      source.write(Buffer.alloc(1000, 1));
      // Once the storage has read them (it first looks up what the partial file holds), the bytes have arrived.
      for (const deadline = Date.now() + 5000; source.readableLength > 0 && Date.now() < deadline; ) await sleep(10);
      source.destroy(new Error('client went away'));
      await expect(appending).rejects.toThrow('client went away');
      expect(await storage.partialSize(ASSET, 'video.mp4')).toBe(1000);
      await expect(storage.appendPartial(ASSET, 'video.mp4', from('0123456789'), { offset: 1000, maxBytes: 1005 })).rejects.toBeInstanceOf(StorageLimitError);
      expect(await storage.partialSize(ASSET, 'video.mp4')).toBe(1000);
      expect(await storage.appendPartial(ASSET, 'video.mp4', from('abc'), { offset: 1000 })).toBe(1003);
      await storage.commitPartial(ASSET, 'video.mp4');
      expect(await text((await storage.open(ASSET, 'video.mp4'))!.createReadStream({ start: 998, end: 1002 }))).toBe('\x01\x01abc');
      await storage.appendPartial(ASSET, 'thumbnail.jpg', from('dropped'), { offset: 0 });
      await storage.discardPartial(ASSET, 'thumbnail.jpg');
      await storage.discardPartial(ASSET, 'thumbnail.jpg'); // none left: no error
      expect(await storage.partialSize(ASSET, 'thumbnail.jpg')).toBeUndefined();
      expect(await storage.listTemporary()).toEqual([]);
    });

    it('cleans up partial files last changed before a date, not younger ones', async () => {
      await storage.appendPartial(ASSET, 'video.mp4', from('abandoned'), { offset: 0 });
      const listed = await storage.listTemporary();
      expect(listed.map((f) => f.size)).toEqual(['abandoned'.length]);
      expect(await storage.cleanupTemporary(new Date(Date.now() - 3600_000))).toBe(0);
      expect(await storage.partialSize(ASSET, 'video.mp4')).toBe('abandoned'.length);
      expect(await storage.cleanupTemporary(new Date(Date.now() + 2000))).toBe(1);
      expect(await storage.partialSize(ASSET, 'video.mp4')).toBeUndefined();
      expect(await storage.listTemporary()).toEqual([]);
    });

    it('removes one file of an asset', async () => {
      await storage.write(ASSET, 'video.mp4', from('v'));
      await storage.write(ASSET, 'thumbnail.jpg', from('t'));
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
        await expect(storage.remove(asset, file)).rejects.toThrow(/invalid/);
      }
      await expect(storage.deleteAsset('../media')).rejects.toThrow(/invalid/);
      await expect(storage.list('.tmp')).rejects.toThrow(/invalid/);
    });
  });
}
