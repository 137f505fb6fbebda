/**
 * The list goal: GET /api/videos p99 ≤ 25 ms on PostgreSQL with 100,000 videos, under what an
 * organisation of about 5,000 people sends at its busiest.
 *
 * The load is an OPEN loop: requests are sent at fixed moments (50 per second by default), whether
 * or not earlier ones have been answered, and each latency is measured from the moment its request
 * was due, not from when it went out, so a server that falls behind shows its queue in the figures
 * (no coordinated omission). The mix: first pages (and the next ones), tag + score filters and text
 * searches, by several signed-in users of different organisations and an administrator, plus one
 * write per second by those users (a rating, a favourite or a seen mark: PATCH /api/videos/{id}).
 *
 * For each database (PostgreSQL, in a schema of its own in the `test` database, and SQLite), the
 * library is filled in bulk through the app's own database layer and migrations (no uploads), the
 * BUILT server (bench/built-server.ts builtBuildApp; `npm run build:server` first) runs in a child
 * process logging as shipped (pino at info, to a file), a warm-up runs, then the measured window.
 * Prints p50, p99 and the server's CPU time per request (its /proc/<pid>/stat over the window), per
 * database side by side and per kind of request.
 *
 *   npx tsx bench/list-load.ts [--videos 100000] [--seconds 30] [--warmup 5] [--rate 50] [--databases postgres,sqlite]
 *   npm run bench -- list-load
 *   BENCH_DATABASE_URL (or TEST_DATABASE_URL) = the PostgreSQL database, default postgres://postgres@127.0.0.1:5432/test
 *   BENCH_KEEP=1 keeps the data directories and the PostgreSQL schemas, and prints where;
 *   with BENCH_FILL_ONLY=1 too, only fills them (to look at query plans: psql, EXPLAIN ANALYZE)
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig, type Config } from '../server/config.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrator.ts';
import { insertUser } from '../server/modules/accounts/accounts.repository.ts';
import { sessionTokenFor } from '../server/modules/accounts/login.service.ts';
import { ensureTags } from '../server/modules/etiquetas/etiquetas.repository.ts';
import { spanishSentences } from '../server/modules/statistics/generate.ts';
import { tsVectorOf } from '../server/modules/videos/search.ts';
import { loadSecrets } from '../server/secrets.ts';
import { seededRandom } from '../server/seeded-random.ts';
import { benchVideoRow } from './bench-videos.ts';
import { builtBuildApp, cpuSeconds } from './built-server.ts';
import { forkAndWait, stopChild } from './child-process.ts';
import { markdownTable, reportSection } from './report.ts';

/** The goal, ms, on PostgreSQL. */
const GOAL_P99_MS = 25;
const PAGE = 24;
const XSRF = 'bench-list-load-xsrf-0123456789';
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SERVER_LOG_LEVEL = process.env.BENCH_SERVER_LOG_LEVEL ?? 'info';

const TAGS = ['Formación', 'Seguridad', 'Eventos', 'Ventas', 'Recursos humanos', 'Dirección', 'Tecnología', 'Calidad',
  'Logística', 'Marketing', 'Innovación', 'Sostenibilidad', 'Clientes', 'Comités', 'Entrevistas', 'Talleres', 'Novedades',
  'Tutoriales', 'Campañas', 'Jornadas'];
/** What people type: whole words and words still being typed (the last one matches as a prefix). */
const SEARCHES = ['reunión anu', 'seguridad', 'plan estrategia', 'informe', 'taller prá', 'formación seguri', 'calidad', 'cliente',
  'proyecto nuevo', 'evento', 'ventas merc', 'auditoría', 'prevención incendio', 'teletrab', 'presupuesto factura', 'guía'];
const ORGANISATIONS = ['TAO', 'Otra', null] as const;
const USERS = 12;

// ── the server, in a child process ──────────────────────────────────────────────────────────────

const configFor = (dataDir: string, databaseUrl?: string): Config =>
  loadConfig({
    DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIR: path.join(dataDir, 'no-client'), HOST: '127.0.0.1', PORT: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });

