import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A local S3 for tests: s3rver (a dev dependency) on a free port, in a temporary directory, with one
 * bucket, signature v4 with the credentials S3RVER/S3RVER.
 *
 * s3rver 3.7.1 leaves out parts of the S3 API the storage uses and real services have (AWS S3, MinIO,
 * Ceph RGW, R2): ListMultipartUploads and AbortMultipartUpload (it answers NotImplemented and
 * MethodNotAllowed), NoSuchUpload for a part or completion of an upload that is no more (it accepts
 * the part), and the 5 MiB minimum of every part but the last at CompleteMultipartUpload. They
 * are added here, in front of its routes and on its own files, as the S3 API reference describes them,
 * so the tests hold the storage to what a real service would do.
 *
 * It also answers a PUT before the object is on disk (it resolves when the bytes have been handed to
 * the file, not written), and it writes over an object in place: a GET right after the answer could
 * read an empty or half-written object, which S3's read-after-write consistency rules out. Its store's
 * writes are replaced here by ones that write a temporary file and rename it over the object once
 * complete, and answer only then.
 */

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInstance {
  middleware: Middleware[];
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** The parts of s3rver's FilesystemStore (lib/stores/filesystem.js) whose writes are replaced. */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putObject(object: { bucket: string; key: string; content: Buffer | Readable; metadata: Record<string, string> }): Promise<{ size: number; md5: string }>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: Readable): Promise<{ size: number; md5: string }>;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
  getMetadata(bucket: string, key: string): Promise<Record<string, string | number>>;
  getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<unknown>;
}
type S3ObjectClass = new (bucket: string, key: string, content: Readable | null, metadata: Record<string, string | number>) => { range?: { start: number; end: number } };

const load = createRequire(import.meta.url);
const S3rver = load('s3rver') as S3rverClass;
const S3Object = load('s3rver/lib/models/object') as S3ObjectClass & { ALLOWED_METADATA: string[] };
const { ALLOWED_METADATA } = S3Object;

