/**
 * How fast does the product serve a video to players that seek? The same real H.264 MP4 (made once
 * with ffmpeg, ~75 MB, kept in os.tmpdir() for the next runs) served
 *  - by the product: the real app (buildApp, listening on 127.0.0.1) in a child process, through the
 *    file's signed media location (GET /api/media/{id}/video.mp4?expires=…&signature=…), from its
 *    local media directory, each request checked (signature, file, conditions, range) as a browser's;
 *  - by Debian's nginx (/usr/sbin/nginx, `apt-get install -y nginx`) from the same file on disk, with
 *    its own configuration in a temporary directory: one worker process (the product is one Node
 *    process), sendfile on, as Debian ships it; killed at the end.
 * Both are loaded by a small node:http client, 50 keep-alive connections, 1 MiB Range requests: random ones anywhere in the
 * file (seeking) and sequential ones (each connection reads the file from the start onwards, 1 MiB
 * at a time, as a player does). Every 206 answer is counted; any other status fails the run.
 * Rounds alternate the two servers so that a noisy neighbour hurts both alike. Prints the
 * throughputs (MB/s, 10^6 bytes of bodies) with median and spread, each server's CPU time per GB served
 * (from /proc: steadier than the throughput on a busy machine), and the product's share of
 * nginx's per pattern (goal ≥ 70 %). Local only, bounded: it stops by itself and removes its files
 * (not the cached video).
 *
 *   npx tsx bench/media-range.ts [rounds, default 3] [seconds per run, default 5]
 *   BENCH_CPU_PROF=<dir> has the product's process write a CPU profile there (node --cpu-prof).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { mediaTools } from '../server/media/ffmpeg.ts';
import { mediaUrl } from '../server/media/signed-urls.ts';
import { builtBuildApp, freePort } from './built-server.ts';
import { forkAndWait, stopChild } from './child-process.ts';
import { formatRatio, formatSummary, markdownTable, reportSection, summarize } from './report.ts';

const HARD_LIMIT_MS = 8 * 60_000;
const NGINX = '/usr/sbin/nginx';
const CONNECTIONS = 50;
const RANGE = 1024 * 1024;
const MB = 1e6;
const GOAL = 0.7;
const ASSET = 'benchmediarange01';
/** 60 s of 1280×720 noise over a test pattern at 10 Mbit/s: ~75 MB that compresses no further. */
const VIDEO_SECONDS = 60;
const VIDEO_FILE = path.join(os.tmpdir(), `tao-bench-media-range-${VIDEO_SECONDS}s.mp4`);

const run = promisify(execFile);

// ── the product, in a child process ─────────────────────────────────────────────────────────────

async function serve(dataDir: string): Promise<void> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', CLIENT_DIR: path.join(dataDir, 'no-client'), HOST: '127.0.0.1', PORT: '0' });
  const buildApp = await builtBuildApp();
  const app = await buildApp({ config, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  // The file is where the local storage keeps an asset's video; the media route reads storage only.
  const target = path.join(config.mediaDir, ASSET, 'video.mp4');
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(VIDEO_FILE, target);
  process.send!({ port: (app.server.address() as { port: number }).port, url: mediaUrl(app.ctx.secrets.urlKey, ASSET, 'video.mp4') });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}

const startProduct = (dataDir: string) => forkAndWait<{ port: number; url: string }>(import.meta.filename, ['serve', dataDir], process.env.BENCH_CPU_PROF ? { execArgv: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] } : {});
const stopProduct = (child: ChildProcess) => stopChild(child);

// ── nginx ───────────────────────────────────────────────────────────────────────────────────────

