import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { components } from '../contract/openapi.gen.ts';
import { createFirstAdmin, type TestUser } from '../tests/utils/accounts.ts';
import { call, describeOnEachDatabase, POSTGRES_URL, type TestServer } from '../tests/utils/server-harness.ts';
import { openDatabase, type Db } from './db/database.ts';
import { testVideoBytes } from './media/ffmpeg.ts';
import { makeForeignVideo } from './media/foreign-videos.ts';
import { findUpload } from './modules/uploads/uploads.repository.ts';
import { startProcessingWorker, type ProcessingWorker } from './processing-worker.ts';

type UploadSession = components['schemas']['UploadSession'];
type UploadState = components['schemas']['UploadThumbnailSession'];

/**
 * Processing split from serving: web instances started with PROCESSING=off receive uploads and leave
 * them in `processing`; workers (`npm run worker`, or the same factory in this process) on the same
 * database and media directory process them, and take over the video of a worker that was killed.
 */

let VIDEO: Buffer;
/** A WebM whose rewrite lasts a few seconds: long enough to kill a worker in the middle of it. */
let WEBM: Buffer;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-worker-test-'));
  [VIDEO] = await Promise.all([
    testVideoBytes({ seconds: 1, pattern: 'testsrc2', toneHz: 440, width: 160, height: 96 }),
    makeForeignVideo(path.join(dir, 'recording.webm'), 'webm', 12, { width: 1280, height: 720 }),
  ]);
  WEBM = fs.readFileSync(path.join(dir, 'recording.webm'));
  fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The media programs (ffmpeg, ffprobe) a process started: their ids. */
function mediaProgramsOf(pid: number): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    // ps answers 1 when there are none
  }
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+ff(mpeg|probe)/.exec(line)?.[1])
    .filter((found): found is string => found !== undefined)
    .map(Number);
}

