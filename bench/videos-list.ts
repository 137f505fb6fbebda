/**
 * How fast are the video API's most frequent requests? Fills a temporary SQLite database with 10,000
 * videos (tags, ratings, some not visible to all), starts the real server (buildApp, listening on
 * 127.0.0.1, a random port, logging as shipped) in a child process and loads it with autocannon (50 connections):
 * GET /api/videos without filters (also as a browser asks, accepting brotli: the answer then goes
 * compressed), with filters (`tag=in:…&score=gte:3`) and with a text search (`q=…`);
 * GET /api/videos/{id} (one user opening 100 videos in turn); PATCH /api/videos/{id} with the
 * user's rating (`/puntuacion`, 100 videos in turn, values 1–5). For each GET case a bare node:http
 * server (another child process) answers the very same status, headers and bytes for each path, and
 * is loaded the same way: its requests/s are the physical limit of this machine for those answers,
 * and the ratio is what the API (security, validation, queries, signing, JSON) leaves of it (a
 * figure, no longer a goal: the list's goal is bench/list-load.ts's p99 under an open-loop load). Each case runs several times, the API and the bare server in turn, so medians and spreads
 * are over runs. Then, in-process and one request at a time (less noisy on a shared machine),
 * `app.inject` calls per list case, repeated (the same answer again) and each after a write (an
 * administrator's PATCH of another video, so nothing remembered for the list can be reused).
 * Reports through bench/report.ts (sections `videos-list` and `video-detail`). Local only, bounded:
 * it stops by itself and removes its files.
 *
 *   npx tsx bench/videos-list.ts [seconds per run, default 4] [runs per case, default 3] [sequential requests, default 40]
 *   BENCH_CASES=first,browser,filtered,search,detail,rating runs only those load cases;
 *   BENCH_CPU_PROF=<dir> has the API server and the bare one each write a CPU profile there (node --cpu-prof);
 *   BENCH_SERVER_LOG_LEVEL=warn|silent|… the API server's log level (default info, as shipped: a line per request, to a file);
 *   BENCH_KEEP=1 keeps the database and prints where; BENCH_HTTP=0 skips the autocannon runs;
 *   BENCH_DATABASE_URL=postgres://… runs the in-process part on PostgreSQL (in a schema of its own) instead.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { buildApp } from '../server/app.ts';
import { decoded } from '../server/plugins/compression.ts';
import { loadConfig, type Config } from '../server/config.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrator.ts';
import { insertUser } from '../server/modules/accounts/accounts.repository.ts';
import { sessionTokenFor } from '../server/modules/accounts/login.service.ts';
import { ensureTags } from '../server/modules/etiquetas/etiquetas.repository.ts';
import { spanishSentences } from '../server/modules/statistics/generate.ts';
import { seededRandom as random } from '../server/seeded-random.ts';
import { refreshSearchIndex } from '../server/modules/videos/videos.repository.ts';
import { loadSecrets } from '../server/secrets.ts';
import { builtBuildApp } from './built-server.ts';
import { forkAndWait, stopChild } from './child-process.ts';
import { formatRatio, formatSummary, markdownTable, reportSection, summarize } from './report.ts';
import { benchVideoRow } from './bench-videos.ts';

const VIDEOS = 10_000;
const CONNECTIONS = 50;
const HARD_LIMIT_MS = 5 * 60_000;
/** XSRF double submit of the PATCH requests */
const XSRF = 'bench-xsrf-0123456789';

const configFor = (dataDir: string): Config =>
  loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIR: path.join(dataDir, 'no-client'), HOST: '127.0.0.1', PORT: '0' });

// ── child processes: the real server, the bare server ──────────────────────────────────────────

interface Canned {
  status: number;
  headers: Record<string, string>;
  /** the body as sent (compressed when the request accepted it), base64 for the IPC message */
  body64: string;
}

/** The JSON text of a canned answer, decompressed when it was sent compressed. */
function jsonOf(answer: Canned): string {
  return decoded(Buffer.from(answer.body64, 'base64'), answer.headers['content-encoding']).toString('utf8');
}

/** The server as shipped: pino at LOG_LEVEL's default (info, a line per request) on its standard output, here a file (start). */
const SERVER_LOG_LEVEL = process.env.BENCH_SERVER_LOG_LEVEL ?? 'info';