async function ensureNginx(): Promise<void> {
  if (fs.existsSync(NGINX)) return;
  console.log('nginx is missing: apt-get install -y nginx');
  await run('apt-get', ['install', '-y', 'nginx'], { timeout: 5 * 60_000 });
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} is still missing after apt-get install nginx`);
}

async function startNginx(dir: string): Promise<{ child: ChildProcess; port: number }> {
  await ensureNginx();
  const port = await freePort();
  const root = path.join(dir, 'www');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  fs.symlinkSync(VIDEO_FILE, path.join(root, 'video.mp4'));
  const config = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    config,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  types { video/mp4 mp4; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`,
  );
  // nginx's worker runs as nobody: it must reach the file (mkdtemp makes 0700 directories).
  for (let at = root; at.startsWith(os.tmpdir()) && at !== os.tmpdir(); at = path.dirname(at)) fs.chmodSync(at, 0o755);
  const child = spawn(NGINX, ['-p', dir, '-c', config, '-e', path.join(dir, 'logs/error.log')], { stdio: 'ignore' });
  const errorLog = () => fs.readFileSync(path.join(dir, 'logs/error.log'), 'utf8').trim();
  const deadline = Date.now() + 10_000;
  let last = 'no answer';
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${errorLog()}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/video.mp4`, { method: 'HEAD' });
        if (res.ok) break;
        last = `HTTP ${res.status}`;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`nginx did not serve the video within 10 s (${last}): ${errorLog()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stopNginx(child);
    throw error;
  }
  return { child, port };
}

/** Graceful: SIGQUIT makes the master stop its worker. */
const stopNginx = (child: ChildProcess) => stopChild(child, 'SIGQUIT');

// ── the video ───────────────────────────────────────────────────────────────────────────────────

