import crypto from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type _Object,
  type MultipartUpload,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  ASSET_ID,
  checkFileAddress,
  FILE_NAME,
  holdingEarlyFailure,
  PartialOffsetError,
  StorageLimitError,
  type AppendOptions,
  type ByteRange,
  type OpenedFile,
  type Storage,
  type StoredFileInfo,
  type TemporaryFile,
  type WriteOptions,
} from './storage.ts';

/** S3 refuses parts below 5 MiB (all but the last of a multipart upload). */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
/** A multipart upload has at most this many parts. */
export const MAX_PARTS = 10_000;

export interface S3StorageOptions {
  bucket: string;
  /** `us-east-1` for AWS' default, `auto` for Cloudflare R2 */
  region: string;
  /** the service's URL (MinIO, Ceph RGW, R2…); AWS S3 without it */
  endpoint?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO, Ceph RGW) */
  forcePathStyle?: boolean;
  /** without them, the SDK's usual chain (environment, shared files, instance or task role) */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** keys start with it (`media/` → `media/<assetId>/<file>`); empty by default */
  prefix?: string;
  /** bytes per part of a multipart upload (at least 5 MiB; default 8 MiB) */
  partSize?: number;
}

/** The state of a resumable write, kept in the bucket so any server instance can continue it. */
interface Manifest {
  /** the multipart upload of the final key, once the first part was sent */
  uploadId?: string;
  /** the parts sent, each of `partSize` bytes */
  parts: Array<{ PartNumber: number; ETag: string; size: number }>;
  /** the bytes after the parts (fewer than a part), in an object of their own */
  tail?: { key: string; size: number };
}

const manifestSize = (m: Manifest): number => m.parts.reduce((sum, p) => sum + p.size, 0) + (m.tail?.size ?? 0);

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}
function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name;
  return statusOf(error) === 404 || name === 'NotFound' || name === 'NoSuchKey' || name === 'NoSuchUpload';
}

/** The file changed between open() and the read: its new bytes are not mixed in. */
export class FileReplacedError extends Error {
  constructor(key: string) {
    super(`${key} was replaced after it was opened`);
    this.name = 'FileReplacedError';
  }
}

