import type { Config } from '../config.ts';
import { LocalStorage } from './local-storage.ts';
import { MAX_PARTS, S3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

const MIB = 1024 * 1024;
/** One S3 storage (one client, one pool of connections) per configuration, for the modules that share it. */
const s3Storages = new WeakMap<object, S3Storage>();

/**
 * The configured media storage: an S3 bucket when S3_BUCKET is set (config.s3), else the local
 * directory MEDIA_DIR (default DATA_DIR/media).
 */
export function openStorage(config: Pick<Config, 'mediaDir' | 's3'> & Partial<Pick<Config, 'maxUploadBytes'>>): Storage {
  const { s3 } = config;
  if (!s3) return new LocalStorage(config.mediaDir);
  let storage = s3Storages.get(s3);
  if (!storage) {
    // parts of 8 MiB, larger when MAX_UPLOAD_BYTES needs them (a multipart upload has at most 10,000)
    const partSize = Math.max(8 * MIB, Math.ceil((config.maxUploadBytes ?? 0) / MAX_PARTS / MIB) * MIB);
    storage = new S3Storage({
      bucket: s3.bucket,
      region: s3.region,
      ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
      forcePathStyle: s3.forcePathStyle,
      ...(s3.credentials ? { credentials: s3.credentials } : {}),
      prefix: s3.prefix,
      partSize,
    });
    s3Storages.set(s3, storage);
  }
  return storage;
}

/** At start: throws a clear error when the configured storage cannot be used (an S3 bucket missing, refused or unreachable). */
export async function checkStorage(config: Parameters<typeof openStorage>[0]): Promise<void> {
  const storage = openStorage(config);
  if (storage instanceof S3Storage) await storage.checkBucket();
}
