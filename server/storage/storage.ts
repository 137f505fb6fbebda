import type { Readable } from 'node:stream';

/**
 * Where media files are kept: one small interface, so the local directory of today and an object
 * store (S3) later are interchangeable. A file is addressed by its asset id (the contract's AssetId)
 * and a file name inside the asset (`video.mp4`, `thumbnail.jpg`, …). Nothing here ever holds a
 * whole file in memory: reads and writes are streams.
 */

/** The contract's AssetId pattern. */
export const ASSET_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** A file name inside an asset: lower-case letters, digits, `.`, `_`, `-`; no leading dot, no separators. */
export const FILE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export interface StoredFileInfo {
  size: number;
  /** last modification; an object store gives it to the second */
  modified: Date;
}

/** An inclusive byte range, as in `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A file opened for reading: its size and date as of opening, and streams of its bytes. */
export interface OpenedFile extends StoredFileInfo {
  /**
   * The bytes of the range (all of them without one), from the file as it was when opened: a
   * replacement written meanwhile is not mixed in. Call it at most once; the stream closes the file.
   */
  createReadStream(range?: ByteRange): Readable;
  /**
   * The bytes of a range of at most `MEMORY_READ_MAX_BYTES` in one read, instead of a stream (a
   * local file only): the file is closed once they are read. `release` hands the buffer back for
   * reuse: call it once they have been sent, never earlier (or not at all). Call it or
   * createReadStream at most once.
   */
  readBytes?(range: ByteRange): Promise<ReadBytes>;
  /** Releases the file when no stream is read (a 304, a 416). Safe to call more than once. */
  close(): Promise<void>;
}

/** The largest range readBytes reads: 1 MiB, a player's usual request. */
export const MEMORY_READ_MAX_BYTES = 1024 * 1024;

export interface ReadBytes {
  bytes: Buffer;
  /** The buffer may be reused: its bytes have been sent. */
  release(): void;
}

export interface WriteOptions {
  /** refuse (StorageLimitError) a stream longer than this many bytes; nothing is kept */
  maxBytes?: number;
}

export interface AppendOptions {
  /** the bytes the partial file must hold already (PartialOffsetError otherwise) */
  offset: number;
  /** refuse (StorageLimitError) to let the partial file grow past this many bytes; what came before stays */
  maxBytes?: number;
}

/** A temporary file of an unfinished write (crashed process, aborted upload). */
export interface TemporaryFile {
  name: string;
  size: number;
  modified: Date;
}

export interface Storage {
  /** Size and date of a file; undefined when it does not exist. */
  stat(assetId: string, file: string): Promise<StoredFileInfo | undefined>;
  /** Opens a file for reading; undefined when it does not exist. */
  open(assetId: string, file: string): Promise<OpenedFile | undefined>;
  /**
   * Stores the stream as the file: written to a temporary file first and made visible (replacing
   * any previous version) only once complete, so readers never see a partial file. On any error
   * the temporary file is removed and the previous version, if any, stays.
   */
  write(assetId: string, file: string, source: Readable, options?: WriteOptions): Promise<StoredFileInfo>;
  /** The files of an asset (names), empty when it has none. */
  list(assetId: string): Promise<string[]>;
  /** Deletes every file of an asset; nothing happens when it has none. */
  deleteAsset(assetId: string): Promise<void>;
  /** The file's path on this machine, for programs that read files (ffmpeg); absent for a remote store. */
  localPath?(assetId: string, file: string): string;
  /** Deletes one file of an asset; nothing happens when it does not exist. */
  remove(assetId: string, file: string): Promise<void>;
  /**
   * Resumable writes. A partial file is invisible (a temporary file, listed and cleaned up with the
   * others once abandoned) until committed. Its size, or undefined when there is none.
   */
  partialSize(assetId: string, file: string): Promise<number | undefined>;
  /**
   * Appends the stream to the partial file of `file` (made when there is none and offset is 0) and
   * answers its size afterwards. When the stream fails (a client that went away), the bytes that
   * arrived stay, the error is thrown, and the next append continues from the partial file's size.
   */
  appendPartial(assetId: string, file: string, source: Readable, options: AppendOptions): Promise<number>;
  /** Makes the partial file the file (flushed to disk, replacing any previous version). */
  commitPartial(assetId: string, file: string): Promise<StoredFileInfo>;
  /** Drops the partial file, if any. */
  discardPartial(assetId: string, file: string): Promise<void>;
  /** Every asset that has files, with the last change of its directory. */
  listAssets(): Promise<Array<{ assetId: string; modified: Date }>>;
  /** Temporary files of unfinished writes (partial files included). */
  listTemporary(): Promise<TemporaryFile[]>;
  /** Removes temporary files last modified before `olderThan` (writes in progress are younger); answers how many. */
  cleanupTemporary(olderThan: Date): Promise<number>;
}

/** A write longer than its `maxBytes`. */
export class StorageLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = 'StorageLimitError';
  }
}

/** An append whose offset is not the partial file's size (`size`: what it holds). */
export class PartialOffsetError extends Error {
  constructor(readonly size: number) {
    super(`the partial file holds ${size} bytes`);
    this.name = 'PartialOffsetError';
  }
}

/** Throws unless the asset id and file name are of the allowed shapes (no path can be smuggled in). */
export function checkFileAddress(assetId: string, file?: string): void {
  if (!ASSET_ID.test(assetId)) throw new Error(`invalid asset id ${JSON.stringify(assetId)}`);
  if (file !== undefined && !FILE_NAME.test(file)) throw new Error(`invalid file name ${JSON.stringify(file)}`);
}

/**
 * Runs `write`, during which a source that fails before the storage starts reading it (the client
 * goes away while the storage still looks up where its bytes go) keeps its failure for the read to
 * meet, instead of throwing it as an 'error' event nobody listens to yet (an uncaught exception).
 */
export async function holdingEarlyFailure<T>(source: Readable, write: () => Promise<T>): Promise<T> {
  const hold = () => undefined;
  source.on('error', hold);
  try {
    return await write();
  } finally {
    source.off('error', hold);
  }
}