async function ensureVideo(): Promise<number> {
  if (!fs.existsSync(VIDEO_FILE)) {
    const started = Date.now();
    const partial = `${VIDEO_FILE}.${process.pid}.partial.mp4`;
    console.log(`Making a ${VIDEO_SECONDS} s H.264 video in ${VIDEO_FILE} (once)…`);
    await run(
      mediaTools().ffmpeg,
      [
        '-hide_banner', '-loglevel', 'error', '-y',
        '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=25:duration=${VIDEO_SECONDS},noise=alls=30:allf=t`,
        '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '10M', '-maxrate', '10M', '-bufsize', '20M', '-pix_fmt', 'yuv420p',
        '-movflags', '+faststart', partial,
      ],
      { timeout: 5 * 60_000 },
    );
    fs.renameSync(partial, VIDEO_FILE);
    console.log(`  made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  return fs.statSync(VIDEO_FILE).size;
}

// ── load ────────────────────────────────────────────────────────────────────────────────────────

type Pattern = 'random' | 'sequential';

/** One ranged GET; answers the body's length (the body is read and dropped, as a socket would). */
function get(agent: http.Agent, port: number, url: string, start: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, agent, headers: { range: `bytes=${start}-${start + RANGE - 1}` } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => {
        if (res.statusCode !== 206 || bytes !== RANGE) reject(new Error(`${url}: HTTP ${res.statusCode}, ${bytes} bytes for a 1 MiB range`));
        else resolve(bytes);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * CONNECTIONS keep-alive connections, each asking for the next range as soon as the last one has
 * arrived, for `seconds`; answers MB/s of bodies. (A small client on node:http rather than autocannon,
 * whose parser caps at a few tens of MB/s with 1 MiB bodies: it would measure itself.)
 */
interface Load {
  /** MB/s of bodies */
  throughput: number;
  /** CPU seconds the server spent per GB (10^9 bytes) of bodies */
  cpuPerGb: number;
}

/** CPU time (user + system, seconds) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime: clock ticks (100 per second)
}

/** The processes that serve: the product's one process; nginx's worker(s), the children of its master. */
function servingPids(pid: number, children: boolean): number[] {
  if (!children) return [pid];
  return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

async function load(port: number, url: string, size: number, pattern: Pattern, seconds: number, pids: number[]): Promise<Load> {
  const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const cpuBefore = cpu();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const ranges = Math.floor(size / RANGE);
  let bytes = 0;
  const started = process.hrtime.bigint();
  const end = Date.now() + seconds * 1000;
  const connection = async () => {
    // sequential: each connection starts somewhere and reads on, wrapping at the end of the file
    let next = crypto.randomInt(0, ranges);
    while (Date.now() < end) {
      const start = pattern === 'random' ? crypto.randomInt(0, size - RANGE + 1) : (next++ % ranges) * RANGE;
      const got = await get(agent, port, url, start); // (not `bytes += await …`, which would add to a stale total)
      bytes += got;
    }
  };
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  } finally {
    agent.destroy();
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return { throughput: bytes / MB / elapsed, cpuPerGb: (cpu() - cpuBefore) / (bytes / 1e9) };
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const seconds = Number(process.argv[3] ?? 5);
  const guard = setTimeout(() => {
    console.error('benchmark took too long: stopping');
    process.exit(2);
  }, HARD_LIMIT_MS);
  guard.unref();

  const size = await ensureVideo();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-media-'));
  let product: ChildProcess | undefined;
  let nginx: ChildProcess | undefined;
  try {
    const started = await startProduct(path.join(dir, 'data'));
    product = started.child;
    const ng = await startNginx(path.join(dir, 'nginx'));
    nginx = ng.child;
    const nginxVersion = (await run(NGINX, ['-v'])).stderr.trim().replace(/^nginx version: /, '');
    console.log(`node ${process.version}, ${os.cpus().length} cores, ${nginxVersion}; ${(size / MB).toFixed(1)} MB video; ${rounds} round(s) of ${seconds} s per server and pattern`);

    type Figures = { product: number[]; nginx: number[]; productCpu: number[]; nginxCpu: number[] };
    const figures: Record<Pattern, Figures> = {
      random: { product: [], nginx: [], productCpu: [], nginxCpu: [] },
      sequential: { product: [], nginx: [], productCpu: [], nginxCpu: [] },
    };
    const productPids = servingPids(product.pid!, false);
    const nginxPids = servingPids(nginx.pid!, true);
    // warm up both (page cache, JIT)
    await load(started.port, started.url, size, 'random', 1, productPids);
    await load(ng.port, '/video.mp4', size, 'random', 1, nginxPids);
    for (let round = 1; round <= rounds; round++) {
      for (const pattern of ['random', 'sequential'] as const) {
        const ours = await load(started.port, started.url, size, pattern, seconds, productPids);
        const theirs = await load(ng.port, '/video.mp4', size, pattern, seconds, nginxPids);
        const f = figures[pattern];
        f.product.push(ours.throughput);
        f.nginx.push(theirs.throughput);
        f.productCpu.push(ours.cpuPerGb);
        f.nginxCpu.push(theirs.cpuPerGb);
        console.log(
          `round ${round}, ${pattern.padEnd(10)}: product ${ours.throughput.toFixed(0)} MB/s (${ours.cpuPerGb.toFixed(2)} CPU s/GB), ` +
            `nginx ${theirs.throughput.toFixed(0)} MB/s (${theirs.cpuPerGb.toFixed(2)} CPU s/GB): ${((ours.throughput / theirs.throughput) * 100).toFixed(0)} %`,
        );
      }
    }

    const rows = (['random', 'sequential'] as const).map((pattern) => {
      const f = figures[pattern];
      const ours = summarize(f.product);
      const theirs = summarize(f.nginx);
      return [
        `${pattern} 1 MiB ranges`,
        formatSummary(ours, 0, 'MB/s'),
        formatSummary(theirs, 0, 'MB/s'),
        formatRatio(ours.median / theirs.median, { atLeast: GOAL }),
        `${summarize(f.productCpu).median.toFixed(2)} / ${summarize(f.nginxCpu).median.toFixed(2)}`,
      ];
    });
    reportSection(
      'media-range',
      'Video byte ranges: product vs nginx',
      `A ${(size / MB).toFixed(1)} MB H.264 MP4 (${VIDEO_SECONDS} s, 1280×720, 10 Mbit/s), requested as 1 MiB Range requests by ` +
        `a node:http client over ${CONNECTIONS} keep-alive connections for ${seconds} s per run: random ranges (seeking) and sequential ones (each ` +
        `connection reading on, as a player does). The product answers through the signed media location (signature, ` +
        `file, conditions and range checked per request); ${nginxVersion} serves the same file from disk with one worker ` +
        `(the product is one Node process) and sendfile. MB/s = 10^6 bytes of bodies per second; the share is of the ` +
        `medians. The server's CPU time per GB served (median; the product's process, nginx's worker) is steadier than ` +
        `the throughput on a busy machine, where the client competes for the same cores.\n\n` +
        markdownTable(['pattern', 'product', 'nginx', 'product / nginx', 'CPU s per GB: product / nginx'], rows),
    );
  } finally {
    if (product) await stopProduct(product);
    if (nginx) await stopNginx(nginx);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, arg] = process.argv.slice(2);
if (mode === 'serve') await serve(arg!);
else await main();