async function serveApp(dataDir: string): Promise<void> {
  const buildBuiltApp = await builtBuildApp();
  const app = await buildBuiltApp({ config: { ...configFor(dataDir), logLevel: SERVER_LOG_LEVEL } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
  answerCpuTime();
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}

/** Answers the parent's 'cpu' messages with the CPU time (µs) this process has used. */
function answerCpuTime(): void {
  process.on('message', (message: unknown) => {
    if (message !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send!({ cpu: user + system });
  });
}

/**
 * Answers each path with its canned answer (status, headers and body as the API sent them), the
 * body encoded once: the least a server can do to send those bytes.
 */
function serveBare(): void {
  let canned = new Map<string, Canned & { bytes: Buffer }>();
  const server = http.createServer((req, res) => {
    const answer = canned.get(req.url!);
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.bytes);
  });
  process.once('message', (message: Record<string, Canned>) => {
    canned = new Map(Object.entries(message).map(([url, answer]) => [url, { ...answer, bytes: Buffer.from(answer.body64, 'base64') }]));
    server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
    answerCpuTime();
  });
  process.on('disconnect', () => server.close(() => process.exit(0)));
}

interface Server {
  child: ChildProcess;
  port: number;
}

/** The CPU time (µs) a server process has used so far. */
function cpuTimeOf(server: Server): Promise<number> {
  return new Promise((resolve) => {
    const listener = (m: { cpu?: number }) => {
      if (m.cpu === undefined) return;
      server.child.off('message', listener);
      resolve(m.cpu);
    };
    server.child.on('message', listener);
    server.child.send('cpu');
  });
}

function start(mode: 'serve' | 'bare', arg: string, message?: Record<string, Canned>): Promise<Server> {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const stdoutFile = mode === 'serve' ? path.join(arg, 'server.log') : undefined;
  return forkAndWait<{ port: number }>(import.meta.filename, [mode, arg], { execArgv: profile, message, ...(stdoutFile ? { stdoutFile } : {}) });
}

const stop = (child: ChildProcess) => stopChild(child);

// ── the data ────────────────────────────────────────────────────────────────────────────────────

const TAGS = ['Formación', 'Seguridad', 'Eventos', 'Ventas', 'Recursos humanos', 'Dirección', 'Tecnología', 'Calidad',
  'Logística', 'Marketing', 'Innovación', 'Sostenibilidad', 'Clientes', 'Comités', 'Entrevistas', 'Talleres', 'Novedades',
  'Tutoriales', 'Campañas', 'Jornadas'];

interface Filled {
  /** a user of organisation TAO */
  token: string;
  /** an administrator (the writes of the sequential runs) */
  adminToken: string;
  tagIds: number[];
}

async function fill(db: Db, config: Config): Promise<Filled> {
  const at = new Date().toISOString();
  const next = random(42); // the same library every run
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const sentence = spanishSentences(next);

  const [token, adminToken] = await db.kysely.transaction().execute(async (trx) => {
    const user = await insertUser(trx, {
      username: 'bench', username_key: 'bench', nombre: 'Bench', email: null, rol: 'user', organizacion: 'TAO',
      password_hash: null, otp_state: 'OTP_ACTIVED', created_at: at, updated_at: at,
    });
    const admin = await insertUser(trx, {
      username: 'bench-admin', username_key: 'bench-admin', nombre: 'Bench admin', email: null, rol: 'admin', organizacion: null,
      password_hash: null, otp_state: 'OTP_ACTIVED', created_at: at, updated_at: at,
    });
    const tags = await ensureTags(trx, TAGS, at);
    const start = Date.now() - 3 * 365 * 86_400_000;
    for (let first = 0; first < VIDEOS; first += 500) {
      const rows = Array.from({ length: Math.min(500, VIDEOS - first) }, (_, k) => {
        const i = first + k;
        return benchVideoRow(next, sentence, i, {
          id: `bench_asset_${String(i).padStart(6, '0')}`,
          organizacion: () => pick(['TAO', 'Otra', null]),
          fechaAlta: () => new Date(start + i * 9_000_000).toISOString(),
          at,
        });
      });
      const inserted = await trx.insertInto('videos').values(rows).returning('id').execute();
      const links = inserted.flatMap(({ id }) => {
        const own = new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(tags).id));
        return [...own].map((tag_id) => ({ video_id: id, tag_id }));
      });
      await trx.insertInto('video_tags').values(links).execute();
      await refreshSearchIndex(trx, db.dialect, inserted.map((r) => r.id));
    }
    const ctx = { config, db, secrets: loadSecrets(config) };
    return Promise.all([sessionTokenFor(ctx, user), sessionTokenFor(ctx, admin)]);
  });
  // What autovacuum would have done on PostgreSQL by then (index-only scans need the visibility map).
  await sql`${sql.raw(db.dialect === 'postgres' ? 'vacuum analyze' : 'analyze')}`.execute(db.kysely);
  const tagIds = (await db.kysely.selectFrom('tags').select('id').orderBy('id').limit(3).execute()).map((t) => t.id);
  return { token, adminToken, tagIds };
}