/** Writes `content` to `file` as a whole: into a temporary file beside it, renamed over it once complete. */
async function writeWhole(file: string, content: Buffer | string | Readable): Promise<{ size: number; md5: string }> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${crypto.randomBytes(6).toString('hex')}.writing`;
  const md5 = crypto.createHash('md5');
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      md5.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  const source = content instanceof Readable ? content : Readable.from([typeof content === 'string' ? Buffer.from(content) : content]);
  try {
    await pipeline(source, count, fs.createWriteStream(temporary));
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return { size, md5: md5.digest('hex') };
}

/**
 * s3rver's store, writing each object, part and metadata file whole before the request is answered,
 * and reading an object's size and bytes from one open file (its own takes the size of the file the
 * path named first and the bytes of the one it names next).
 */
function writeWholeObjects(store: FilesystemStore): void {
  store.getObject = async (bucket, key, options) => {
    let file: fs.promises.FileHandle;
    try {
      file = await fs.promises.open(store.getResourcePath(bucket, key, 'object'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const stat = await file.stat();
    let stored: Record<string, string | number>;
    try {
      stored = await store.getMetadata(bucket, key);
    } catch (error) {
      await file.close();
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // deleted in between
      throw error;
    }
    const metadata = { ...stored, 'content-length': stat.size, 'last-modified': stat.mtime.toUTCString() };
    const lastByte = Math.max(0, stat.size - 1);
    const range = { start: options?.start ?? 0, end: Math.min(options?.end || Infinity, lastByte) };
    const satisfiable = range.start >= 0 && range.start <= range.end;
    const object = new S3Object(bucket, key, satisfiable ? file.createReadStream(range) : null, metadata);
    if (!satisfiable) await file.close();
    if (options && (options.start !== undefined || options.end)) object.range = range;
    return object;
  };
  store.putMetadata = async (bucket, key, metadata, md5) => {
    const kept = Object.fromEntries(Object.entries(metadata).filter(([name]) => ALLOWED_METADATA.includes(name) || name.startsWith('x-amz-meta-')));
    if (md5) await writeWhole(store.getResourcePath(bucket, key, 'object.md5'), md5);
    await writeWhole(store.getResourcePath(bucket, key, 'metadata.json'), JSON.stringify(kept, null, 2));
  };
  store.putObject = async (object) => {
    const written = await writeWhole(store.getResourcePath(object.bucket, object.key, 'object'), object.content);
    await store.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  };
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const part = path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
    const written = await writeWhole(part, content);
    await writeWhole(`${part}.md5`, written.md5);
    return written;
  };
}

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** the server's environment variables for this bucket (S3_*), with a prefix when given */
  env(prefix?: string): Record<string, string>;
  /** every multipart upload in progress (key and id), read from s3rver's files */
  uploadsInProgress(): Array<{ key: string; uploadId: string }>;
  close(): Promise<void>;
}

const MIN_PART_SIZE = 5 * 1024 * 1024;
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startLocalS3(bucket = 'tao-media'): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] });
  const uploadsDir = path.join(directory, bucket, '._S3rver_uploads');
  const uploads = () =>
    (fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir) : []).map((uploadId) => ({
      uploadId,
      key: fs.readFileSync(path.join(uploadsDir, uploadId, 'key'), 'utf8'),
      initiated: fs.statSync(path.join(uploadsDir, uploadId, 'key')).mtime,
    }));

  const missingOperations: Middleware = async (ctx, next) => {
    const [, name, ...keyParts] = ctx.path.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    if (name !== bucket) return next();
    if (ctx.method === 'GET' && key === '' && 'uploads' in ctx.query) {
      const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
      const listed = uploads()
        .filter((u) => u.key.startsWith(prefix))
        .sort((a, b) => a.key.localeCompare(b.key) || a.uploadId.localeCompare(b.uploadId));
      ctx.status = 200;
      ctx.type = 'application/xml';
      ctx.body =
        `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><Prefix>${xml(prefix)}</Prefix><IsTruncated>false</IsTruncated>` +
        listed.map((u) => `<Upload><Key>${xml(u.key)}</Key><UploadId>${u.uploadId}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated></Upload>`).join('') +
        '</ListMultipartUploadsResult>';
      return;
    }
    if (uploadId !== undefined && key !== '' && (ctx.method === 'DELETE' || ctx.method === 'POST' || ctx.method === 'PUT')) {
      const dir = path.join(uploadsDir, path.basename(uploadId));
      const keyFile = path.join(dir, 'key');
      if (!fs.existsSync(keyFile) || fs.readFileSync(keyFile, 'utf8') !== key) {
        ctx.status = 404;
        ctx.type = 'application/xml';
        ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
        return;
      }
      if (ctx.method === 'PUT') return next(); // UploadPart of an upload in progress
      if (ctx.method === 'DELETE') {
        fs.rmSync(dir, { recursive: true, force: true });
        ctx.status = 204;
        ctx.body = '';
        return;
      }
      const sizes = fs
        .readdirSync(dir)
        .filter((f) => /^\d+$/.test(f))
        .sort((a, b) => Number(a) - Number(b))
        .map((f) => fs.statSync(path.join(dir, f)).size);
      if (sizes.slice(0, -1).some((size) => size < MIN_PART_SIZE)) {
        ctx.status = 400;
        ctx.type = 'application/xml';
        ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>EntityTooSmall</Code><Message>Your proposed upload is smaller than the minimum allowed object size.</Message></Error>`;
        return;
      }
    }
    return next();
  };
  server.middleware.unshift(missingOperations);
  writeWholeObjects((server as unknown as { store: FilesystemStore }).store);

  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    env: (prefix?: string) => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      ...(prefix ? { S3_PREFIX: prefix } : {}),
    }),
    uploadsInProgress: () => uploads().map(({ key, uploadId }) => ({ key, uploadId })),
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
