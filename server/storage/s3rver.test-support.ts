import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * s3rver (a dev dependency) as it is, on a free port, in a temporary directory, with one bucket. Unlike
 * moto_server it checks signature v4 against its credentials (S3RVER/S3RVER), so the tests of refused
 * credentials run on it. It lacks parts of S3 the storage uses (ListMultipartUploads,
 * AbortMultipartUpload, the 5 MiB minimum part): the storage's own tests run on moto_server.
 */
export interface S3rver {
  /** "s3rver 3.7.1": which server ran, for the tests' names */
  name: string;
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

const load = createRequire(import.meta.url);
const S3rverServer = load('s3rver') as S3rverClass;
export const S3RVER_NAME = `s3rver ${(load('s3rver/package.json') as { version: string }).version}`;

export async function startS3rver(bucket = 'tao-media'): Promise<S3rver> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-s3rver-'));
  const server = new S3rverServer({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    name: S3RVER_NAME,
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
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
