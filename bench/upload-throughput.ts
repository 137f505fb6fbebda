/**
 * How fast does a video upload reach the disk, and what does it cost the server's memory? Writes a
 * 1 GiB file (an MP4 `ftyp` box, so the content check passes, then repeated random bytes: not a real
 * video, so its processing fails afterwards, which does not matter here) under os.tmpdir(), then
 * per round:
 *  - copies it on disk twice: a stream copy (`pipeline(createReadStream, createWriteStream)` with
 *    Node's default buffers, flushed to disk at the end: the work a Node process does to copy a file,
 *    the reference of the goal) and `fs.copyFile` followed by fsync (the kernel copies without
 *    passing the bytes through the process: an upper bound no network transfer reaches);
 *  - uploads it with one PUT through a signed location to the real server (buildApp, listening on
 *    127.0.0.1) running in a child process, timed from the request's start to its 204 (stored and
 *    flushed).
 * It prints the throughputs (MB/s, 10^6 bytes), the upload's share of each copy (goal ≥ 70 % of the stream copy)
 * and the server's memory growth during the upload (goal < 100 MB): the child's resident set
 * (VmRSS of /proc/<pid>/status) sampled every 20 ms, its peak minus its value just before the upload.
 * The report gives the median and spread over the rounds; the share is each round's upload over the
 * same round's copy (taken back to back, so a noisy neighbour weighs on both), its median against the goal;
 * the memory is the largest growth of any round.
 * Local only, bounded: it stops by itself and removes its files.
 *
 *   npx tsx bench/upload-throughput.ts [rounds, default 3] [MiB, default 1024]
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '../server/config.ts';
import { now } from '../server/db/database.ts';
import { insertUser } from '../server/modules/accounts/accounts.repository.ts';
import { sessionTokenFor } from '../server/modules/accounts/login.service.ts';
import { builtBuildApp } from './built-server.ts';
import { forkAndWait, stopChild } from './child-process.ts';
import { formatRatio, formatSummary, markdownTable, OWN_GOAL, reportSection, summarize } from './report.ts';

const HARD_LIMIT_MS = 10 * 60_000;
const XSRF = 'bench-xsrf-token-0123456789';
const MB = 1e6;

const configFor = (dataDir: string) =>
  loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', CLIENT_DIR: path.join(dataDir, 'no-client'), HOST: '127.0.0.1', PORT: '0' });

// ── the server, in a child process ──────────────────────────────────────────────────────────────

async function serve(dataDir: string): Promise<void> {
  const buildApp = await builtBuildApp();
  const app = await buildApp({ config: configFor(dataDir), logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const at = now();
  const admin = await insertUser(app.ctx.db.kysely, {
    username: 'bench', username_key: 'bench', nombre: 'bench', email: null, rol: 'admin', organizacion: null,
    password_hash: null, otp_state: 'OTP_ACTIVED', created_at: at, updated_at: at,
  });
  const token = await sessionTokenFor(app.ctx, admin);
  process.send!({ port: (app.server.address() as { port: number }).port, token });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}

const start = (dataDir: string) => forkAndWait<{ port: number; token: string }>(import.meta.filename, ['serve', dataDir]);
const stop = (child: ChildProcess) => stopChild(child);

// ── measuring ───────────────────────────────────────────────────────────────────────────────────

/** Resident memory of a process (bytes), from /proc/<pid>/status. */
function rss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Samples a process's resident memory every 20 ms until stopped; answers the peak. */
function sampleRss(pid: number): () => number {
  let peak = rss(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rss(pid));
  }, 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rss(pid));
  };
}

