import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ASSET_ID,
  checkFileAddress,
  holdingEarlyFailure,
  PartialOffsetError,
  StorageLimitError,
  MEMORY_READ_MAX_BYTES,
  type AppendOptions,
  type ByteRange,
  type OpenedFile,
  type ReadBytes,
  type Storage,
  type StoredFileInfo,
  type TemporaryFile,
  type WriteOptions,
} from './storage.ts';

/**
 * Temporary files live in `<root>/.tmp` (no asset id starts with a dot), on the same file system as their
 * target: `<asset>.<file>.<random>.tmp` while a write streams, `<asset>.<file>.partial` for a resumable one.
 */
const TEMP_DIR = '.tmp';
/** The largest read of a file being streamed: as large as readBytes's ranges (media are read in ranges of about that size). */
const READ_BUFFER_BYTES = MEMORY_READ_MAX_BYTES;

/** Spare read buffers a storage keeps at most (16 MiB; see LocalStorage.spareBuffers). */
const SPARE_BUFFERS = 16;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Media files in a local directory: `<root>/<assetId>/<file>`. Writes go to `<root>/.tmp/` and are
 * renamed into place when complete (rename is atomic on one file system), after the data is flushed.
 */
export class LocalStorage implements Storage {
  readonly root: string;
  private readonly tempDir: string;
  /**
   * Buffers of MEMORY_READ_MAX_BYTES for readBytes, handed back once their bytes were sent: a player's
   * 1 MiB ranges then allocate nothing and leave the garbage collector nothing to free. At most
   * SPARE_BUFFERS wait unused; more at once are allocated and left to the collector.
   */
  private readonly spareBuffers: Buffer[] = [];

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tempDir = path.join(this.root, TEMP_DIR);
  }

  /** The path of an asset's directory or file; the address is checked, and must stay under the root. */
  private pathOf(assetId: string, file?: string): string {
    checkFileAddress(assetId, file);
    const resolved = path.resolve(this.root, assetId, ...(file === undefined ? [] : [file]));
    if (!resolved.startsWith(this.root + path.sep)) throw new Error('path outside the media directory');
    return resolved;
  }

  async stat(assetId: string, file: string): Promise<StoredFileInfo | undefined> {
    try {
      const stats = await fs.promises.stat(this.pathOf(assetId, file));
      return stats.isFile() ? { size: stats.size, modified: stats.mtime } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async open(assetId: string, file: string): Promise<OpenedFile | undefined> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.pathOf(assetId, file), 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    let stats: fs.Stats;
    try {
      stats = await handle.stat();
    } catch (error) {
      await handle.close();
      throw error;
    }
    if (!stats.isFile()) {
      await handle.close();
      return undefined;
    }
    let state: 'open' | 'streaming' | 'closed' = 'open';
    const size = stats.size;
    const spare = this.spareBuffers;
    const giveBack = (buffer: Buffer) => {
      if (spare.length < SPARE_BUFFERS) spare.push(buffer);
    };
    return {
      size,
      modified: stats.mtime,
      createReadStream(range?: ByteRange): Readable {
        if (state !== 'open') throw new Error('the file has already been read or closed');
        state = 'streaming';
        // The stream reads the descriptor opened above and closes it when it ends or is destroyed.
        // Reads of up to 1 MiB (never more than the range asks for) instead of Node's 64 KiB: media
        // are sent a megabyte at a time for a third less CPU per GB (docs/decisions/0059-benchmarks-and-results.md).
        const length = range ? range.end - range.start + 1 : size;
        const highWaterMark = Math.max(64 * 1024, Math.min(READ_BUFFER_BYTES, length));
        return handle.createReadStream({ autoClose: true, highWaterMark, ...(range ? { start: range.start, end: range.end } : {}) });
      },
      async readBytes(range: ByteRange): Promise<ReadBytes> {
        if (state !== 'open') throw new Error('the file has already been read or closed');
        const length = range.end - range.start + 1;
        if (length > MEMORY_READ_MAX_BYTES || length < 0) throw new RangeError(`readBytes reads at most ${MEMORY_READ_MAX_BYTES} bytes`);
        state = 'streaming';
        const buffer = spare.pop() ?? Buffer.allocUnsafeSlow(MEMORY_READ_MAX_BYTES);
        try {
          let read = 0;
          while (read < length) {
            const { bytesRead } = await handle.read(buffer, read, length - read, range.start + read);
            if (bytesRead === 0) throw new Error(`the file ended at byte ${range.start + read}, before the range's end (${range.end})`);
            read += bytesRead;
          }
        } catch (error) {
          giveBack(buffer);
          throw error;
        } finally {
          state = 'closed';
          await handle.close();
        }
        let released = false;
        return {
          bytes: buffer.subarray(0, length),
          release() {
            if (released) return;
            released = true;
            giveBack(buffer);
          },
        };
      },
      async close(): Promise<void> {
        if (state !== 'open') return;
        state = 'closed';
        await handle.close();
      },
    };
  }

  async write(assetId: string, file: string, source: Readable, options: WriteOptions = {}): Promise<StoredFileInfo> {
    const target = this.pathOf(assetId, file);
    await fs.promises.mkdir(this.tempDir, { recursive: true });
    const temporary = path.join(this.tempDir, `${assetId}.${file}.${crypto.randomBytes(8).toString('hex')}.tmp`);
    let written = 0;
    const { maxBytes } = options;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        if (maxBytes !== undefined && written > maxBytes) callback(new StorageLimitError(maxBytes));
        else callback(null, chunk);
      },
    });
    try {
      // flush: the data reaches the disk before the rename makes the file visible.
      await pipeline(source, counter, fs.createWriteStream(temporary, { flags: 'wx', mode: 0o640, flush: true }));
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.rename(temporary, target);
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
    const stats = await fs.promises.stat(target);
    return { size: stats.size, modified: stats.mtime };
  }

  localPath(assetId: string, file: string): string {
    return this.pathOf(assetId, file);
  }

  async remove(assetId: string, file: string): Promise<void> {
    await fs.promises.rm(this.pathOf(assetId, file), { force: true });
  }

  /** The partial file of a resumable write: one per asset file, so the next request finds it. */
  private partialPathOf(assetId: string, file: string): string {
    checkFileAddress(assetId, file);
    return path.join(this.tempDir, `${assetId}.${file}.partial`);
  }

  async partialSize(assetId: string, file: string): Promise<number | undefined> {
    try {
      return (await fs.promises.stat(this.partialPathOf(assetId, file))).size;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async appendPartial(assetId: string, file: string, source: Readable, options: AppendOptions): Promise<number> {
    return holdingEarlyFailure(source, () => this.appendRead(assetId, file, source, options));
  }

  private async appendRead(assetId: string, file: string, source: Readable, options: AppendOptions): Promise<number> {
    const partial = this.partialPathOf(assetId, file);
    const held = (await this.partialSize(assetId, file)) ?? 0;
    if (held !== options.offset) throw new PartialOffsetError(held);
    await fs.promises.mkdir(this.tempDir, { recursive: true });
    let size = held;
    const { maxBytes } = options;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (maxBytes !== undefined && size + chunk.length > maxBytes) return callback(new StorageLimitError(maxBytes));
        size += chunk.length;
        callback(null, chunk);
      },
    });
    // Opened before the first byte is read: bytes handed to a stream still opening its file are dropped
    // if the client goes away meanwhile; handed to an open file, they are written.
    const handle = await fs.promises.open(partial, 'a', 0o640);
    const out = fs.createWriteStream(partial, { fd: handle, highWaterMark: 1024 * 1024 });
    try {
      await pipeline(source, counter, out);
    } finally {
      // On a failure the bytes already handed to the file stay; wait until they are written and the file closed.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    }
    return (await fs.promises.stat(partial)).size;
  }

  async commitPartial(assetId: string, file: string): Promise<StoredFileInfo> {
    const partial = this.partialPathOf(assetId, file);
    const target = this.pathOf(assetId, file);
    const handle = await fs.promises.open(partial, 'r+');
    try {
      await handle.sync(); // on disk before the rename makes it visible
    } finally {
      await handle.close();
    }
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rename(partial, target);
    const stats = await fs.promises.stat(target);
    return { size: stats.size, modified: stats.mtime };
  }

  async discardPartial(assetId: string, file: string): Promise<void> {
    await fs.promises.rm(this.partialPathOf(assetId, file), { force: true });
  }

  async list(assetId: string): Promise<string[]> {
    try {
      const entries = await fs.promises.readdir(this.pathOf(assetId), { withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  async deleteAsset(assetId: string): Promise<void> {
    await fs.promises.rm(this.pathOf(assetId), { recursive: true, force: true });
  }

  async listAssets(): Promise<Array<{ assetId: string; modified: Date }>> {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(this.root, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const assets: Array<{ assetId: string; modified: Date }> = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !ASSET_ID.test(entry.name)) continue; // .tmp and anything not ours
      try {
        assets.push({ assetId: entry.name, modified: (await fs.promises.stat(path.join(this.root, entry.name))).mtime });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    return assets;
  }

  async listTemporary(): Promise<TemporaryFile[]> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.tempDir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const files: TemporaryFile[] = [];
    for (const name of names) {
      try {
        const stats = await fs.promises.stat(path.join(this.tempDir, name));
        if (stats.isFile()) files.push({ name, size: stats.size, modified: stats.mtime });
      } catch (error) {
        if (!isMissing(error)) throw error; // finished (renamed) meanwhile
      }
    }
    return files;
  }

  async cleanupTemporary(olderThan: Date): Promise<number> {
    let removed = 0;
    for (const file of await this.listTemporary()) {
      if (file.modified.getTime() >= olderThan.getTime()) continue;
      await fs.promises.rm(path.join(this.tempDir, file.name), { force: true });
      removed += 1;
    }
    return removed;
  }
}
