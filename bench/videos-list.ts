/**
 * How fast is the video list? Fills a temporary SQLite database with 10,000 videos (tags, ratings,
 * some not visible to all), starts the real server (buildApp, listening on 127.0.0.1, a random port)
 * in a child process, and loads GET /api/videos with autocannon (50 connections, ~10 s per case):
 * a filtered page (`tag=in:…&score=gte:3&limit=24`) and a text search (`q=…`). For each case a bare
 * node:http server (another child process) answers the very same status, headers and bytes, measured
 * the same way, so the ratio is what the API (security, validation, queries, signing, JSON) costs.
 * Then, in-process and one request at a time (less noisy on a shared machine), 200 sequential
 * `app.inject` calls per case, repeated (the same answer again) and each after a write (an
 * administrator's PATCH of another video, so nothing remembered for the list can be reused).
 * Local only, bounded: it stops by itself and removes its files.
 *
 *   npx tsx bench/videos-list.ts [seconds per run, default 10] [sequential requests, default 200]
 *   BENCH_KEEP=1 keeps the database and prints where; BENCH_HTTP=0 skips the autocannon runs;
 *   BENCH_DATABASE_URL=postgres://… runs the in-process part on PostgreSQL (in a schema of its own) instead.
 */
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { buildApp } from '../server/app.ts';
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

const VIDEOS = 10_000;
const CONNECTIONS = 50;
const HARD_LIMIT_MS = 5 * 60_000;

const configFor = (dataDir: string): Config =>
  loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIR: path.join(dataDir, 'no-client'), HOST: '127.0.0.1', PORT: '0' });

// ── child processes: the real server, the bare server ──────────────────────────────────────────