/**
 * Media files in an S3 bucket (AWS S3, MinIO, Ceph RGW, Cloudflare R2), with the standard S3 API only:
 * `<prefix><assetId>/<file>`. A write is one PutObject (a stream shorter than a part) or a multipart
 * upload of the final key, completed only at the end, so readers never see a partial file. A resumable
 * write keeps its whole state in the bucket, under `<prefix>.tmp/<assetId>/<file>/` (no asset id starts
 * with a dot): `partial.json` (the manifest: upload id, parts) and `tail-<random>` (the bytes after the
 * last part, fewer than a part, merged into the next one), so another server instance continues it.
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;
  readonly partSize: number;

  constructor(options: S3StorageOptions, client?: S3Client) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
    this.partSize = options.partSize ?? 8 * 1024 * 1024;
    if (this.partSize < MIN_PART_SIZE) throw new Error(`the part size must be at least ${MIN_PART_SIZE} bytes`);
    this.client =
      client ??
      new S3Client({
        region: options.region,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        forcePathStyle: options.forcePathStyle ?? false,
        ...(options.credentials ? { credentials: options.credentials } : {}),
        // Checksums only where S3 requires them: the newer defaults (CRC32, aws-chunked bodies) are not
        // understood by every S3-compatible service.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
  }

  /** Throws a message an operator can act on when the bucket cannot be used (missing, refused, unreachable). */
  async checkBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = statusOf(error);
      const reason =
        status === 404
          ? 'it does not exist (create it first)'
          : status === 403
            ? 'access denied (check S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY and the bucket policy)'
            : status === 301
              ? 'it is in another region (check S3_REGION)'
              : `${(error as Error).name}: ${(error as Error).message}`;
      const endpoint = await this.client.config.endpoint?.().then((e) => `${e.protocol}//${e.hostname}${e.port ? `:${e.port}` : ''}`).catch(() => undefined);
      throw new Error(`media storage: the S3 bucket "${this.bucket}"${endpoint ? ` at ${endpoint}` : ''} cannot be used: ${reason}`, { cause: error });
    }
  }

  private keyOf(assetId: string, file: string): string {
    checkFileAddress(assetId, file);
    return `${this.prefix}${assetId}/${file}`;
  }
  private get tempPrefix(): string {
    return `${this.prefix}.tmp/`;
  }
  private partialDir(assetId: string, file: string): string {
    checkFileAddress(assetId, file);
    return `${this.tempPrefix}${assetId}/${file}/`;
  }

  async stat(assetId: string, file: string): Promise<StoredFileInfo | undefined> {
    const head = await this.head(this.keyOf(assetId, file));
    return head && { size: head.size, modified: head.modified };
  }

  private async head(key: string): Promise<(StoredFileInfo & { etag: string | undefined }) | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0), etag: head.ETag };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async open(assetId: string, file: string): Promise<OpenedFile | undefined> {
    const key = this.keyOf(assetId, file);
    const head = await this.head(key);
    if (!head) return undefined;
    const { client, bucket } = this;
    let state: 'open' | 'streaming' | 'closed' = 'open';
    return {
      size: head.size,
      modified: head.modified,
      createReadStream(range?: ByteRange): Readable {
        if (state !== 'open') throw new Error('the file has already been read or closed');
        state = 'streaming';
        const out = new PassThrough();
        const abort = new AbortController();
        out.once('close', () => {
          if (!out.writableFinished) abort.abort(); // the reader went away: the request ends too
        });
        void (async () => {
          // If-Match pins the version seen at open; the answer's ETag is checked too, for services that ignore it.
          const answer = await client.send(
            new GetObjectCommand({ Bucket: bucket, Key: key, IfMatch: head.etag, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
            { abortSignal: abort.signal },
          );
          const body = answer.Body as Readable | undefined;
          if (head.etag !== undefined && answer.ETag !== head.etag) {
            body?.destroy();
            throw new FileReplacedError(key);
          }
          const expected = range ? `bytes ${range.start}-${range.end}/${head.size}` : undefined;
          if (expected !== undefined && answer.ContentRange !== expected) {
            body?.destroy();
            throw new Error(`the object store answered the range ${answer.ContentRange ?? 'none'} of ${key}, not ${expected}`);
          }
          if (body) await pipeline(body, out);
          else out.end();
        })().catch((error: unknown) => {
          const replaced = statusOf(error) === 412 || (error as { name?: string }).name === 'PreconditionFailed';
          out.destroy(replaced ? new FileReplacedError(key) : (error as Error));
        });
        return out;
      },
      close(): Promise<void> {
        if (state === 'open') state = 'closed';
        return Promise.resolve();
      },
    };
  }

  /**
   * A presigned GET of a file, valid `expiresInSeconds` (S3 allows at most 7 days), for a program
   * that fetches it from the bucket directly. The product does not hand these out: its media
   * locations stay its own (signed, streamed through the server, see docs/decisions/0035-s3-storage.md).
   */
  presignedGetUrl(assetId: string, file: string, expiresInSeconds = 900): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(assetId, file) }), { expiresIn: expiresInSeconds });
  }

  async write(assetId: string, file: string, source: Readable, options: WriteOptions = {}): Promise<StoredFileInfo> {
    const key = this.keyOf(assetId, file);
    const { maxBytes } = options;
    let uploadId: string | undefined;
    const parts: Array<{ PartNumber: number; ETag: string }> = [];
    const pending = new Pending();
    let total = 0;
    const sendPart = async (body: Buffer) => {
      uploadId ??= await this.createUpload(key);
      parts.push(await this.uploadPart(key, uploadId, parts.length + 1, body));
    };
    try {
      for await (const data of source as AsyncIterable<Buffer | string>) {
        const chunk = typeof data === 'string' ? Buffer.from(data) : data;
        total += chunk.length;
        if (maxBytes !== undefined && total > maxBytes) throw new StorageLimitError(maxBytes);
        pending.push(chunk);
        while (pending.size >= this.partSize) await sendPart(pending.take(this.partSize));
      }
      if (uploadId === undefined) {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: pending.take(pending.size) }));
      } else {
        if (pending.size > 0) await sendPart(pending.take(pending.size));
        await this.complete(key, uploadId, parts);
      }
    } catch (error) {
      source.destroy();
      if (uploadId !== undefined) await this.abortUpload(key, uploadId).catch(() => undefined); // else left for cleanupTemporary
      throw error;
    }
    const info = await this.stat(assetId, file);
    if (!info) throw new Error(`${key} is not in the bucket after it was written`);
    return info;
  }

  private async createUpload(key: string): Promise<string> {
    const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
    if (!created.UploadId) throw new Error('the object store answered no upload id');
    return created.UploadId;
  }

  private async uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<{ PartNumber: number; ETag: string }> {
    if (partNumber > MAX_PARTS) throw new Error(`a file of more than ${MAX_PARTS} parts of ${this.partSize} bytes`);
    const sent = await this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body }));
    if (!sent.ETag) throw new Error('the object store answered no ETag for a part');
    return { PartNumber: partNumber, ETag: sent.ETag };
  }

  private async complete(key: string, uploadId: string, parts: Array<{ PartNumber: number; ETag: string }>): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map(({ PartNumber, ETag }) => ({ PartNumber, ETag })) },
      }),
    );
  }

  private async abortUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  private async deleteKey(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  private async getBytes(key: string): Promise<Buffer> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return Buffer.from(await answer.Body!.transformToByteArray());
  }

  async remove(assetId: string, file: string): Promise<void> {
    await this.deleteKey(this.keyOf(assetId, file));
  }

  /** Every object under a prefix, page by page. */
  private async listObjects(prefix: string): Promise<_Object[]> {
    const objects: _Object[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
      objects.push(...(page.Contents ?? []));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return objects;
  }

  async list(assetId: string): Promise<string[]> {
    checkFileAddress(assetId);
    const dir = `${this.prefix}${assetId}/`;
    return (await this.listObjects(dir))
      .map((o) => (o.Key ?? '').slice(dir.length))
      .filter((name) => FILE_NAME.test(name))
      .sort();
  }

  async deleteAsset(assetId: string): Promise<void> {
    for (const file of await this.list(assetId)) await this.remove(assetId, file);
  }

  async listAssets(): Promise<Array<{ assetId: string; modified: Date }>> {
    const latest = new Map<string, Date>();
    for (const object of await this.listObjects(this.prefix)) {
      const [assetId, file] = (object.Key ?? '').slice(this.prefix.length).split('/');
      if (assetId === undefined || file === undefined || !ASSET_ID.test(assetId)) continue; // .tmp/ and anything not ours
      const modified = object.LastModified ?? new Date(0);
      const known = latest.get(assetId);
      if (!known || known < modified) latest.set(assetId, modified);
    }
    return [...latest].map(([assetId, modified]) => ({ assetId, modified }));
  }

  // ---- resumable writes -------------------------------------------------------------------------

  private async readManifest(assetId: string, file: string): Promise<Manifest | undefined> {
    let text: string;
    try {
      text = (await this.getBytes(`${this.partialDir(assetId, file)}partial.json`)).toString('utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const manifest = JSON.parse(text) as Manifest;
    if (!Array.isArray(manifest.parts)) throw new Error(`the manifest of the partial ${assetId}/${file} is damaged`);
    return manifest;
  }

  private async saveManifest(assetId: string, file: string, manifest: Manifest): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: `${this.partialDir(assetId, file)}partial.json`, Body: JSON.stringify(manifest), ContentType: 'application/json' }),
    );
  }

  async partialSize(assetId: string, file: string): Promise<number | undefined> {
    const manifest = await this.readManifest(assetId, file);
    return manifest && manifestSize(manifest);
  }

  async appendPartial(assetId: string, file: string, source: Readable, options: AppendOptions): Promise<number> {
    return holdingEarlyFailure(source, () => this.appendRead(assetId, file, source, options));
  }

  private async appendRead(assetId: string, file: string, source: Readable, options: AppendOptions): Promise<number> {
    const key = this.keyOf(assetId, file);
    const dir = this.partialDir(assetId, file);
    const existing = await this.readManifest(assetId, file);
    const held = existing ? manifestSize(existing) : 0;
    if (held !== options.offset) throw new PartialOffsetError(held);
    // `manifest` is what the bucket holds; `pending` the bytes after its parts (its tail, once read, and what arrived).
    const manifest: Manifest = existing ?? { parts: [] };
    const pending = new Pending();
    let tailRead = false;
    let unsaved = existing === undefined;
    let size = held;
    const { maxBytes } = options;

    const save = async (next: Manifest) => {
      await this.saveManifest(assetId, file, next);
      const dropped = manifest.tail && manifest.tail.key !== next.tail?.key ? manifest.tail.key : undefined;
      Object.assign(manifest, next);
      if (!next.tail) delete manifest.tail;
      unsaved = false;
      if (dropped) await this.deleteKey(dropped);
    };
    const persistPending = async () => {
      if (!unsaved) return;
      let tail: Manifest['tail'];
      if (pending.size > 0) {
        tail = { key: `${dir}tail-${crypto.randomBytes(8).toString('hex')}`, size: pending.size };
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: tail.key, Body: pending.peek() }));
      }
      await save({ ...manifest, ...(tail ? { tail } : { tail: undefined }) });
    };

    try {
      for await (const data of source as AsyncIterable<Buffer | string>) {
        const chunk = typeof data === 'string' ? Buffer.from(data) : data;
        if (maxBytes !== undefined && size + chunk.length > maxBytes) throw new StorageLimitError(maxBytes);
        if (!tailRead) {
          tailRead = true;
          if (manifest.tail) pending.push(await this.getBytes(manifest.tail.key));
        }
        size += chunk.length;
        pending.push(chunk);
        unsaved = true;
        while (pending.size >= this.partSize) {
          const uploadId = manifest.uploadId ?? (await this.createUpload(key));
          const part = await this.uploadPart(key, uploadId, manifest.parts.length + 1, pending.take(this.partSize));
          // The tail the bucket held went into this part; the rest of `pending` is saved at the end.
          await save({ uploadId, parts: [...manifest.parts, { ...part, size: this.partSize }], tail: undefined });
          unsaved = pending.size > 0;
        }
      }
    } catch (error) {
      source.destroy();
      await persistPending(); // the bytes that arrived stay
      throw error;
    }
    await persistPending();
    return manifestSize(manifest);
  }

  async commitPartial(assetId: string, file: string): Promise<StoredFileInfo> {
    const key = this.keyOf(assetId, file);
    const manifest = await this.readManifest(assetId, file);
    if (!manifest) throw new Error(`there is no partial file of ${assetId}/${file}`);
    try {
      const tail = manifest.tail ? await this.getBytes(manifest.tail.key) : Buffer.alloc(0);
      if (manifest.uploadId === undefined) {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: tail }));
      } else {
        const parts = manifest.parts.map(({ PartNumber, ETag }) => ({ PartNumber, ETag }));
        if (tail.length > 0) parts.push(await this.uploadPart(key, manifest.uploadId, parts.length + 1, tail));
        await this.complete(key, manifest.uploadId, parts);
      }
    } catch (error) {
      // A commit that a stopped process completed before removing the manifest: its tail or upload is gone
      // and the file is there, as long as the manifest says. Finish it; anything else is an error.
      if (!isMissing(error) || (await this.stat(assetId, file))?.size !== manifestSize(manifest)) throw error;
    }
    await this.removePartialObjects(assetId, file);
    const info = await this.stat(assetId, file);
    if (!info) throw new Error(`${key} is not in the bucket after it was committed`);
    return info;
  }

  async discardPartial(assetId: string, file: string): Promise<void> {
    const manifest = await this.readManifest(assetId, file);
    if (manifest?.uploadId !== undefined) await this.abortUpload(this.keyOf(assetId, file), manifest.uploadId);
    await this.removePartialObjects(assetId, file);
  }

  /** The tails (orphans of a crash included), then the manifest: a partial file is gone once its manifest is. */
  private async removePartialObjects(assetId: string, file: string): Promise<void> {
    const dir = this.partialDir(assetId, file);
    const keys = (await this.listObjects(dir)).map((o) => o.Key!).filter((k) => k !== `${dir}partial.json`);
    for (const key of keys) await this.deleteKey(key);
    await this.deleteKey(`${dir}partial.json`);
  }

  // ---- temporary files --------------------------------------------------------------------------

  /** Every multipart upload in progress under the prefix. */
  private async listUploads(): Promise<MultipartUpload[]> {
    const uploads: MultipartUpload[] = [];
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.prefix, ...(keyMarker ? { KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker } : {}) }),
      );
      uploads.push(...(page.Uploads ?? []));
      if (!page.IsTruncated) return uploads;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
      if (!keyMarker) return uploads;
    }
  }

  /** What is temporary, each with how to remove it. */
  private async temporaries(): Promise<Array<TemporaryFile & { remove: () => Promise<void> }>> {
    const found: Array<TemporaryFile & { remove: () => Promise<void> }> = [];
    const partialUploads = new Set<string>();
    const byPartial = new Map<string, _Object[]>();
    for (const object of await this.listObjects(this.tempPrefix)) {
      const key = object.Key ?? '';
      const dir = key.slice(0, key.lastIndexOf('/') + 1);
      byPartial.set(dir, [...(byPartial.get(dir) ?? []), object]);
    }
    for (const [dir, objects] of byPartial) {
      const [assetId, file] = dir.slice(this.tempPrefix.length).split('/');
      const manifestObject = objects.find((o) => o.Key === `${dir}partial.json`);
      let manifest: Manifest | undefined;
      if (assetId !== undefined && file !== undefined && ASSET_ID.test(assetId) && FILE_NAME.test(file) && manifestObject) {
        manifest = await this.readManifest(assetId, file);
      }
      if (manifest && manifestObject && assetId !== undefined && file !== undefined) {
        if (manifest.uploadId) partialUploads.add(manifest.uploadId);
        found.push({ name: `${assetId}.${file}.partial`, size: manifestSize(manifest), modified: manifestObject.LastModified ?? new Date(0), remove: () => this.discardPartial(assetId, file) });
      }
      // tails no manifest refers to: a crash between writing a tail and the manifest
      for (const object of objects) {
        if (object.Key === `${dir}partial.json` || object.Key === manifest?.tail?.key) continue;
        const key = object.Key!;
        found.push({ name: key.slice(this.tempPrefix.length), size: object.Size ?? 0, modified: object.LastModified ?? new Date(0), remove: () => this.deleteKey(key) });
      }
    }
    // multipart uploads of writes that never finished (a crashed process); a partial file's own is part of it
    for (const upload of await this.listUploads()) {
      if (!upload.UploadId || !upload.Key || partialUploads.has(upload.UploadId)) continue;
      const { Key: key, UploadId: uploadId } = upload;
      // the size of an upload in progress would take a ListParts call each: not listed
      found.push({ name: `${key.slice(this.prefix.length)}.multipart-${uploadId}`, size: 0, modified: upload.Initiated ?? new Date(0), remove: () => this.abortUpload(key, uploadId) });
    }
    return found;
  }

  async listTemporary(): Promise<TemporaryFile[]> {
    return (await this.temporaries()).map(({ name, size, modified }) => ({ name, size, modified }));
  }

  async cleanupTemporary(olderThan: Date): Promise<number> {
    let removed = 0;
    for (const temporary of await this.temporaries()) {
      if (temporary.modified.getTime() >= olderThan.getTime()) continue;
      await temporary.remove();
      removed += 1;
    }
    return removed;
  }
}

/** Bytes waiting to be sent, as a list of chunks (fewer than a part, plus the last chunk). */
class Pending {
  private chunks: Buffer[] = [];
  size = 0;

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  /** The first `n` bytes, removed. */
  take(n: number): Buffer {
    const all = Buffer.concat(this.chunks, this.size);
    this.chunks = n < all.length ? [all.subarray(n)] : [];
    this.size = all.length - Math.min(n, all.length);
    return all.subarray(0, n);
  }

  /** All the bytes, kept. */
  peek(): Buffer {
    const all = Buffer.concat(this.chunks, this.size);
    this.chunks = all.length > 0 ? [all] : [];
    return all;
  }
}
