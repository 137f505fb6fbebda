import type { Config } from '../config.ts';
import { LocalStorage } from './local-storage.ts';
import { MAX_PARTS, S3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

const MIB = 1024 * 1024;

/**
 * The configured media storage: an S3 bucket when S3_BUCKET is set (config.s3), else the local
 * directory MEDIA_DIR (default DATA_DIR/media). buildApp opens one (one S3 client, one pool of
 * connections) and its modules share it through the context.
 */
export function openStorage(config: Pick<Config, 'mediaDir' | 's3'> & Partial<Pick<Config, 'maxUploadBytes'>>): Storage {
  const { s3 } = config;
  if (!s3) return new LocalStorage(config.mediaDir);
  // parts of 8 MiB, larger when MAX_UPLOAD_BYTES needs them (a multipart upload has at most 10,000)
  const partSize = Math.max(8 * MIB, Math.ceil((config.maxUploadBytes ?? 0) / MAX_PARTS / MIB) * MIB);
  return new S3Storage({
    bucket: s3.bucket,
    region: s3.region,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    forcePathStyle: s3.forcePathStyle,
    ...(s3.credentials ? { credentials: s3.credentials } : {}),
    prefix: s3.prefix,
    partSize,
  });
}

/** At start: throws a clear error when the configured storage cannot be used (an S3 bucket missing, refused or unreachable). */
export async function checkStorage(config: Parameters<typeof openStorage>[0]): Promise<void> {
  const storage = openStorage(config);
  if (storage instanceof S3Storage) await storage.checkBucket();
}