async function writeTestFile(file: string, bytes: number): Promise<void> {
  const block = crypto.randomBytes(8 * 1024 * 1024);
  // an MP4 `ftyp` box first, so the upload's check of the leading bytes passes
  Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\x02\0isomiso2')]).copy(block);
  const out = fs.createWriteStream(file);
  for (let written = 0; written < bytes; written += block.length) {
    const chunk = block.subarray(0, Math.min(block.length, bytes - written));
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(0)} %`;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function request(port: number, method: string, url: string, headers: Record<string, string>, body?: fs.ReadStream | string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    if (body instanceof fs.ReadStream) body.pipe(req);
    else req.end(body);
  });
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const bytes = Number(process.argv[3] ?? 1024) * 1024 * 1024;
  const guard = setTimeout(() => {
    console.error('benchmark took too long: stopping');
    process.exit(2);
  }, HARD_LIMIT_MS);
  guard.unref();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-upload-'));
  let server: ChildProcess | undefined;
  try {
    const source = path.join(dir, 'source.mp4');
    await writeTestFile(source, bytes);
    const started = await start(path.join(dir, 'data'));
    server = started.child;
    const { port, token } = started;
    const pid = server.pid!;
    console.log(`node ${process.version}, ${os.cpus().length} cores; a ${bytes / 1024 / 1024} MiB file; ${rounds} round(s); server pid ${pid}`);

    const results: { copy: number; copyFile: number; upload: number; growth: number }[] = [];
    for (let round = 1; round <= rounds; round++) {
      const copy = path.join(dir, 'copy.mp4');
      const streamCopy = await timed(() => pipeline(fs.createReadStream(source), fs.createWriteStream(copy, { flush: true })));
      fs.rmSync(copy);
      const copyFile = await timed(async () => {
        await fs.promises.copyFile(source, copy);
        const handle = await fs.promises.open(copy, 'r+');
        await handle.sync(); // durable, as the upload is before it answers
        await handle.close();
      });
      fs.rmSync(copy);

      const created = await request(port, 'POST', '/api/uploads', {
        authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF, 'content-type': 'application/json',
      }, JSON.stringify({ video: { contentType: 'video/mp4', size: bytes } }));
      if (created.status !== 201) throw new Error(`POST /api/uploads answered ${created.status}: ${created.body}`);
      const { video } = JSON.parse(created.body) as { video: { uploadUrl: string } };

      const before = rss(pid);
      const peak = sampleRss(pid);
      let status = 0;
      const upload = await timed(async () => {
        ({ status } = await request(port, 'PUT', video.uploadUrl, { 'content-type': 'video/mp4', 'content-length': String(bytes) }, fs.createReadStream(source, { highWaterMark: 1024 * 1024 })));
      });
      const growth = peak() - before;
      if (status !== 204) throw new Error(`the upload answered ${status}`);
      results.push({ copy: bytes / MB / streamCopy, copyFile: bytes / MB / copyFile, upload: bytes / MB / upload, growth });
      const r = results.at(-1)!;
      console.log(
        `round ${round}: stream copy ${r.copy.toFixed(0)} MB/s, fs.copyFile ${r.copyFile.toFixed(0)} MB/s; upload ${r.upload.toFixed(0)} MB/s = ` +
          `${percent(r.upload / r.copy)} of the stream copy, ${percent(r.upload / r.copyFile)} of fs.copyFile; ` +
          `server memory +${(r.growth / MB).toFixed(1)} MB (VmRSS ${(before / MB).toFixed(0)} → ${((before + r.growth) / MB).toFixed(0)} MB)`,
      );
    }
    const of = (key: 'copy' | 'copyFile' | 'upload') => summarize(results.map((r) => r[key]));
    const share = summarize(results.map((r) => r.upload / r.copy));
    const shareOfCopyFile = summarize(results.map((r) => r.upload / r.copyFile));
    const growth = Math.max(...results.map((r) => r.growth));
    const memoryGoal = `${OWN_GOAL} < 100 MB: ${growth < 100 * MB ? 'met' : 'MISSED'}`;
    console.log(
      `median of ${rounds}: stream copy ${of('copy').median.toFixed(0)} MB/s, fs.copyFile ${of('copyFile').median.toFixed(0)} MB/s, upload ${of('upload').median.toFixed(0)} MB/s: ` +
        `${formatRatio(share.median, { atLeast: 0.7 })} of the stream copy, ${percent(shareOfCopyFile.median)} of fs.copyFile; ` +
        `largest server memory growth ${(growth / MB).toFixed(1)} MB (${memoryGoal})`,
    );
    reportSection(
      'upload-throughput',
      'Upload throughput and server memory',
      `One ${bytes / 1024 / 1024} MiB PUT through a signed upload location to the real server (listening on 127.0.0.1, in a child ` +
        `process), timed to its 204 (stored and flushed), against copying the same file on disk in the same round: a Node stream ` +
        `copy flushed at the end (the goal's reference) and \`fs.copyFile\` + fsync (the kernel's copy, an upper bound). ` +
        `MB/s = 10^6 bytes per second; ${rounds} rounds. The share is each round's upload over that round's copy; the memory ` +
        `is the server's largest resident-set growth during an upload (VmRSS sampled every 20 ms).\n\n` +
        markdownTable(
          ['figure', 'result'],
          [
            ['upload', formatSummary(of('upload'), 0, 'MB/s')],
            ['stream copy on disk', formatSummary(of('copy'), 0, 'MB/s')],
            ['fs.copyFile + fsync', formatSummary(of('copyFile'), 0, 'MB/s')],
            ['upload / stream copy', `${formatRatio(share.median, { atLeast: 0.7 })}; rounds ${percent(share.min)}–${percent(share.max)}`],
            ['upload / fs.copyFile', formatRatio(shareOfCopyFile.median, {})],
            ['server memory growth during an upload (largest)', `${(growth / MB).toFixed(1)} MB (${memoryGoal})`],
          ],
        ),
    );
  } finally {
    if (server) await stop(server);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, arg] = process.argv.slice(2);
if (mode === 'serve') await serve(arg!);
else await main();