async function serve(dataDir: string, databaseUrl: string): Promise<void> {
  const buildApp = await builtBuildApp();
  const app = await buildApp({ config: { ...configFor(dataDir, databaseUrl || undefined), logLevel: SERVER_LOG_LEVEL } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}

// ── the library ─────────────────────────────────────────────────────────────────────────────────

interface Person {
  token: string;
  organizacion: string | null;
}

interface Library {
  people: Person[];
  tagIds: number[];
}

/** Fills the database: the tags, `videos` ready videos (1–3 tags each, ratings, 10 % not visible to all), their search entries, the people. */
async function fill(db: Db, config: Config, videos: number): Promise<Library> {
  const at = new Date().toISOString();
  const next = seededRandom(35);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const sentence = spanishSentences(next);
  const tags = await ensureTags(db.kysely, TAGS, at);
  const start = Date.now() - 5 * 365 * 86_400_000;
  const BATCH = 1000;
  for (let first = 0; first < videos; first += BATCH) {
    await db.kysely.transaction().execute(async (trx) => {
      const rows = Array.from({ length: Math.min(BATCH, videos - first) }, (_, k) => {
        const i = first + k;
        return benchVideoRow(next, sentence, i, {
          id: `bench_list_${String(i).padStart(7, '0')}`,
          organizacion: () => pick(ORGANISATIONS),
          fechaAlta: () => new Date(start + Math.floor(((i + next()) * (Date.now() - start)) / videos)).toISOString(),
          at,
        });
      });
      const inserted = await trx.insertInto('videos').values(rows).returning('id').execute();
      const tagsOf = inserted.map(() => [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(tags)))]);
      await trx.insertInto('video_tags').values(inserted.flatMap(({ id }, k) => tagsOf[k]!.map((t) => ({ video_id: id, tag_id: t.id })))).execute();
      // The search entries as refreshSearchIndex writes them, a batch per statement.
      const docs = inserted.map(({ id }, k) => ({
        id,
        titulo: rows[k]!.titulo,
        descripcionCorta: rows[k]!.descripcion_corta,
        descripcion: rows[k]!.descripcion,
        etiquetas: tagsOf[k]!.map((t) => t.nombre),
      }));
      if (db.dialect === 'postgres') {
        await sql`insert into video_search (video_id, document) values ${sql.join(docs.map((d) => sql`(${d.id}, ${tsVectorOf(d)})`))}`.execute(trx);
      } else {
        await sql`insert into videos_fts (rowid, titulo, descripcion_corta, etiquetas, descripcion) values ${sql.join(
          docs.map((d) => sql`(${d.id}, ${d.titulo}, ${d.descripcionCorta}, ${d.etiquetas.join(' ')}, ${d.descripcion ?? ''})`),
        )}`.execute(trx);
      }
    });
  }
  const ctx = { config, db, secrets: loadSecrets(config) };
  const people: Person[] = [];
  for (let i = 0; i < USERS; i++) {
    const admin = i === USERS - 1;
    const organizacion = admin ? null : ORGANISATIONS[i % ORGANISATIONS.length]!;
    const name = `bench-${i}`;
    const user = await insertUser(db.kysely, {
      username: name, username_key: name, nombre: `Bench ${i}`, email: null, rol: admin ? 'admin' : 'user', organizacion,
      password_hash: null, otp_state: 'OTP_ACTIVED', created_at: at, updated_at: at,
    });
    people.push({ token: await sessionTokenFor(ctx, user), organizacion });
  }
  // What autovacuum would have done by then (PostgreSQL's index-only scans need the visibility map).
  await sql.raw(db.dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db.kysely);
  return { people, tagIds: tags.map((t) => t.id) };
}

// ── the load ────────────────────────────────────────────────────────────────────────────────────

type Kind = 'first pages' | 'tags + score' | 'text search' | 'write';
const READ_KINDS: Kind[] = ['first pages', 'tags + score', 'text search'];

interface Sample {
  kind: Kind;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function send(port: number, method: string, url: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode!));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A list request of the mix: 40 % first pages (a third of them the second or third page), 30 % tags + score, 30 % text. */