// ── measuring over HTTP ─────────────────────────────────────────────────────────────────────────

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time of the server process per answered request, µs */
  cpu: number;
}

/** One load case: the requests (paths in turn), and whether a bare server can stand for it. */
interface LoadCase {
  id: string;
  name: string;
  method: 'GET' | 'PATCH';
  paths: string[];
  /** PATCH bodies, taken in turn */
  bodies?: string[];
  headers: Record<string, string>;
  /** compare with a bare server sending the same answers (GET only) */
  bare: boolean;
}

/** Runs autocannon for `seconds` over the case's requests; throws on any error or non-2xx answer. */
async function load(server: Server, c: LoadCase, seconds: number): Promise<Figures> {
  const { port } = server;
  const cpuBefore = await cpuTimeOf(server);
  let next = 0;
  const requests: autocannon.Request[] = [{
    setupRequest: (request) => {
      const i = next++;
      return {
        ...request,
        path: c.paths[i % c.paths.length]!,
        ...(c.bodies ? { body: c.bodies[Math.floor(i / c.paths.length) % c.bodies.length]! } : {}),
      };
    },
  }];
  const r = await autocannon({ url: `http://127.0.0.1:${port}`, method: c.method, headers: c.headers, connections: CONNECTIONS, duration: seconds, requests });
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${c.name} on port ${port}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  const cpu = (await cpuTimeOf(server)) - cpuBefore;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpu: cpu / r.requests.total };
}

/** The API's answer to one GET, as autocannon would get it (no Accept-Encoding: not compressed). */
function cannedAnswer(port: number, requestPath: string, headers: Record<string, string>): Promise<Canned> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: requestPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const keep: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name) && typeof value === 'string') keep[name] = value;
        }
        const answer = { status: res.statusCode!, headers: keep, body64: Buffer.concat(chunks).toString('base64') };
        if (answer.status !== 200) reject(new Error(`GET ${requestPath}: ${answer.status} ${jsonOf(answer)}`));
        else resolve(answer);
      });
    }).on('error', reject);
  });
}

