import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFirstAdmin, type TestUser } from '../../../tests/utils/accounts.ts';
import { call, describeOnEachDatabase, POSTGRES_URL, type TestServer } from '../../../tests/utils/server-harness.ts';
import { openDatabase, type Db } from '../../db/database.ts';
import { createMediaJobs, testVideoBytes } from '../../media/ffmpeg.ts';
import { makeForeignVideo } from '../../media/foreign-videos.ts';
import { LocalStorage } from '../../storage/local-storage.ts';
import { assetId as newAssetId } from '../videos/videos.test-support.ts';
import { claimProcessing, finishClaim, findUpload, insertUpload, listClaimable, releaseClaims, renewClaim } from './uploads.repository.ts';
import { createUploadsService } from './uploads.service.ts';

/**
 * Several server processes on one database (R-OPS-1): the processing of a video is leased, so one
 * instance processes it, and another takes it over when the lease of an instance that died runs out.
 * Other "instances" are other connections (pools) to the test's database.
 */

let VIDEO: Buffer;
/** A WebM whose rewrite lasts a few seconds. */
let WEBM: Buffer;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-lease-test-'));
  [VIDEO] = await Promise.all([
    testVideoBytes({ seconds: 1, pattern: 'testsrc2', toneHz: 440, width: 160, height: 96 }),
    makeForeignVideo(path.join(dir, 'recording.webm'), 'webm', 20, { width: 1280, height: 720 }),
  ]);
  WEBM = fs.readFileSync(path.join(dir, 'recording.webm'));
  fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** The ffmpeg programs this process runs now (their process ids). */
function ffmpegChildren(): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch {
    // ps answers 1 when this process has no children
  }
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+ffmpeg/.exec(line)?.[1])
    .filter((pid): pid is string => pid !== undefined)
    .map(Number);
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3600_000;

