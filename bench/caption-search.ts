/**
 * Search in what is said (R-LIB-19): how fast is GET /api/videos?q=… when the library's subtitles
 * are in the search? On SQLite and on PostgreSQL, side by side: a library made by the generator
 * (`generate --videos N --cues C`: 10,000 videos of 600 Spanish cues each by default, one in 20 with
 * as many English ones too) — how long the generator took, how large the cue index is — then, in
 * process and one request at a time through the real API (buildApp + inject, as bench/videos-list.ts
 * does its sequential part), many distinct queries of each kind, each asked once (the page cache
 * never answers): two words said in one cue, a word and the start of another (the user still
 * typing), and one word. Queries are taken from cues picked at random (words outside the 150 most
 * frequent), so each finds something, as a real user's would. Goal for the first two: p50 ≤ 20 ms,
 * p99 ≤ 100 ms. The cost of a `q` that matches no cue is bench/videos-list.ts's "text search" case
 * (its library has no subtitles), printed beside the figure bench/results.md holds.
 *
 *   npx tsx bench/caption-search.ts [--videos 10000] [--cues 600] [--queries 300] [--databases sqlite,postgres]
 *   --reuse-sqlite DIR / --reuse-pg SCHEMA: measure the queries on a library generated before (a DATA_DIR,
 *   a PostgreSQL schema, e.g. by `npm run cli -- generate --videos 10000 --users 0 --views 0 --cues 600 --seed 7`);
 *   nothing is generated (no generator time) and it is left as it was but for the bench's user.
 *   PostgreSQL: BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test (a schema of its own, dropped after).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrator.ts';
import { insertUser } from '../server/modules/accounts/accounts.repository.ts';
import { sessionTokenFor } from '../server/modules/accounts/login.service.ts';
import { generate, spokenVocabulary } from '../server/modules/statistics/generate.ts';
import { foldText } from '../server/modules/videos/search.ts';
import { loadSecrets } from '../server/secrets.ts';
import { seededRandom } from '../server/seeded-random.ts';
import { markdownTable, reportSection } from './report.ts';

const { values: args } = parseArgs({
  options: {
    videos: { type: 'string', default: '10000' },
    cues: { type: 'string', default: '600' },
    queries: { type: 'string', default: '300' },
    databases: { type: 'string', default: 'sqlite,postgres' },
    'reuse-sqlite': { type: 'string' },
    'reuse-pg': { type: 'string' },
  },
  strict: true,
});
const VIDEOS = Number(args.videos);
const CUES = Number(args.cues);
const QUERIES = Number(args.queries);
const DATABASES = args.databases.split(',') as Array<'sqlite' | 'postgres'>;
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SEED = 7;
const GOAL = { p50: 20, p99: 100 };

type Kind = 'two words' | 'word + prefix' | 'one word';
const KINDS: Kind[] = ['two words', 'word + prefix', 'one word'];

interface Run {
  dialect: string;
  videos: number;
  /** undefined: a library generated before was reused */
  generatorSeconds: number | undefined;
  cues: number;
  /** bytes: the cue index, and the cues' table */
  indexBytes: number;
  tableBytes: number;
  indexWhat: string;
  latencies: Map<Kind, { times: number[]; found: number[] }>;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** Distinct queries of each kind, from the words of randomly picked cues. */
async function queriesFrom(db: Db): Promise<Map<Kind, string[]>> {
  const common = new Set(spokenVocabulary(SEED).slice(0, 150).map(foldText));
  const next = seededRandom(SEED + 1);
  const { min, max } = (await sql<{ min: number; max: number }>`select min(id) as min, max(id) as max from video_cues`.execute(db.kysely)).rows[0]!;
  const ids = Array.from({ length: QUERIES * 12 }, () => Number(min) + Math.floor(next() * (Number(max) - Number(min) + 1)));
  const texts: string[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await sql<{ texto: string }>`select texto from video_cues where id in (${sql.join(ids.slice(i, i + 500))})`.execute(db.kysely);
    texts.push(...rows.rows.map((r) => r.texto));
  }
  const byKind = new Map<Kind, Set<string>>(KINDS.map((k) => [k, new Set()]));
  for (const text of texts) {
    const words = [...new Set((text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()))].filter((w) => !common.has(foldText(w)) && w.length > 3);
    if (words.length < 2) continue;
    const [a, b] = [words[Math.floor(next() * words.length)]!, words[Math.floor(next() * words.length)]!];
    if (a === b) continue;
    const add = (kind: Kind, q: string) => byKind.get(kind)!.size < QUERIES && byKind.get(kind)!.add(q);
    add('two words', `${a} ${b}`);
    add('word + prefix', `${a} ${b.slice(0, 3 + Math.floor(next() * 2))}`);
    add('one word', a);
  }
  return new Map([...byKind].map(([k, set]) => [k, [...set]]));
}

