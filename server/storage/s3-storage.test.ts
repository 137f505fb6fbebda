import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { LocalStorage } from './local-storage.ts';
import { checkStorage, openStorage } from './open-storage.ts';
import { MIN_PART_SIZE, S3Storage } from './s3-storage.ts';
import { startMotoServer, type MotoBucket } from './moto-server.test-support.ts';
import { startS3rver, S3RVER_NAME, type S3rver } from './s3rver.test-support.ts';
import { ASSET, describeStorageContract, from } from './storage-contract.test-support.ts';
import { StorageLimitError } from './storage.ts';

const MIB = 1024 * 1024;
// One moto process for the whole file (it starts in about a second); its version names the suites.
const moto = await startMotoServer();
afterAll(() => moto.close());

let prefixes = 0;
/** A storage on a bucket under a prefix; a prefix of its own unless given, as a server's S3_PREFIX. */
function storageOn(s3: { bucket: string; endpoint: string; credentials: MotoBucket['credentials'] }, prefix = `t${++prefixes}-${crypto.randomBytes(3).toString('hex')}/`): S3Storage {
  return new S3Storage({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials, prefix, partSize: MIN_PART_SIZE });
}

describeStorageContract(`S3 storage on ${moto.name}`, async () => ({ storage: storageOn(await moto.newBucket()) }), { bytesBeforeTemporary: MIN_PART_SIZE, replacedWhileOpen: 'fails' });

/** Deterministic bytes, different at every offset, so a misplaced part shows. */
function bytes(size: number, seed: number): Buffer {
  const out = Buffer.alloc(Math.ceil(size / 4) * 4);
  for (let i = 0; i < size; i += 4) out.writeUInt32LE((i * 2654435761 + seed) >>> 0, i);
  return out.subarray(0, size);
}
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const chunked = (b: Buffer, size = 64 * 1024) => Readable.from(Array.from({ length: Math.ceil(b.length / size) }, (_, i) => b.subarray(i * size, (i + 1) * size)));