interface CaseResult {
  c: LoadCase;
  api: Figures[];
  bare: Figures[];
  /** what one answer is (bytes, videos) */
  answer: string;
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

function printRun(name: string, who: string, f: Figures): void {
  console.log(`${name.padEnd(26)} ${who.padEnd(5)} ${fmt(f.rps).padStart(7)} req/s  p50 ${fmt(f.p50, 1).padStart(6)} ms  p99 ${fmt(f.p99, 1).padStart(6)} ms  CPU ${fmt(f.cpu).padStart(5)} µs/request`);
}

/**
 * A case: the API warmed up (1 s), its answers canned for a bare server, then `runs` runs of the
 * API and of the bare server in turn (so both meet the same moments of a shared machine).
 */
async function measureCase(api: Server, c: LoadCase, seconds: number, runs: number, children: ChildProcess[]): Promise<CaseResult> {
  const apiPort = api.port;
  await load(api, c, 1);
  let answer = '';
  let bare: Server | undefined;
  if (c.bare) {
    const canned: Record<string, Canned> = {};
    for (const p of c.paths) canned[p] = await cannedAnswer(apiPort, p, c.headers);
    const first = canned[c.paths[0]!]!;
    const json = jsonOf(first);
    const parsed = JSON.parse(json) as unknown;
    const sent = Buffer.from(first.body64, 'base64').length;
    answer = (first.headers['content-encoding'] ? `${sent} bytes (${first.headers['content-encoding']}) of ${Buffer.byteLength(json)}` : `${sent} bytes`) +
      (Array.isArray(parsed) ? `, ${parsed.length} of ${first.headers['x-total-count']} videos` : '');
    bare = await start('bare', '', canned);
    children.push(bare.child);
    await load(bare, c, 1);
  }
  const result: CaseResult = { c, api: [], bare: [], answer };
  for (let run = 0; run < runs; run++) {
    const figures = await load(api, c, seconds);
    result.api.push(figures);
    printRun(c.name, 'api', figures);
    if (bare) {
      const base = await load(bare, c, seconds);
      result.bare.push(base);
      printRun(c.name, 'bare', base);
    }
  }
  if (bare) await stop(bare.child);
  return result;
}

const median = (list: Figures[], key: keyof Figures) => summarize(list.map((f) => f[key])).median;

/** Table rows of the cases: requests/s of the API and of the bare server (median, range, spread), ratio, latencies. */
function loadTable(results: CaseResult[]): string {
  const rows = results.map(({ c, api, bare, answer }) => {
    const ratio = bare.length ? median(api, 'rps') / median(bare, 'rps') : undefined;
    const ratios = bare.length ? summarize(api.map((f, i) => f.rps / bare[i]!.rps)) : undefined;
    return [
      c.name,
      formatSummary(summarize(api.map((f) => f.rps)), 0),
      bare.length ? formatSummary(summarize(bare.map((f) => f.rps)), 0) : '—',
      ratio === undefined ? '—' : `${formatRatio(ratio, {})}; per run ${(ratios!.min * 100).toFixed(0)}–${(ratios!.max * 100).toFixed(0)} %`,
      `${fmt(median(api, 'p50'), 1)} / ${fmt(median(api, 'p99'), 1)}`,
      bare.length ? `${fmt(median(bare, 'p50'), 1)} / ${fmt(median(bare, 'p99'), 1)}` : '—',
      bare.length ? `${fmt(median(api, 'cpu'))} / ${fmt(median(bare, 'cpu'))} (${formatRatio(median(bare, 'cpu') / median(api, 'cpu'), {})})` : fmt(median(api, 'cpu')),
      answer || '—',
    ];
  });
  return markdownTable(
    ['case', 'API req/s', 'bare node:http req/s', 'API ÷ bare (req/s)', 'API p50 / p99 ms', 'bare p50 / p99 ms', 'server CPU µs/request: API / bare (bare ÷ API)', 'answer'],
    rows,
  );
}

/** The load cases (those BENCH_CASES names, or all). */
function loadCases(filled: Filled, detailIds: number[]): LoadCase[] {
  // as the page sends them: the session token, and the XSRF cookie the first answer set
  const auth = { authorization: `Bearer ${filled.token}`, cookie: `XSRF-TOKEN=${XSRF}` };
  const list = (id: string, name: string, query: string, headers: Record<string, string> = {}): LoadCase =>
    ({ id, name, method: 'GET', paths: [`/api/videos?${query}`], headers: { ...auth, ...headers }, bare: true });
  const all: LoadCase[] = [
    list('first', 'list, no filter', 'limit=24'),
    // Chromium's Accept-Encoding: the answer goes compressed (brotli), as every browser gets it
    list('browser', 'list, no filter, compressed (br)', 'limit=24', { 'accept-encoding': 'gzip, deflate, br, zstd' }),
    list('filtered', 'list, tags + score', `tag=in:${filled.tagIds.join(',')}&score=gte:3&limit=24`),
    list('search', 'list, text search', `q=${encodeURIComponent('reunión anu')}&limit=24`),
    { id: 'detail', name: 'detail (100 in turn)', method: 'GET', paths: detailIds.map((id) => `/api/videos/${id}`), headers: auth, bare: true },
    {
      id: 'rating',
      name: 'PATCH rating (100 in turn)',
      method: 'PATCH',
      paths: detailIds.map((id) => `/api/videos/${id}`),
      bodies: [1, 2, 3, 4, 5].map((value) => JSON.stringify([{ op: 'replace', path: '/puntuacion', value }])),
      headers: { ...auth, 'content-type': 'application/json-patch+json', 'x-xsrf-token': XSRF },
      bare: false,
    },
  ];
  const only = process.env.BENCH_CASES?.split(',');
  return only ? all.filter((c) => only.includes(c.id)) : all;
}

async function loadOverHttp(dataDir: string, filled: Filled, seconds: number, runs: number, children: ChildProcess[]): Promise<CaseResult[]> {
  const app = await start('serve', dataDir);
  children.push(app.child);
  const first = await cannedAnswer(app.port, '/api/videos?limit=100', { authorization: `Bearer ${filled.token}` });
  const detailIds = (JSON.parse(jsonOf(first)) as Array<{ id: number }>).map((v) => v.id);
  console.log(`\n${CONNECTIONS} connections, ${runs} runs of ${seconds} s per case (API and bare server in turn)\n`);
  const results: CaseResult[] = [];
  for (const c of loadCases(filled, detailIds)) results.push(await measureCase(app, c, seconds, runs, children));
  await stop(app.child);
  return results;
}

/** Durations (ms) of requests, and the CPU time (µs) this process spent on all of them. */
interface Timings {
  times: number[];
  cpu: number;
}

/** mean and median in ms, and CPU time per request in ms (this process: with SQLite that includes the database) */
function summary({ times, cpu }: Timings): string {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return `${mean.toFixed(2).padStart(6)} ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2).padStart(6)} ${(cpu / 1000 / times.length).toFixed(2).padStart(6)}`;
}

/** The lists of the in-process runs. */
function sequentialCases(tagIds: number[]): Array<{ name: string; query: string }> {
  return [
    { name: 'first page', query: 'limit=24' },
    { name: 'tags + score', query: `tag=in:${tagIds.join(',')}&score=gte:3&limit=24` },
    { name: 'text search', query: `q=${encodeURIComponent('reunión anu')}&limit=24` },
    { name: 'not seen', query: 'notSeen=eq:true&limit=24&tz=Europe%2FMadrid' },
    { name: 'tag, page 5', query: `tag=in:${tagIds[0]}&limit=24&offset=96` },
  ];
}

/**
 * One request at a time, in-process (Fastify inject: no sockets, no other process): each case
 * repeated, then each case right after a write (an administrator hides or shows another video).
 */
async function sequential(db: Db, config: Config, filled: Filled, runs: number): Promise<SequentialRow[]> {
  const rows: SequentialRow[] = [];
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  try {
    const get = (query: string, token = filled.token) =>
      app.inject({ method: 'GET', url: `/api/videos?${query}`, headers: { authorization: `Bearer ${token}` } });
    const hidden = (await db.kysely.selectFrom('videos').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
    let visible = false;
    const write = async () => {
      const res = await app.inject({
        method: 'PATCH',
        url: `/api/videos/${hidden}`,
        headers: {
          authorization: `Bearer ${filled.adminToken}`,
          'content-type': 'application/json-patch+json',
          cookie: `XSRF-TOKEN=${XSRF}`,
          'x-xsrf-token': XSRF,
        },
        payload: JSON.stringify([{ op: 'replace', path: '/isVisible', value: (visible = !visible) }]),
      });
      if (res.statusCode !== 200) throw new Error(`PATCH: ${res.statusCode} ${res.body}`);
    };
    const time = async (query: string, into: Timings) => {
      const cpu = process.cpuUsage();
      const started = process.hrtime.bigint();
      const res = await get(query);
      into.times.push(Number(process.hrtime.bigint() - started) / 1e6);
      const used = process.cpuUsage(cpu);
      into.cpu += used.user + used.system;
      if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`);
    };
    console.log(`\nin-process, one request at a time (${db.dialect}): ${runs} requests per case (${Math.max(20, runs / 4)} after a write)`);
    console.log('ms: mean and median of the durations, CPU time of this process per request\n');
    console.log(`${'case'.padEnd(16)} ${'repeated'.padStart(20)}   ${'after a write'.padStart(20)}`);
    console.log(`${''.padEnd(16)} ${'mean    p50    cpu'.padStart(20)}   ${'mean    p50    cpu'.padStart(20)}`);
    for (const c of sequentialCases(filled.tagIds)) {
      for (let i = 0; i < 20; i++) await get(c.query); // warm up
      const repeated: Timings = { times: [], cpu: 0 };
      for (let i = 0; i < runs; i++) await time(c.query, repeated);
      const afterWrite: Timings = { times: [], cpu: 0 };
      for (let i = 0; i < Math.max(20, runs / 4); i++) {
        await write();
        await time(c.query, afterWrite);
      }
      console.log(`${c.name.padEnd(16)} ${summary(repeated)}   ${summary(afterWrite)}`);
      rows.push({ name: c.name, repeated, afterWrite });
    }
    return rows;
  } finally {
    await app.close();
  }
}

interface SequentialRow {
  name: string;
  repeated: Timings;
  afterWrite: Timings;
}

const medianMs = (t: Timings) => summarize(t.times).median.toFixed(2);
const cpuMs = (t: Timings) => (t.cpu / 1000 / t.times.length).toFixed(2);

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 4);
  const runs = Number(process.argv[3] ?? 3);
  const sequentialRuns = Number(process.argv[4] ?? 40);
  const guard = setTimeout(() => {
    console.error('benchmark took too long: stopping');
    process.exit(2);
  }, HARD_LIMIT_MS);
  guard.unref();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-videos-'));
  const children: ChildProcess[] = [];
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const pgSchema = `bench_${crypto.randomBytes(6).toString('hex')}`;
  let db: Db | undefined;
  try {
    const config = configFor(dataDir);
    db = await openDatabase(pgUrl ? { databaseUrl: pgUrl, dataDir, pgSchema } : { dataDir });
    await migrateToLatest(db);
    const filling = Date.now();
    const filled = await fill(db, config);
    const machine = `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), load average ${os.loadavg()[0]!.toFixed(1)} at the start`;
    console.log(`${machine}; ${VIDEOS} videos filled in ${((Date.now() - filling) / 1000).toFixed(1)} s (${db.dialect})`);

    let results: CaseResult[] = [];
    if (!pgUrl && process.env.BENCH_HTTP !== '0') {
      await db.close();
      db = undefined;
      results = await loadOverHttp(dataDir, filled, seconds, runs, children);
      db = await openDatabase({ dataDir });
    }
    const sequentialRows = sequentialRuns > 0 ? await sequential(db, config, filled, sequentialRuns) : [];

    const where = `${VIDEOS.toLocaleString('en')} videos, ${db.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}; ${machine}.`;
    const setting = `${where} autocannon, ${CONNECTIONS} connections, ${runs} runs of ${seconds} s per case, the API and a bare node:http server ` +
      'sending the very same status, headers and bytes in turn (no compression, as autocannon sends no Accept-Encoding, but in the case marked compressed, ' +
      'where the requests carry Chromium\'s Accept-Encoding and both send the same brotli bytes). ' +
      `The API server logs as shipped (pino at ${SERVER_LOG_LEVEL}${SERVER_LOG_LEVEL === 'info' ? ', one line per request' : ''}, to a file); the bare server logs nothing. ` +
      'Server CPU per request: the server process\'s CPU time (user + system) over a run divided by the requests it answered; ' +
      'on a machine shared with other work, where requests/s depend on what else runs, it is the steadier figure (bare ÷ API: ' +
      'the bare server\'s work per request as a share of the API\'s; the requests/s ratio is higher because the client, ' +
      'autocannon on the other core, limits the bare server).';
    const listResults = results.filter((r) => r.c.method === 'GET' && r.c.paths[0]!.startsWith('/api/videos?'));
    const detailResults = results.filter((r) => !listResults.includes(r));
    if (listResults.length > 0 || sequentialRows.length > 0) {
      const parts = [listResults.length > 0 ? setting : where];
      if (listResults.length > 0) parts.push(loadTable(listResults));
      if (sequentialRows.length > 0) {
        parts.push(
          `In-process (\`app.inject\`, one request at a time, ${sequentialRuns} per case, ${Math.max(20, sequentialRuns / 4)} after a write): ` +
            `median ms and CPU ms per request of the process${db.dialect === 'sqlite' ? ' (SQLite\'s work included)' : ''}.`,
          markdownTable(
            ['list', 'repeated: median ms', 'CPU ms', 'after a write: median ms', 'CPU ms'],
            sequentialRows.map((r) => [r.name, medianMs(r.repeated), cpuMs(r.repeated), medianMs(r.afterWrite), cpuMs(r.afterWrite)]),
          ),
        );
      }
      reportSection('videos-list', 'Video list: GET /api/videos under load', parts.join('\n\n'));
    }
    if (detailResults.length > 0) {
      reportSection('video-detail', 'One video: GET /api/videos/{id} and PATCH rating under load', `${setting} The detail opens 100 videos in turn (one user; each opening records a view event unless repeated within 10 s); the PATCH sets that user's rating of 100 videos in turn to 1–5 (a write transaction each: the rating, the video's sum and count, the list generations).\n\n${loadTable(detailResults)}`);
    }
  } finally {
    for (const child of children) await stop(child);
    if (db) {
      if (pgUrl && !process.env.BENCH_KEEP) await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(db.kysely);
      await db.close();
    }
    if (!process.env.BENCH_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
    else console.log(pgUrl ? `${dataDir} (schema ${pgSchema})` : dataDir);
  }
}

const [mode, arg] = process.argv.slice(2);
if (mode === 'serve') await serveApp(arg!);
else if (mode === 'bare') serveBare();
else await main();