async function measure(dialect: 'sqlite' | 'postgres'): Promise<Run> {
  const reused = dialect === 'postgres' ? args['reuse-pg'] : args['reuse-sqlite'];
  const dataDir = dialect === 'sqlite' && reused ? reused : fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-captions-'));
  const schema = dialect === 'postgres' && reused ? reused : `bench_${crypto.randomBytes(6).toString('hex')}`;
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIR: path.join(dataDir, 'no-client') });
  const db = await openDatabase(dialect === 'postgres' ? { databaseUrl: PG_URL, dataDir, pgSchema: schema } : { dataDir });
  try {
    await migrateToLatest(db);
    let generatorSeconds: number | undefined;
    let cues: number;
    let videos = VIDEOS;
    if (reused) {
      videos = Number((await sql<{ n: number | string }>`select count(*) as n from videos`.execute(db.kysely)).rows[0]!.n);
      cues = Number((await sql<{ n: number | string }>`select count(*) as n from video_cues`.execute(db.kysely)).rows[0]!.n);
      console.log(`\n${dialect}: reusing ${reused} (${cues} cues)`);
    } else {
      console.log(`\n${dialect}: generating ${VIDEOS} videos × ${CUES} cues…`);
      const report = await generate(db, { videos: VIDEOS, users: 0, views: 0, cues: CUES, seed: SEED, onProgress: (line) => console.log(`  ${line}`) });
      console.log(`  generated in ${report.seconds.toFixed(1)} s`);
      if (dialect === 'postgres') await sql`vacuum analyze`.execute(db.kysely);
      generatorSeconds = report.seconds;
      cues = report.cuesCreated;
    }
    const at = new Date().toISOString();
    const name = `bench-${crypto.randomBytes(4).toString('hex')}`;
    const user = await insertUser(db.kysely, {
      username: name, username_key: name, nombre: 'Bench', email: null, rol: 'user', organizacion: 'TAO',
      password_hash: null, otp_state: 'OTP_ACTIVED', created_at: at, updated_at: at,
    });
    const token = await sessionTokenFor({ config, db, secrets: loadSecrets(config) }, user);

    let indexBytes: number;
    let tableBytes: number;
    let indexWhat: string;
    if (dialect === 'postgres') {
      const sizes = (await sql<{ gin: string; heap: string }>`select pg_relation_size('video_cues_terms_idx') as gin,
        pg_table_size('video_cues') as heap`.execute(db.kysely)).rows[0]!;
      indexBytes = Number(sizes.gin);
      tableBytes = Number(sizes.heap);
      indexWhat = 'GIN index video_cues_terms_idx (words and their 2–4-letter prefixes; pg_relation_size); table with its TOAST (pg_table_size, the tsvector columns document and prefixes included)';
    } else {
      const rows = (await sql<{ name: string; bytes: number }>`select name, sum(pgsize) as bytes from dbstat
        where name like 'cues_fts%' or name = 'video_cues' group by name`.execute(db.kysely)).rows;
      indexBytes = rows.filter((r) => r.name.startsWith('cues_fts')).reduce((sum, r) => sum + Number(r.bytes), 0);
      tableBytes = Number(rows.find((r) => r.name === 'video_cues')?.bytes ?? 0);
      indexWhat = 'cues_fts shadow tables (dbstat; prefix indexes of 2 and 3 letters included); table video_cues';
    }
    console.log(`  cue index ${mib(indexBytes)}, table ${mib(tableBytes)}`);

    const queries = await queriesFrom(db);
    const app = await buildApp({ config, db, logger: false });
    await app.ready();
    const latencies = new Map<Kind, { times: number[]; found: number[] }>();
    try {
      const get = (q: string) => app.inject({ method: 'GET', url: `/api/videos?q=${encodeURIComponent(q)}&limit=24`, headers: { authorization: `Bearer ${token}` } });
      for (const q of ['warm up', 'calidad equipo', 'presupuesto pla']) await get(q);
      for (const kind of KINDS) {
        const result = { times: [] as number[], found: [] as number[] };
        for (const q of queries.get(kind)!) {
          const started = process.hrtime.bigint();
          const res = await get(q);
          result.times.push(Number(process.hrtime.bigint() - started) / 1e6);
          if (res.statusCode !== 200) throw new Error(`q=${q}: ${res.statusCode} ${res.body}`);
          result.found.push(Number(res.headers['x-total-count']));
        }
        latencies.set(kind, result);
        const sorted = [...result.times].sort((a, b) => a - b);
        console.log(`  ${kind.padEnd(14)} ${sorted.length} queries: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`);
      }
    } finally {
      await app.close();
    }
    return { dialect: dialect === 'postgres' ? 'PostgreSQL' : 'SQLite', videos, generatorSeconds, cues, indexBytes, tableBytes, indexWhat, latencies };
  } finally {
    if (dialect === 'postgres' && !reused) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely);
    await db.close();
    if (!reused || dialect === 'postgres') fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function goal(ms: number, limit: number): string {
  return `${ms.toFixed(1)} (goal ≤ ${limit} ms: ${ms <= limit ? 'met' : 'missed'})`;
}