interface Canned {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function serveApp(dataDir: string): Promise<void> {
  const app = await buildApp({ config: configFor(dataDir), logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}

function serveBare(): void {
  let canned: Canned | undefined;
  const server = http.createServer((_req, res) => {
    res.writeHead(canned!.status, canned!.headers);
    res.end(canned!.body);
  });
  process.on('message', (message: Canned) => {
    canned = message;
    server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
  });
  process.on('disconnect', () => server.close(() => process.exit(0)));
}

function start(mode: 'serve' | 'bare', arg: string, message?: Canned): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(import.meta.filename, [mode, arg], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${mode} process ended (${code}) before listening`)));
    if (message) child.send(message);
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.disconnect();
  });
}

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
        const ratings = Math.floor(next() * 6);
        return {
          id_externo: `bench_asset_${String(i).padStart(6, '0')}`,
          titulo: `${sentence(3)} ${i}`.slice(0, 100),
          descripcion: next() < 0.7 ? sentence(25) : null,
          descripcion_corta: sentence(10),
          duracion: Math.round(next() * 3600),
          organizacion: pick(['TAO', 'Otra', null]),
          nombre_usuario_alta: 'admin',
          is_visible: (next() < 0.9 ? 1 : 0) as 0 | 1,
          has_thumbnail: 1 as const,
          has_preview: 1 as const,
          rating_count: ratings,
          rating_sum: Array.from({ length: ratings }, () => 1 + Math.floor(next() * 5)).reduce((a, b) => a + b, 0),
          fecha_alta: new Date(start + i * 9_000_000).toISOString(),
          updated_at: at,
        };
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

// ── measuring ───────────────────────────────────────────────────────────────────────────────────

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Figures> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 }); // warm up
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

async function cannedAnswer(url: string, headers: Record<string, string>): Promise<Canned> {
  const res = await fetch(url, { headers });
  const body = await res.text();
  const keep: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) keep[name] = value;
  });
  return { status: res.status, headers: keep, body };
}

/** The cases of the autocannon runs (the first two) and of the sequential ones. */
function casesFor(tagIds: number[]): Array<{ name: string; query: string }> {
  return [
    { name: 'filtered page', query: `tag=in:${tagIds.join(',')}&score=gte:3&limit=24` },
    { name: 'text search', query: `q=${encodeURIComponent('reunión anu')}&limit=24` },
    { name: 'first page', query: 'limit=24' },
    { name: 'not seen', query: 'notSeen=eq:true&limit=24&tz=Europe%2FMadrid' },
    { name: 'tag, page 5', query: `tag=in:${tagIds[0]}&limit=24&offset=96` },
  ];
}

async function loadOverHttp(dataDir: string, filled: Filled, seconds: number, children: ChildProcess[]): Promise<void> {
  const app = await start('serve', dataDir);
  children.push(app.child);
  const headers = { authorization: `Bearer ${filled.token}` };
  console.log(`\n${CONNECTIONS} connections, ${seconds} s per run\n`);
  console.log(`${'case'.padEnd(16)} ${'server'.padEnd(8)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  answer`);
  for (const c of casesFor(filled.tagIds).slice(0, 2)) {
    const url = `http://127.0.0.1:${app.port}/api/videos?${c.query}`;
    const canned = await cannedAnswer(url, headers);
    if (canned.status !== 200) throw new Error(`${c.name}: ${canned.status} ${canned.body}`);
    const answer = `${canned.body.length} bytes, ${(JSON.parse(canned.body) as unknown[]).length} of ${canned.headers['x-total-count']} videos`;
    const api = await load(url, headers, seconds);
    const bare = await start('bare', '', canned);
    children.push(bare.child);
    const base = await load(`http://127.0.0.1:${bare.port}/api/videos?${c.query}`, headers, seconds);
    await stop(bare.child);
    const row = (who: string, f: Figures) =>
      `${c.name.padEnd(16)} ${who.padEnd(8)} ${f.rps.toFixed(0).padStart(9)} ${f.p50.toFixed(1).padStart(8)} ${f.p99.toFixed(1).padStart(8)}` +
      (f.non2xx || f.errors ? `  (${f.non2xx} non-2xx, ${f.errors} errors)` : '');
    console.log(`${row('api', api)}  ${answer}`);
    console.log(row('bare', base));
    console.log(`${''.padEnd(16)} ${'ratio'.padEnd(8)} ${`${((api.rps / base.rps) * 100).toFixed(1)} %`.padStart(9)} of the bare server's requests/s\n`);
  }
  await stop(app.child);
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

/**
 * One request at a time, in-process (Fastify inject: no sockets, no other process): each case
 * repeated, then each case right after a write (an administrator hides or shows another video).
 */
async function sequential(db: Db, config: Config, filled: Filled, runs: number): Promise<void> {
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
          cookie: 'XSRF-TOKEN=bench-xsrf-0123456789',
          'x-xsrf-token': 'bench-xsrf-0123456789',
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
    for (const c of casesFor(filled.tagIds)) {
      for (let i = 0; i < 20; i++) await get(c.query); // warm up
      const repeated: Timings = { times: [], cpu: 0 };
      for (let i = 0; i < runs; i++) await time(c.query, repeated);
      const afterWrite: Timings = { times: [], cpu: 0 };
      for (let i = 0; i < Math.max(20, runs / 4); i++) {
        await write();
        await time(c.query, afterWrite);
      }
      console.log(`${c.name.padEnd(16)} ${summary(repeated)}   ${summary(afterWrite)}`);
    }
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const runs = Number(process.argv[3] ?? 200);
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
    console.log(`node ${process.version}, ${os.cpus().length} cores; ${VIDEOS} videos filled in ${((Date.now() - filling) / 1000).toFixed(1)} s (${db.dialect})`);

    if (!pgUrl && process.env.BENCH_HTTP !== '0') {
      await db.close();
      db = undefined;
      await loadOverHttp(dataDir, filled, seconds, children);
      db = await openDatabase({ dataDir });
    }
    await sequential(db, config, filled, runs);
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