describe(`S3 storage on ${moto.name}: the bucket`, () => {
  let s3: MotoBucket;
  let storage: S3Storage;
  beforeEach(async () => {
    s3 = await moto.newBucket();
    storage = storageOn(s3);
  });
  const keys = async (prefix = storage.prefix) =>
    ((await storage.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))).Contents ?? []).map((o) => o.Key).sort();
  const uploadsUnder = async (prefix = storage.prefix) => (await s3.uploadsInProgress()).filter((u) => u.key.startsWith(prefix));

  it('the service refuses parts under 5 MiB but the last one (EntityTooSmall), as S3 does: the tests below hold the storage to it', async () => {
    const key = `${storage.prefix}${ASSET}/video.mp4`;
    const { UploadId } = await storage.client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }));
    const parts = [];
    for (const PartNumber of [1, 2]) {
      const { ETag } = await storage.client.send(new UploadPartCommand({ Bucket: s3.bucket, Key: key, UploadId, PartNumber, Body: bytes(MIB, PartNumber) }));
      parts.push({ PartNumber, ETag });
    }
    await expect(
      storage.client.send(new CompleteMultipartUploadCommand({ Bucket: s3.bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } })),
    ).rejects.toMatchObject({ name: 'EntityTooSmall' });
    await storage.client.send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: key, UploadId }));
    expect(await uploadsUnder()).toEqual([]);
  });

  it('keeps a file as the object <prefix><assetId>/<file>, and has no local path', async () => {
    await storage.write(ASSET, 'video.mp4', from('0123456789'));
    expect(await keys()).toEqual([`${storage.prefix}${ASSET}/video.mp4`]);
    expect('localPath' in storage).toBe(false);
  });

  it('writes a file longer than a part as a multipart upload, streamed, and reads any range of it', async () => {
    const video = bytes(2 * MIN_PART_SIZE + 123_457, 1);
    expect((await storage.write(ASSET, 'video.mp4', chunked(video))).size).toBe(video.length);
    expect(await uploadsUnder()).toEqual([]);
    const read = async (start: number, end: number) => buffer((await storage.open(ASSET, 'video.mp4'))!.createReadStream({ start, end }));
    expect(sha(await buffer((await storage.open(ASSET, 'video.mp4'))!.createReadStream()))).toBe(sha(video));
    for (const [start, end] of [[0, 1], [MIN_PART_SIZE - 3, MIN_PART_SIZE + 3], [2 * MIN_PART_SIZE - 1, video.length - 1], [1000, 1000 + MIB]] as const) {
      expect((await read(start, end)).equals(video.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it('a write over maxBytes after some parts aborts its multipart upload and keeps nothing', async () => {
    await expect(storage.write(ASSET, 'video.mp4', chunked(bytes(2 * MIN_PART_SIZE + 10, 2)), { maxBytes: 2 * MIN_PART_SIZE })).rejects.toBeInstanceOf(StorageLimitError);
    expect(await storage.stat(ASSET, 'video.mp4')).toBeUndefined();
    expect(await uploadsUnder()).toEqual([]);
    expect(await storage.listTemporary()).toEqual([]);
  });

  it('a resumable write of appends of odd sizes becomes parts of at least 5 MiB plus a small tail, committed byte for byte', async () => {
    const video = bytes(3 * MIN_PART_SIZE + 777, 3);
    const sizes = [1, 3 * MIB + 7, 4 * MIB + 13, 5 * MIB + 1, MIB - 5, 1_000_003];
    let offset = 0;
    for (const size of [...sizes, video.length - sizes.reduce((a, b) => a + b, 0)]) {
      expect(await storage.appendPartial(ASSET, 'video.mp4', chunked(video.subarray(offset, offset + size), 100_003), { offset })).toBe(offset + size);
      offset += size;
      expect(await storage.partialSize(ASSET, 'video.mp4')).toBe(offset);
      const tails = (await keys(`${storage.prefix}.tmp/`)).filter((k) => k?.includes('/tail-'));
      expect(tails.length, 'one tail at most').toBeLessThanOrEqual(1);
    }
    expect(await uploadsUnder()).toHaveLength(1);
    expect(await storage.stat(ASSET, 'video.mp4')).toBeUndefined();
    // the local S3 refuses parts under 5 MiB but the last one, as S3 does (EntityTooSmall)
    expect((await storage.commitPartial(ASSET, 'video.mp4')).size).toBe(video.length);
    expect(sha(await buffer((await storage.open(ASSET, 'video.mp4'))!.createReadStream()))).toBe(sha(video));
    const edge = (await buffer((await storage.open(ASSET, 'video.mp4'))!.createReadStream({ start: 2 * MIN_PART_SIZE - 2, end: 2 * MIN_PART_SIZE + 1 })));
    expect(edge.equals(video.subarray(2 * MIN_PART_SIZE - 2, 2 * MIN_PART_SIZE + 2))).toBe(true);
    expect(await uploadsUnder()).toEqual([]);
    expect(await keys()).toEqual([`${storage.prefix}${ASSET}/video.mp4`]);
  });

  it('a partial file is continued by another server instance: its state is in the bucket', async () => {
    const video = bytes(12 * MIB + 11, 4);
    const first = storage;
    const second = storageOn(s3, storage.prefix); // another process: its own client, nothing shared but the bucket
    const cut = 3 * MIB + 5;
    expect(await first.appendPartial(ASSET, 'video.mp4', chunked(video.subarray(0, cut)), { offset: 0 })).toBe(cut);
    expect(await second.partialSize(ASSET, 'video.mp4')).toBe(cut);
    // the second instance receives a part that breaks off after a multipart part was sent
    const source = new PassThrough();
    const appending = second.appendPartial(ASSET, 'video.mp4', source, { offset: cut });
    const arrived = MIN_PART_SIZE; // past one part: a part goes out, the rest stays as the tail
    for (let at = cut; at < cut + arrived; at += 256 * 1024) {
      if (!source.write(video.subarray(at, Math.min(at + 256 * 1024, cut + arrived)))) await new Promise((r) => source.once('drain', r));
    }
    // every byte written has been taken by the storage, and the part is in the bucket (the rest, in memory, is the tail to come)
    const consumed = async () => source.readableLength === 0 && source.writableLength === 0 && (await first.partialSize(ASSET, 'video.mp4')) === MIN_PART_SIZE;
    for (const deadline = Date.now() + 10_000; !(await consumed()) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    expect(await uploadsUnder()).toHaveLength(1);
    source.destroy(new Error('client went away'));
    await expect(appending).rejects.toThrow('client went away');
    const held = (await first.partialSize(ASSET, 'video.mp4'))!;
    expect(held).toBe(cut + arrived);
    // the first instance takes the rest from where the second left it
    expect(await first.appendPartial(ASSET, 'video.mp4', chunked(video.subarray(held)), { offset: held })).toBe(video.length);
    expect((await second.commitPartial(ASSET, 'video.mp4')).size).toBe(video.length);
    expect(sha(await buffer((await first.open(ASSET, 'video.mp4'))!.createReadStream()))).toBe(sha(video));
    expect(await first.listTemporary()).toEqual([]);
  });

  it('a commit interrupted after the file was completed (before its manifest was removed) is finished by the next commit', async () => {
    for (const size of [MIN_PART_SIZE + 10, 1000]) {
      const video = bytes(size, 7);
      await storage.appendPartial(ASSET, 'video.mp4', chunked(video), { offset: 0 });
      const manifestKey = `${storage.prefix}.tmp/${ASSET}/video.mp4/partial.json`;
      const manifest = await buffer((await storage.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: manifestKey }))).Body as Readable);
      expect((await storage.commitPartial(ASSET, 'video.mp4')).size).toBe(size);
      await storage.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: manifestKey, Body: manifest })); // as if the process had stopped there
      expect(await storage.partialSize(ASSET, 'video.mp4')).toBe(size);
      expect((await storage.commitPartial(ASSET, 'video.mp4')).size).toBe(size);
      expect(await storage.partialSize(ASSET, 'video.mp4')).toBeUndefined();
      expect(sha(await buffer((await storage.open(ASSET, 'video.mp4'))!.createReadStream()))).toBe(sha(video));
      expect(await storage.listTemporary()).toEqual([]);
    }
  });

  it('discarding a partial file aborts its multipart upload and removes its tail and manifest', async () => {
    await storage.appendPartial(ASSET, 'video.mp4', chunked(bytes(MIN_PART_SIZE + 100, 5)), { offset: 0 });
    expect(await uploadsUnder()).toHaveLength(1);
    expect((await keys(`${storage.prefix}.tmp/`)).length).toBe(2); // manifest and tail
    await storage.discardPartial(ASSET, 'video.mp4');
    expect(await uploadsUnder()).toEqual([]);
    expect(await keys()).toEqual([]);
  });

  it('cleans up orphan tails (a crash between a tail and its manifest) and abandoned partial files, not younger ones', async () => {
    await storage.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${storage.prefix}.tmp/${ASSET}/thumbnail.jpg/tail-0123456789abcdef`, Body: 'orphan' }));
    await storage.appendPartial('asset_0002', 'video.mp4', from('a partial file'), { offset: 0 });
    const listed = await storage.listTemporary();
    expect(listed.map((f) => f.name).sort()).toEqual([`${ASSET}/thumbnail.jpg/tail-0123456789abcdef`, 'asset_0002.video.mp4.partial']);
    expect(listed.find((f) => f.name === 'asset_0002.video.mp4.partial')?.size).toBe('a partial file'.length);
    expect(await storage.cleanupTemporary(new Date(Date.now() - 3600_000))).toBe(0);
    expect(await storage.cleanupTemporary(new Date(Date.now() + 2000))).toBe(2);
    expect(await keys()).toEqual([]);
    expect(await storage.listTemporary()).toEqual([]);
  });

  it('lists and aborts the multipart upload of a crashed write; a partial file\'s own upload goes with the partial file', async () => {
    const key = `${storage.prefix}${ASSET}/video.mp4`;
    const { UploadId } = await storage.client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }));
    await storage.client.send(new UploadPartCommand({ Bucket: s3.bucket, Key: key, UploadId, PartNumber: 1, Body: bytes(MIN_PART_SIZE, 6) }));
    await storage.appendPartial('asset_0002', 'video.mp4', chunked(bytes(MIN_PART_SIZE + 10, 8)), { offset: 0 });
    expect(await uploadsUnder()).toHaveLength(2);
    expect((await storage.listTemporary()).map((f) => f.name).sort()).toEqual([`${ASSET}/video.mp4.multipart-${UploadId}`, 'asset_0002.video.mp4.partial']);
    // moto dates every upload it lists 2010-11-10 (a fixed Initiated), so an upload's age is not checked here
    expect(await storage.cleanupTemporary(new Date(Date.now() + 2000))).toBe(2);
    expect(await uploadsUnder()).toEqual([]);
    expect(await keys()).toEqual([]);
    expect(await storage.listTemporary()).toEqual([]);
  });

  it('an asset deleted while a reader streams it: the reader fails, never mixing in another version', async () => {
    await storage.write(ASSET, 'video.mp4', from('first'));
    const opened = (await storage.open(ASSET, 'video.mp4'))!;
    await storage.deleteAsset(ASSET);
    await expect(buffer(opened.createReadStream())).rejects.toThrow();
  });

  it('gives a presigned GET of a file, ranges included, that works without the server', async () => {
    await storage.write(ASSET, 'thumbnail.jpg', from('0123456789'));
    const url = await storage.presignedGetUrl(ASSET, 'thumbnail.jpg', 60);
    expect(url).toContain('X-Amz-Signature=');
    expect(url).toContain('X-Amz-Expires=60');
    const whole = await fetch(url);
    expect([whole.status, await whole.text()]).toEqual([200, '0123456789']);
    const part = await fetch(url, { headers: { range: 'bytes=3-5' } });
    expect([part.status, await part.text()]).toEqual([206, '345']);
  });
});

describe(`S3 storage on ${moto.name}: chosen by configuration`, () => {
  let s3: MotoBucket;
  beforeAll(async () => {
    s3 = await moto.newBucket();
  });

  it('is the storage when S3_BUCKET is set, the local directory otherwise', async () => {
    const config = loadConfig({ DATA_DIR: '/tmp/tao-unused', ...s3.env('chosen') });
    const storage = openStorage(config);
    expect(storage).toBeInstanceOf(S3Storage);
    expect((storage as S3Storage).prefix).toBe('chosen/');
    await storage.write(ASSET, 'video.mp4', from('via config'));
    expect(await new S3Storage({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials, prefix: 'chosen/' }).list(ASSET)).toEqual(['video.mp4']);
    expect(openStorage(loadConfig({ DATA_DIR: '/tmp/tao-unused' }))).toBeInstanceOf(LocalStorage);
  });

  it('stops at start with a clear message when the bucket cannot be used', async () => {
    const base = { DATA_DIR: '/tmp/tao-unused', ...s3.env() };
    await expect(checkStorage(loadConfig(base))).resolves.toBeUndefined();
    await expect(checkStorage(loadConfig({ ...base, S3_BUCKET: 'no-such-bucket' }))).rejects.toThrow(
      `media storage: the S3 bucket "no-such-bucket" at ${s3.endpoint} cannot be used: it does not exist (create it first)`,
    );
    // the server does not start on it
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-s3-check-'));
    const db = await openDatabase({ dataDir });
    try {
      const config = loadConfig({ ...base, DATA_DIR: dataDir, S3_BUCKET: 'no-such-bucket', CLIENT_DIR: path.join(dataDir, 'no-client') });
      await expect(buildApp({ config, db, logger: false })).rejects.toThrow(/no-such-bucket.*does not exist/);
    } finally {
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    await expect(checkStorage(loadConfig({ DATA_DIR: '/tmp/tao-unused' }))).resolves.toBeUndefined(); // a local directory is made when needed
  });

  it('makes parts large enough for MAX_UPLOAD_BYTES in at most 10,000 parts', () => {
    const small = openStorage(loadConfig({ DATA_DIR: '/tmp/tao-unused', ...s3.env('a'), MAX_UPLOAD_BYTES: String(10 * 1024 ** 3) })) as S3Storage;
    expect(small.partSize).toBe(8 * MIB);
    const huge = openStorage(loadConfig({ DATA_DIR: '/tmp/tao-unused', ...s3.env('b'), MAX_UPLOAD_BYTES: String(1024 ** 4) })) as S3Storage;
    expect(huge.partSize * 10_000).toBeGreaterThanOrEqual(1024 ** 4);
  });
});

/**
 * What moto_server does not do: it takes any signature. s3rver checks them, and it also answers some
 * ranges wrongly, which shows the storage refusing bytes it did not ask for.
 */
describe(`S3 storage on ${S3RVER_NAME}: a service that refuses or misanswers`, () => {
  let s3: S3rver;
  beforeAll(async () => {
    s3 = await startS3rver();
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('stops at start with "access denied" when the service refuses the credentials, and nothing is written with them', async () => {
    // s3rver refuses an access key it does not know (it does not verify a v4 signature's secret either)
    const wrong = { DATA_DIR: '/tmp/tao-unused', ...s3.env('refused'), S3_ACCESS_KEY_ID: 'NOT-A-KEY' };
    await expect(checkStorage(loadConfig(wrong))).rejects.toThrow(
      `media storage: the S3 bucket "${s3.bucket}" at ${s3.endpoint} cannot be used: access denied (check S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY and the bucket policy)`,
    );
    const refused = new S3Storage({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'S3RVER' }, prefix: 'refused/' });
    await expect(refused.write(ASSET, 'video.mp4', from('never stored'))).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
    await expect(checkStorage(loadConfig({ DATA_DIR: '/tmp/tao-unused', ...s3.env('refused') }))).resolves.toBeUndefined();
    expect(await storageOn(s3, 'refused/').list(ASSET)).toEqual([]);
  });

  it('a service that answers another range than the one asked for: the read fails rather than send wrong bytes', async () => {
    // s3rver answers `Range: bytes=0-0` with the whole object (it takes the end 0 for "none")
    const storage = storageOn(s3);
    await storage.write(ASSET, 'video.mp4', from('0123456789'));
    await expect(buffer((await storage.open(ASSET, 'video.mp4'))!.createReadStream({ start: 0, end: 0 }))).rejects.toThrow(/range/);
  });
});