async function main(): Promise<void> {
  const load = os.loadavg().map((l) => l.toFixed(2)).join(', ');
  const machine = `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), load average ${load} at the start`;
  const runs: Run[] = [];
  for (const dialect of DATABASES) runs.push(await measure(dialect));

  const header = ['', ...runs.map((r) => r.dialect)];
  const rows: string[][] = [
    ['cues', ...runs.map((r) => r.cues.toLocaleString('en'))],
    ['generator (videos, cues, indexes)', ...runs.map((r) => (r.generatorSeconds === undefined ? 'not run (a library generated before)' : `${r.generatorSeconds.toFixed(0)} s`))],
    ['cue index size', ...runs.map((r) => mib(r.indexBytes))],
    ['cue table size', ...runs.map((r) => mib(r.tableBytes))],
  ];
  for (const kind of KINDS) {
    const sorted = (r: Run) => [...r.latencies.get(kind)!.times].sort((a, b) => a - b);
    const goals = kind !== 'one word';
    rows.push([`${kind}: p50 ms`, ...runs.map((r) => (goals ? goal(percentile(sorted(r), 50), GOAL.p50) : percentile(sorted(r), 50).toFixed(1)))]);
    rows.push([`${kind}: p99 ms`, ...runs.map((r) => (goals ? goal(percentile(sorted(r), 99), GOAL.p99) : percentile(sorted(r), 99).toFixed(1)))]);
    rows.push([`${kind}: videos found (median)`, ...runs.map((r) => String(percentile([...r.latencies.get(kind)!.found].sort((a, b) => a - b), 50)))]);
  }
  const text = [
    `${[...new Set(runs.map((r) => r.videos))].map((n) => n.toLocaleString('en')).join(' / ')} videos × ${CUES} cues (Spanish; one video in 20 also English), made by \`generate --cues\`; ${machine}. ` +
      `In-process through the API (\`app.inject\`, GET /api/videos?q=…&limit=24 as a user of an organisation), one request at a time, ` +
      `${QUERIES} distinct queries per kind, each asked once (no remembered page). Index: ${runs.map((r) => `${r.dialect}: ${r.indexWhat}`).join('; ')}.`,
    markdownTable(header, rows),
  ].join('\n\n');
  reportSection('caption-search', 'Search in what is said: GET /api/videos?q= over subtitle cues', text);
}

await main();