describeOnEachDatabase('processing on workers, web instances with PROCESSING=off', () => ({ PROCESSING: 'off' }), (server: () => TestServer) => {
  const opened: Db[] = [];
  const workers: ProcessingWorker[] = [];
  const spawned: ChildProcess[] = [];
  let admin: TestUser;

  beforeAll(async () => {
    admin = await createFirstAdmin(server());
  });
  afterAll(async () => {
    for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const worker of workers) await worker.stop(0);
    for (const db of opened) await db.close();
  });

  /** The database as another process sees it: the test server's SQLite file, or its PostgreSQL schema in DATABASE_URL. */
  async function databaseUrl(): Promise<string | undefined> {
    const { db } = server();
    if (db.dialect !== 'postgres') return undefined;
    const schema = (await sql<{ name: string }>`select current_schema() as name`.execute(db.kysely)).rows[0]!.name;
    return `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }

  /** A worker in this process, on a connection of its own, as `npm run worker` starts it. */
  async function inProcessWorker(name: string): Promise<ProcessingWorker> {
    const url = await databaseUrl();
    const db = await openDatabase({ databaseUrl: url, dataDir: server().config.dataDir });
    opened.push(db);
    const worker = await startProcessingWorker({ config: server().config, db, log: server().app.log, processing: { instanceId: name, pollMs: 100, leaseMs: 3000 } });
    workers.push(worker);
    return worker;
  }

  /** A video uploaded whole through the API of the web instance: answered 204, complete. */
  async function upload(bytes: Buffer, contentType: string): Promise<string> {
    const created = await call(server().app, { method: 'POST', url: '/api/uploads', token: admin.session, payload: { video: { contentType, size: bytes.length } } });
    expect(created.statusCode, created.body).toBe(201);
    const session = created.json() as UploadSession;
    const put = await server().app.inject({ method: 'PUT', url: session.video.uploadUrl, headers: { 'content-type': contentType }, payload: bytes });
    expect(put.statusCode, put.body).toBe(204);
    return session.assetId;
  }
  const state = async (asset: string) => (await call(server().app, { method: 'GET', url: `/api/uploads/${asset}`, token: admin.session })).json() as UploadState;
  async function settled(asset: string, withinMs: number): Promise<UploadState> {
    for (const deadline = Date.now() + withinMs; Date.now() < deadline; await sleep(100)) {
      const now = await state(asset);
      if (now.estado !== 'processing') return now;
    }
    throw new Error(`${asset} was not processed within ${withinMs} ms`);
  }

  it('a web instance with PROCESSING=off leaves an upload processing, untouched, and a worker on the same database makes it ready (R-OPS-5, R-OPS-6)', async () => {
    const asset = await upload(VIDEO, 'video/mp4');
    // nothing here claims it or starts ffmpeg, however long it waits: no queue, no poll
    for (let i = 0; i < 6; i += 1) {
      expect(await state(asset)).toMatchObject({ estado: 'processing', procesado: null });
      expect(await findUpload(server().db.kysely, asset)).toMatchObject({ claimed_by: null, attempts: 0 });
      expect(mediaProgramsOf(process.pid), 'no ffmpeg runs in the web instance').toEqual([]);
      await sleep(100);
    }

    const worker = await inProcessWorker('worker-one');
    try {
      expect(await settled(asset, 60_000)).toMatchObject({ estado: 'ready', error: null, recibido: VIDEO.length });
      // the worker also makes the renditions, under their own lease (R-OPS-7), and then holds nothing
      let row = await findUpload(server().db.kysely, asset);
      for (const deadline = Date.now() + 60_000; row?.stream_state === 'pending' && Date.now() < deadline; await sleep(100)) row = await findUpload(server().db.kysely, asset);
      expect(row).toMatchObject({ attempts: 1, has_preview: 1, has_thumbnail: 1, stream_state: 'done', claimed_by: null });
      expect(row?.hls_heights).toBeTruthy();
    } finally {
      await worker.stop();
    }
  });

  it('a killed worker process stops renewing its lease, and another worker takes its video over once the lease runs out (R-OPS-6)', async () => {
    const url = await databaseUrl();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'worker.ts')], {
      env: { ...process.env, DATA_DIR: server().config.dataDir, LOG_LEVEL: 'info', PROCESSING_LEASE_SECONDS: '10', ...(url ? { DATABASE_URL: url } : { DATABASE_URL: '' }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    spawned.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let instanceId: string | undefined;
    for (const deadline = Date.now() + 30_000; !instanceId && Date.now() < deadline; await sleep(100)) {
      instanceId = /"instanceId":"([^"]+)"[^\n]*"msg":"worker: processing videos"/.exec(output)?.[1];
    }
    expect(instanceId, `the worker started:\n${output}`).toBeDefined();
    expect(output, 'it says which ffmpeg it runs').toMatch(/"ffmpeg":"[^"]+"[^\n]*"version":"ffmpeg version [^"]+"[^\n]*"msg":"media tools"/);

    const asset = await upload(WEBM, 'video/webm');
    let row;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(50)) {
      row = await findUpload(server().db.kysely, asset);
      if (row?.claimed_by === instanceId && row?.processing_progress !== null) break;
    }
    expect(row, 'the rewrite started on the spawned worker').toMatchObject({ claimed_by: instanceId, video_state: 'processing', attempts: 1 });
    // the machine dies: the worker and the media programs it runs, at once, without giving anything up
    const programs = mediaProgramsOf(child.pid!);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    for (const pid of programs) process.kill(pid, 'SIGKILL');
    await exited;
    const heldUntil = (await findUpload(server().db.kysely, asset))!.claimed_until!;
    expect(heldUntil > new Date().toISOString(), 'its lease still runs').toBe(true);

    const survivor = await inProcessWorker('survivor');
    expect(await settled(asset, 90_000)).toMatchObject({ estado: 'ready', error: null });
    await survivor.stop();
    const done = (await findUpload(server().db.kysely, asset))!;
    expect(done).toMatchObject({ attempts: 2, claimed_by: null });
    // taken over only once the dead worker's lease had run out
    expect(done.processing_started_at! >= heldUntil).toBe(true);
  }, 150_000);

  it('a worker stopped with SIGTERM finishes or gives up the video it was processing and exits 0 (R-OPS-6)', async () => {
    const url = await databaseUrl();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'worker.ts')], {
      env: { ...process.env, DATA_DIR: server().config.dataDir, LOG_LEVEL: 'info', DATABASE_URL: url ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    spawned.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (const deadline = Date.now() + 30_000; !output.includes('worker: processing videos') && Date.now() < deadline; ) await sleep(100);
    expect(output).toContain('worker: processing videos');
    const asset = await upload(WEBM, 'video/webm');
    let row;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(50)) {
      row = await findUpload(server().db.kysely, asset);
      if (row?.claimed_by && row.processing_progress !== null) break;
    }
    expect(row?.claimed_by, 'the worker holds the video').toMatch(/:\d+:/);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    expect(output).toContain('worker: stopping');
    // finished within the 5 s it waits for its jobs, or left, unharmed and unclaimed, for the next worker at once
    const after = await findUpload(server().db.kysely, asset);
    expect(after).toMatchObject({ claimed_by: null, claimed_until: null, error: null });
    // (a rewrite left unfinished is said so; once ready, its renditions' stage may be left pending too)
    if (after!.video_state === 'processing') expect(output).toContain('left unfinished videos to another instance');
    else expect(after).toMatchObject({ video_state: 'ready', stream_state: expect.stringMatching(/^(pending|done)$/) });
  }, 60_000);
});