describeOnEachDatabase('processing leases shared by several instances on one database', (server: () => TestServer) => {
  const others: Db[] = [];

  /** Another connection to the same database, as another server process has. */
  async function otherInstance(): Promise<Db> {
    const { db, config } = server();
    let other: Db;
    if (db.dialect === 'postgres') {
      const schema = (await sql<{ name: string }>`select current_schema() as name`.execute(db.kysely)).rows[0]!.name;
      other = await openDatabase({ databaseUrl: POSTGRES_URL, dataDir: config.dataDir, pgSchema: schema });
    } else {
      other = await openDatabase({ dataDir: config.dataDir });
    }
    others.push(other);
    return other;
  }
  afterAll(async () => {
    for (const db of others) await db.close();
  });

  /**
   * A row in `processing` held until `heldUntil` by an instance that died. The repository tests claim
   * at instants past it while the real clock is before it, so the test server's own poller (which
   * claims at the real time) cannot take the row from under them.
   */
  async function processingRow(heldUntil: number, attempts = 1): Promise<string> {
    const asset = newAssetId();
    const at = iso(Date.now());
    await insertUpload(server().db.kysely, {
      asset_id: asset,
      created_at: at,
      expires_at: iso(Date.now() + HOUR),
      video_state: 'processing',
      attempts,
      claimed_by: 'dead-instance',
      claimed_until: iso(heldUntil),
      updated_at: at,
    });
    return asset;
  }

  it('among instances claiming one video at once, exactly one wins', async () => {
    const held = Date.now() + HOUR;
    const asset = await processingRow(held);
    const instances = [server().db, ...(await Promise.all([1, 2, 3, 4].map(() => otherInstance())))];
    const at = iso(held + 1);
    const until = iso(held + 60_000);
    const claims = await Promise.all(
      instances.flatMap((db, i) => [`instance-${i}-a`, `instance-${i}-b`].map(async (owner) => ({ owner, attempts: await claimProcessing(db.kysely, asset, owner, at, until) }))),
    );
    const winners = claims.filter((c) => c.attempts !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.attempts).toBe(2);
    expect(await findUpload(server().db.kysely, asset)).toMatchObject({ claimed_by: winners[0]!.owner, claimed_until: until, attempts: 2 });
  });

  it('a held lease is not claimed; once expired it is taken over, and the instance that lost it records nothing', async () => {
    const t0 = Date.now() + HOUR;
    const asset = await processingRow(t0 - 1, 0);
    const first = server().db.kysely;
    const second = (await otherInstance()).kysely;
    expect(await claimProcessing(first, asset, 'first', iso(t0), iso(t0 + 60_000))).toBe(1);
    expect(await claimProcessing(second, asset, 'second', iso(t0 + 30_000), iso(t0 + 90_000))).toBeUndefined();
    expect(await listClaimable(second, iso(t0 + 30_000), 100)).not.toContain(asset);
    // renewed while the job runs: still held past the first expiry
    expect(await renewClaim(first, asset, 'first', iso(t0 + 120_000))).toBe(true);
    expect(await claimProcessing(second, asset, 'second', iso(t0 + 61_000), iso(t0 + 121_000))).toBeUndefined();
    // the first instance stops renewing (it died): past the expiry the second takes over
    expect(await listClaimable(second, iso(t0 + 120_000), 100)).toContain(asset);
    expect(await claimProcessing(second, asset, 'second', iso(t0 + 120_000), iso(t0 + 180_000))).toBe(2);
    expect(await renewClaim(first, asset, 'first', iso(t0 + 200_000))).toBe(false);
    expect(await finishClaim(first, asset, 'first', { video_state: 'failed', error: 'late', updated_at: iso(t0 + 130_000) })).toBe(false);
    expect(await findUpload(first, asset)).toMatchObject({ video_state: 'processing', claimed_by: 'second', error: null });
    expect(await finishClaim(second, asset, 'second', { video_state: 'ready', duracion: 1, updated_at: iso(t0 + 140_000) })).toBe(true);
    expect(await findUpload(first, asset)).toMatchObject({ video_state: 'ready', claimed_by: null, claimed_until: null, attempts: 2 });
  });

  it('a stopping instance gives up the leases it holds, and only its own', async () => {
    const held = Date.now() + HOUR;
    const mine = await processingRow(held);
    const theirs = await processingRow(held);
    const db = server().db.kysely;
    expect(await claimProcessing(db, mine, 'stopping', iso(held + 1), iso(held + 60_000))).toBe(2);
    expect(await claimProcessing(db, theirs, 'staying', iso(held + 1), iso(held + 60_000))).toBe(2);
    expect(await releaseClaims(db, 'stopping')).toBe(1);
    expect(await findUpload(db, mine)).toMatchObject({ claimed_by: null, claimed_until: null, video_state: 'processing' });
    expect(await findUpload(db, theirs)).toMatchObject({ claimed_by: 'staying' });
  });

  /**
   * An uploads service of another server process: its own connection, a shared media directory, a
   * short poll; its lease `leaseMs` (3 s by default), or with `leaseSeconds` the configuration's
   * PROCESSING_LEASE_SECONDS as a started server takes it.
   */
  async function serviceOfInstance(name: string, options: { leaseMs?: number; leaseSeconds?: number } = {}) {
    const { config, app } = server();
    const db = await otherInstance();
    const configured = options.leaseSeconds === undefined ? config : { ...config, processingLeaseSeconds: options.leaseSeconds };
    const storage = new LocalStorage(config.mediaDir);
    return createUploadsService({ ...app.ctx, config: configured, db, storage, media: createMediaJobs() }, storage, {
      instanceId: name,
      pollMs: 100,
      ...(options.leaseSeconds === undefined ? { leaseMs: options.leaseMs ?? 3000 } : {}),
    });
  }
  async function uploadedVideo(claim?: { by: string; until: number }, bytes: Buffer = VIDEO): Promise<string> {
    const asset = newAssetId();
    const at = iso(Date.now());
    await new LocalStorage(server().config.mediaDir).write(asset, 'video.mp4', Readable.from([bytes]));
    await insertUpload(server().db.kysely, {
      asset_id: asset,
      created_at: at,
      expires_at: iso(Date.now() + HOUR),
      video_state: 'processing',
      attempts: claim ? 1 : 0,
      claimed_by: claim?.by ?? null,
      claimed_until: claim ? iso(claim.until) : null,
      updated_at: at,
    });
    return asset;
  }
  async function settled(asset: string, withinMs: number) {
    for (const deadline = Date.now() + withinMs; Date.now() < deadline; await sleep(50)) {
      const row = await findUpload(server().db.kysely, asset);
      // processed, and its HLS stage (leased too) over
      if (row?.video_state !== 'processing' && row?.stream_state !== 'pending') return row;
    }
    throw new Error(`${asset} was not processed within ${withinMs} ms`);
  }

  let admin: TestUser | undefined;
  /**
   * Discards a WebM upload a test left in processing: the test server's own instance takes it up once
   * the test's instance gives up its lease, and its 20 s rewrite must not run on under the next tests
   * (the kill test counts this process's ffmpeg programs) or the next files.
   */
  async function discard(asset: string): Promise<void> {
    admin ??= await createFirstAdmin(server());
    expect((await call(server().app, { method: 'DELETE', url: `/api/uploads/${asset}`, token: admin.session })).statusCode).toBe(204);
  }

  it('an instance claims a video for PROCESSING_LEASE_SECONDS', async () => {
    const asset = await uploadedVideo(undefined, WEBM);
    const a = await serviceOfInstance('instance-configured', { leaseSeconds: 12 });
    const started = Date.now();
    await a.startProcessing();
    try {
      let row = await findUpload(server().db.kysely, asset);
      for (const deadline = Date.now() + 20_000; !row?.claimed_until && Date.now() < deadline; await sleep(20)) row = await findUpload(server().db.kysely, asset);
      expect(row).toMatchObject({ claimed_by: 'instance-configured', video_state: 'processing' });
      const until = Date.parse(row!.claimed_until!);
      // now + 12 s when claimed (not the 60 s default, nor the tests' 3 s)
      expect(until).toBeGreaterThanOrEqual(started + 12_000);
      expect(until).toBeLessThanOrEqual(Date.now() + 12_000);
    } finally {
      await a.stopProcessing();
      await discard(asset);
    }
  });

  it('two instances looking for work process each video once', async () => {
    const assets = [await uploadedVideo(), await uploadedVideo(), await uploadedVideo()];
    const a = await serviceOfInstance('instance-a');
    const b = await serviceOfInstance('instance-b');
    await Promise.all([a.startProcessing(), b.startProcessing()]);
    try {
      for (const asset of assets) {
        expect(await settled(asset, 60_000)).toMatchObject({ video_state: 'ready', attempts: 1, has_preview: 1, claimed_by: null, claimed_until: null });
      }
    } finally {
      await Promise.all([a.stopProcessing(), b.stopProcessing()]);
    }
  });

  it('a stopping instance kills the ffmpeg of a rewrite in progress and leaves the video, unharmed, to another', async () => {
    const asset = await uploadedVideo(undefined, WEBM);
    const stopping = await serviceOfInstance('stopping-instance');
    await stopping.startProcessing();
    let row;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(50)) {
      row = await findUpload(server().db.kysely, asset);
      if (row?.claimed_by === 'stopping-instance' && row.processing_progress !== null) break;
    }
    expect(row, 'the rewrite started on the stopping instance').toMatchObject({ claimed_by: 'stopping-instance', video_state: 'processing' });
    const programs = ffmpegChildren();
    expect(programs.length).toBeGreaterThan(0);
    await stopping.stopProcessing(0);
    for (const deadline = Date.now() + 5000; Date.now() < deadline && programs.some(running); ) await sleep(50);
    expect(programs.filter(running)).toEqual([]);
    // Not failed: left for the next start or another instance (the test server's own may have taken it since).
    row = await findUpload(server().db.kysely, asset);
    expect(row?.claimed_by).not.toBe('stopping-instance');
    expect(row?.error).toBeNull();
    expect(['processing', 'ready']).toContain(row?.video_state);
    await discard(asset);
  }, 120_000);

  it('an HLS stage that fails leaves the video ready, its MP4 in place and nothing half-listed (R-MED-5)', async () => {
    const { config, app } = server();
    const db = await otherInstance();
    const local = new LocalStorage(config.mediaDir);
    // a storage that refuses the media playlists: each rendition fails after its media file was stored
    const storage = new Proxy(local, {
      get(target, property) {
        if (property === 'write') {
          return (asset: string, file: string, source: Readable, options?: object) => {
            if (/^hls-.*\.m3u8$/.test(file)) {
              source.destroy();
              return Promise.reject(new Error('the disk is full'));
            }
            return target.write(asset, file, source, options);
          };
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const warnings: string[] = [];
    const log = Object.assign(Object.create(app.log) as typeof app.log, { warn: (_details: object, message: string) => void warnings.push(message) });
    const service = createUploadsService({ ...app.ctx, config, db, log, storage, media: createMediaJobs() }, storage, { instanceId: 'failing-streams', pollMs: 100 });
    const asset = await uploadedVideo();
    service.queue.enqueue(asset);
    await service.queue.idle();
    await service.streamingQueue.idle();
    await service.stopProcessing(0);
    expect(await findUpload(server().db.kysely, asset)).toMatchObject({ video_state: 'ready', hls_heights: null, has_storyboard: 0 });
    expect(warnings).toContain('streaming: could not make the HLS renditions or the storyboard; the MP4 keeps playing');
    const files = await local.list(asset);
    expect(files).toContain('video.mp4');
    expect(files.filter((f) => f.endsWith('.m3u8'))).toEqual([]);
    await discard(asset);
  }, 60_000);

  it('the HLS stage of an instance that died is taken over once its lease runs out, and made once (R-OPS-7)', async () => {
    const asset = newAssetId();
    const at = iso(Date.now());
    const expiry = Date.now() + 1500;
    await new LocalStorage(server().config.mediaDir).write(asset, 'video.mp4', Readable.from([VIDEO]));
    await insertUpload(server().db.kysely, {
      asset_id: asset,
      created_at: at,
      expires_at: iso(Date.now() + HOUR),
      video_state: 'ready',
      duracion: 1,
      stream_state: 'pending',
      attempts: 1,
      claimed_by: 'dead-instance',
      claimed_until: iso(expiry),
      updated_at: at,
    });
    const survivor = await serviceOfInstance('stream-survivor');
    const other = await serviceOfInstance('stream-other');
    await Promise.all([survivor.startProcessing(), other.startProcessing()]);
    try {
      let row = await findUpload(server().db.kysely, asset);
      for (const deadline = Date.now() + 60_000; row?.stream_state === 'pending' && Date.now() < deadline; await sleep(50)) {
        // held by the dead instance until its lease runs out
        if (Date.now() < expiry - 200) expect(row.claimed_by).toBe('dead-instance');
        row = await findUpload(server().db.kysely, asset);
      }
      expect(row).toMatchObject({ stream_state: 'done', claimed_by: null, claimed_until: null, has_storyboard: 1 });
      expect(row!.hls_heights).toMatch(/^\d+(,\d+)*$/);
      const files = await new LocalStorage(server().config.mediaDir).list(asset);
      expect(files).toContain('hls-master.m3u8');
    } finally {
      await Promise.all([survivor.stopProcessing(), other.stopProcessing()]);
    }
  }, 90_000);

  it('a video whose instance died is taken over once its lease runs out, not before', async () => {
    const expiry = Date.now() + 1500;
    const asset = await uploadedVideo({ by: 'dead-instance', until: expiry });
    const survivor = await serviceOfInstance('survivor');
    await survivor.startProcessing();
    try {
      const row = await settled(asset, 60_000);
      expect(row).toMatchObject({ video_state: 'ready', attempts: 2, claimed_by: null });
      // claimed (processing_started_at is the claim's instant) only once the dead instance's lease had run out
      expect(row!.processing_started_at! >= iso(expiry)).toBe(true);
    } finally {
      await survivor.stopProcessing();
    }
  });
});
