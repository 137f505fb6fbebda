import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

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

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

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