function listRequest(next: () => number, tagIds: number[]): { kind: Kind; url: string } {
  const r = next();
  if (r < 0.4) {
    const offset = next() < 0.67 ? 0 : PAGE * (1 + Math.floor(next() * 2));
    return { kind: 'first pages', url: `/api/videos?limit=${PAGE}${offset ? `&offset=${offset}` : ''}` };
  }
  if (r < 0.7) {
    const tags = [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => tagIds[Math.floor(next() * tagIds.length)]!))];
    return { kind: 'tags + score', url: `/api/videos?tag=in:${tags.join(',')}&score=gte:${1 + Math.floor(next() * 4)}&limit=${PAGE}` };
  }
  return { kind: 'text search', url: `/api/videos?q=${encodeURIComponent(SEARCHES[Math.floor(next() * SEARCHES.length)]!)}&limit=${PAGE}` };
}

const WRITES = [
  (next: () => number) => ({ op: 'replace', path: '/puntuacion', value: 1 + Math.floor(next() * 5) }),
  (next: () => number) => ({ op: 'replace', path: '/favorito', value: next() < 0.5 }),
  (next: () => number) => ({ op: 'replace', path: '/visto', value: next() < 0.5 }),
];

/**
 * Sends the mix at `rate` per second and one write per second for `seconds`, each at its due moment
 * whatever the earlier ones are doing; answers each request's time from its due moment to its answer.
 */
async function openLoop(port: number, library: Library, writable: number[][], rate: number, seconds: number, seed: number): Promise<{ samples: Sample[]; errors: string[] }> {
  const next = seededRandom(seed);
  const samples: Sample[] = [];
  const errors: string[] = [];
  const started = performance.now();
  const due: Array<{ at: number; run: () => Promise<Kind> }> = [];
  for (let i = 0; i < rate * seconds; i++) {
    const who = Math.floor(next() * library.people.length);
    const { kind, url } = listRequest(next, library.tagIds);
    const headers = { authorization: `Bearer ${library.people[who]!.token}`, 'accept-encoding': 'gzip, deflate, br, zstd' };
    due.push({ at: (i * 1000) / rate, run: async () => check(kind, url, await send(port, 'GET', url, headers)) });
  }
  for (let s = 0; s < seconds; s++) {
    const who = Math.floor(next() * (library.people.length - 1)); // people, not the administrator
    const ids = writable[who]!;
    const id = ids[Math.floor(next() * ids.length)]!;
    const body = JSON.stringify([WRITES[s % WRITES.length]!(next)]);
    const headers = {
      authorization: `Bearer ${library.people[who]!.token}`, 'content-type': 'application/json-patch+json', cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF,
    };
    const url = `/api/videos/${id}`;
    due.push({ at: s * 1000 + 500 / rate, run: async () => check('write', url, await send(port, 'PATCH', url, headers, body)) });
  }
  due.sort((a, b) => a.at - b.at);
  const check = (kind: Kind, url: string, status: number): Kind => {
    if (status !== 200) errors.push(`${kind} ${url}: ${status}`);
    return kind;
  };
  const pending: Promise<void>[] = [];
  for (const request of due) {
    const wait = started + request.at - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const dueAt = started + request.at;
    pending.push(
      request.run().then(
        (kind) => void samples.push({ kind, ms: performance.now() - dueAt }),
        (error: unknown) => void errors.push(String(error)),
      ),
    );
  }
  await Promise.all(pending);
  return { samples, errors };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Figures {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

function figuresOf(samples: Sample[], kinds: Kind[]): Figures {
  const sorted = samples.filter((s) => kinds.includes(s.kind)).map((s) => s.ms).sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

interface Outcome {
  database: 'PostgreSQL' | 'SQLite';
  version: string;
  videos: number;
  filledSeconds: number;
  lists: Figures;
  byKind: Map<Kind, Figures>;
  /** server CPU ms per request (the window's reads and writes) */
  cpuMs: number;
  /** the server's share of one core over the window */
  cpuShare: number;
  /** PostgreSQL: its backends' CPU ms per request (SQLite's work is in the server's) */
  dbCpuMs?: number;
}

async function measure(kind: 'postgres' | 'sqlite', videos: number, rate: number, warmup: number, seconds: number): Promise<Outcome> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-list-'));
  const schema = `bench_list_${crypto.randomBytes(5).toString('hex')}`;
  // application_name tells the server's connections apart, to read their backends' CPU time
  const databaseUrl = kind === 'postgres'
    ? `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}application_name=${schema}&options=${encodeURIComponent(`-c search_path=${schema}`)}`
    : '';
  const config = configFor(dataDir, databaseUrl || undefined);
  let child: ChildProcess | undefined;
  const db = await openDatabase(kind === 'postgres' ? { databaseUrl: PG_URL, dataDir, pgSchema: schema } : { dataDir });
  try {
    await migrateToLatest(db);
    const filling = performance.now();
    const library = await fill(db, config, videos);
    const filledSeconds = (performance.now() - filling) / 1000;
    const version = kind === 'postgres'
      ? (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db.kysely)).rows[0]!.v.split(' ')[0]!
      : (await sql<{ v: string }>`select sqlite_version() as v`.execute(db.kysely)).rows[0]!.v;
    console.log(`${kind}: ${videos.toLocaleString('en')} videos filled in ${filledSeconds.toFixed(1)} s`);
    if (process.env.BENCH_FILL_ONLY) return { database: kind === 'postgres' ? 'PostgreSQL' : 'SQLite', version, videos, filledSeconds } as Outcome;
    if (kind === 'sqlite') await db.close();

    const server = await forkAndWait<{ port: number }>(import.meta.filename, ['serve', dataDir, databaseUrl], { stdoutFile: path.join(dataDir, 'server.log') });
    child = server.child;
    // What each person may rate: the newest videos they see.
    const writable: number[][] = [];
    for (const person of library.people) {
      const ids = await new Promise<number[]>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: server.port, path: '/api/videos?limit=100', headers: { authorization: `Bearer ${person.token}` }, agent }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => (res.statusCode === 200 ? resolve((JSON.parse(text) as Array<{ id: number }>).map((v) => v.id)) : reject(new Error(`${res.statusCode} ${text}`))));
        }).on('error', reject);
      });
      writable.push(ids);
    }
    const warm = await openLoop(server.port, library, writable, rate, warmup, 1);
    if (warm.errors.length > 0) throw new Error(`warm-up: ${warm.errors.length} errors, first ${warm.errors[0]}`);
    const backends = async () =>
      kind === 'postgres'
        ? (await sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${schema}`.execute(db.kysely)).rows.map((r) => r.pid)
        : [];
    const backendCpu = (pid: number) => {
      try {
        return cpuSeconds(pid);
      } catch {
        return 0; // ended meanwhile
      }
    };
    const dbCpuBefore = new Map((await backends()).map((pid) => [pid, backendCpu(pid)]));
    const cpuBefore = cpuSeconds(child.pid!);
    const windowStarted = performance.now();
    const { samples, errors } = await openLoop(server.port, library, writable, rate, seconds, 2);
    const cpu = cpuSeconds(child.pid!) - cpuBefore;
    // backends opened during the window count from 0; parallel workers (short-lived) are not seen
    const dbCpu = (await backends()).reduce((sum, pid) => sum + backendCpu(pid) - (dbCpuBefore.get(pid) ?? 0), 0);
    const windowSeconds = (performance.now() - windowStarted) / 1000;
    if (errors.length > 0) throw new Error(`${errors.length} errors, first ${errors[0]}`);
    const byKind = new Map<Kind, Figures>([...READ_KINDS, 'write' as const].map((k) => [k, figuresOf(samples, [k])]));
    const outcome: Outcome = {
      database: kind === 'postgres' ? 'PostgreSQL' : 'SQLite',
      version,
      videos,
      filledSeconds,
      lists: figuresOf(samples, READ_KINDS),
      byKind,
      cpuMs: (cpu * 1000) / samples.length,
      cpuShare: cpu / windowSeconds,
      dbCpuMs: kind === 'postgres' ? (dbCpu * 1000) / samples.length : undefined,
    };
    const f = (x: number) => x.toFixed(1).padStart(6);
    console.log(`${outcome.database} ${videos} videos: lists p50 ${f(outcome.lists.p50)} ms  p99 ${f(outcome.lists.p99)} ms  max ${f(outcome.lists.max)} ms  server CPU ${outcome.cpuMs.toFixed(2)} ms/request (${(outcome.cpuShare * 100).toFixed(0)} % of a core)${outcome.dbCpuMs === undefined ? '' : `, PostgreSQL backends ${outcome.dbCpuMs.toFixed(2)} ms/request`}`);
    for (const [k, fig] of byKind) console.log(`  ${k.padEnd(13)} ${String(fig.count).padStart(5)}  p50 ${f(fig.p50)} ms  p99 ${f(fig.p99)} ms  max ${f(fig.max)} ms`);
    return outcome;
  } finally {
    if (child) await stopChild(child);
    if (kind === 'postgres') {
      if (!process.env.BENCH_KEEP) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely);
      await db.close();
    }
    if (process.env.BENCH_KEEP) console.log(`kept: ${dataDir}${kind === 'postgres' ? ` (schema ${schema})` : ''}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      videos: { type: 'string', default: '100000' },
      seconds: { type: 'string', default: '30' },
      warmup: { type: 'string', default: '5' },
      rate: { type: 'string', default: '50' },
      databases: { type: 'string', default: 'postgres,sqlite' },
    },
    strict: true,
  });
  const videos = Number(values.videos);
  const seconds = Number(values.seconds);
  const warmup = Number(values.warmup);
  const rate = Number(values.rate);
  const databases = values.databases.split(',') as Array<'postgres' | 'sqlite'>;
  const load = os.loadavg().map((x) => x.toFixed(2)).join(', ');
  const outcomes: Outcome[] = [];
  for (const kind of databases) outcomes.push(await measure(kind, videos, rate, warmup, seconds));
  if (process.env.BENCH_FILL_ONLY) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
  agent.destroy();

  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const goal = (o: Outcome) =>
    o.database === 'PostgreSQL' && o.videos >= 100_000
      ? `${ms(o.lists.p99)} (goal ≤ ${GOAL_P99_MS} ms: ${o.lists.p99 <= GOAL_P99_MS ? 'met' : 'MISSED'})`
      : ms(o.lists.p99);
  const rows = outcomes.map((o) => [
    `GET /api/videos p99, ${o.database} ${o.version}, ${o.videos.toLocaleString('en')} videos`,
    ms(o.lists.p50),
    goal(o),
    ms(o.lists.max),
    `${o.cpuMs.toFixed(2)} ms (${(o.cpuShare * 100).toFixed(0)} % of a core)`,
    o.dbCpuMs === undefined ? 'in the server' : `${o.dbCpuMs.toFixed(2)} ms`,
    `${o.lists.count} + ${o.byKind.get('write')!.count} writes`,
  ]);
  const kindRows = outcomes.flatMap((o) =>
    [...o.byKind].map(([k, fig]) => [`${o.database}: ${k}`, String(fig.count), ms(fig.p50), ms(fig.p99), ms(fig.max)]),
  );
  reportSection(
    'list-load',
    'Video list at an organisation\'s busiest: GET /api/videos, open loop',
    [
      `${rate} list requests per second sent at fixed moments (an open loop; each time is measured from the moment the request was due), ` +
        `${seconds} s measured after ${warmup} s of warm-up, plus one write per second (a rating, a favourite or a seen mark, PATCH /api/videos/{id}). ` +
        `The mix: 40 % first pages (a third of them page 2 or 3), 30 % 1–3 tags with a minimum score, 30 % text searches (${SEARCHES.length} phrases), ` +
        `pages of ${PAGE}, accepting compression as a browser does, by ${USERS - 1} people of three organisations and an administrator. ` +
        `The built server in a process of its own, logging as shipped (pino at ${SERVER_LOG_LEVEL}, to a file); the load comes from this process. ` +
        `Server CPU: the server process's CPU time over the window divided by the requests answered (writes included); ` +
        `database CPU: the same of the PostgreSQL backends serving the server's connections (parallel workers not included). ` +
        `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), load average ${load} at the start.`,
      markdownTable(['figure', 'p50', 'p99', 'max', 'server CPU per request', 'database CPU per request', 'requests'], rows),
      markdownTable(['database: kind', 'requests', 'p50', 'p99', 'max'], kindRows),
    ].join('\n\n'),
  );
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'serve') await serve(args[0]!, args[1] ?? '');
else await main();
