/**
 * Does the dashboard stay as fast as the history grows? Fills a temporary SQLite database with the
 * generate command's bulk inserts (10,000 videos, 2,000 users, 20,000 ratings, 100,000 view events
 * over 90 days), then measures GET /api/statistics through the real app (buildApp, `app.inject`
 * with an administrator's token, one request at a time): each table's first page and a deep page
 * (the last 100 rows there were at 100,000 views, the same offset at both sizes), the info boxes and
 * the views per day. Adds 900,000 view events (1,000,000 in all) and measures again; prints both
 * medians and p95s and the ratio of the medians per query. For contrast, the GROUP BY over
 * view_events the counters avoid, timed at both sizes; and the opening of a video (GET
 * /api/videos/{id}), which now also counts the view. Goal (R-STAT-9): no query of the dashboard slower
 * than 2× at 1,000,000 views than at 100,000 (ratio of the medians). The report also gives the spread of
 * the medians of 5 consecutive slices of each case's requests. Local only, bounded: it stops by itself and
 * removes its files.
 *
 *   npx tsx bench/statistics.ts [requests per case, default 200]
 *   BENCH_KEEP=1 keeps the database and prints where;
 *   BENCH_DATABASE_URL=postgres://… runs on PostgreSQL (in a schema of its own) instead.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../server/app.ts';
import { loadConfig, type Config } from '../server/config.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrator.ts';
import { insertUser } from '../server/modules/accounts/accounts.repository.ts';
import { sessionTokenFor } from '../server/modules/accounts/login.service.ts';
import { generate } from '../server/modules/statistics/generate.ts';
import { loadSecrets } from '../server/secrets.ts';
import { formatRatio, formatSummary, markdownTable, reportSection, summarize, type Summary } from './report.ts';

/** The opening of a video (it records a view) at each size of the view events. */
const DETAIL = 'GET /api/videos/{id} (+1 view)';

const VIDEOS = 10_000;
const USERS = 2_000;
const RATINGS = 20_000;
const FIRST_VIEWS = 100_000;
const MORE_VIEWS = 900_000;
const WARM_UP = 20;
const HARD_LIMIT_MS = 15 * 60_000;

interface Case {
  name: string;
  url: string;
}

/** How many consecutive slices the requests of a case are cut into, for the spread of their medians. */
const ROUNDS = 5;

/** Median and 95th percentile of durations in ms, and the medians of ROUNDS consecutive slices of them. */
interface Figures {
  p50: number;
  p95: number;
  rounds: Summary;
}

function figures(times: number[]): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const slices = Math.min(ROUNDS, times.length);
  const size = Math.ceil(times.length / slices);
  const medians = Array.from({ length: slices }, (_, i) => summarize(times.slice(i * size, (i + 1) * size)).median);
  return { p50: at(0.5), p95: at(0.95), rounds: summarize(medians) };
}

async function timeRequests(app: FastifyInstance, token: string, url: (i: number) => string, runs: number): Promise<Figures> {
  const headers = { authorization: `Bearer ${token}` };
  for (let i = 0; i < WARM_UP; i++) await app.inject({ method: 'GET', url: url(i), headers });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url: url(WARM_UP + i), headers });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (res.statusCode !== 200) throw new Error(`${url(i)}: ${res.statusCode} ${res.body}`);
  }
  return figures(times);
}

/** What the counters avoid: the rankings counted from the view events at every request. */
const NAIVE: Array<{ name: string; query: ReturnType<typeof sql> }> = [
  { name: 'uma as GROUP BY', query: sql`select user_id, count(*) as n from view_events group by user_id order by n desc, user_id limit 25` },
  { name: 'oma as GROUP BY', query: sql`select organizacion, count(*) as n from view_events where organizacion is not null group by organizacion order by n desc, organizacion limit 25` },
  { name: 'vmv as GROUP BY', query: sql`select video_id, count(*) as n from view_events group by video_id order by n desc, video_id limit 25` },
];

async function timeQuery(db: Db, query: ReturnType<typeof sql>, runs: number): Promise<Figures> {
  await query.execute(db.kysely); // warm up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await query.execute(db.kysely);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return figures(times);
}

/** The row count of each table (to place the deep pages), read through the counters. */
async function tableSizes(db: Db): Promise<Record<'uma' | 'oma' | 'vmv' | 'vmr', number>> {
  const n = async (query: ReturnType<typeof sql<{ n: number | string }>>) => Number((await query.execute(db.kysely)).rows[0]!.n);
  return {
    uma: await n(sql`select count(*) as n from users where view_count > 0`),
    oma: await n(sql`select count(*) as n from organization_views where view_count > 0`),
    vmv: await n(sql`select count(*) as n from videos where view_count > 0 and status = 'ready'`),
    vmr: await n(sql`select count(*) as n from videos where rating_count > 0 and status = 'ready'`),
  };
}

function casesFor(sizes: Record<'uma' | 'oma' | 'vmv' | 'vmr', number>): Case[] {
  const cases: Case[] = [];
  for (const table of ['uma', 'oma', 'vmv', 'vmr'] as const) {
    cases.push({ name: `${table} first page (25)`, url: `/api/statistics?option=infoTable&table=${table}&limit=25&offset=0` });
    const deep = Math.max(0, sizes[table] - 100);
    cases.push({ name: `${table} deep page (100 @ ${deep})`, url: `/api/statistics?option=infoTable&table=${table}&limit=100&offset=${deep}` });
  }
  cases.push({ name: 'infoBox', url: '/api/statistics?option=infoBox' });
  cases.push({ name: 'viewsPerDay (Madrid)', url: '/api/statistics?option=viewsPerDay&tz=Europe%2FMadrid' });
  return cases;
}

async function measure(app: FastifyInstance, db: Db, token: string, cases: Case[], videoIds: number[], runs: number): Promise<Map<string, Figures>> {
  const results = new Map<string, Figures>();
  for (const c of cases) results.set(c.name, await timeRequests(app, token, () => c.url, runs));
  // each request opens another video (a repeat within 10 s would not count), so each records a view
  let next = 0;
  results.set(DETAIL, await timeRequests(app, token, () => `/api/videos/${videoIds[next++ % videoIds.length]!}`, runs));
  for (const naive of NAIVE) results.set(naive.name, await timeQuery(db, naive.query, Math.max(5, Math.floor(runs / 20))));
  return results;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 200);
  const guard = setTimeout(() => {
    console.error('benchmark took too long: stopping');
    process.exit(2);
  }, HARD_LIMIT_MS);
  guard.unref();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-statistics-'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const pgSchema = `bench_${crypto.randomBytes(6).toString('hex')}`;
  const config: Config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIR: path.join(dataDir, 'no-client') });
  let db: Db | undefined;
  let app: FastifyInstance | undefined;
  try {
    db = await openDatabase(pgUrl ? { databaseUrl: pgUrl, dataDir, pgSchema } : { dataDir });
    await migrateToLatest(db);
    const at = new Date().toISOString();
    const admin = await insertUser(db.kysely, {
      username: 'bench-admin', username_key: 'bench-admin', nombre: 'Bench admin', email: null, rol: 'admin', organizacion: null,
      password_hash: null, otp_state: 'OTP_ACTIVED', created_at: at, updated_at: at,
    });
    const token = await sessionTokenFor({ config, db, secrets: loadSecrets(config) }, admin);

    let started = Date.now();
    const first = await generate(db, { videos: VIDEOS, users: USERS, views: FIRST_VIEWS, ratings: RATINGS, seed: 1 });
    console.log(`node ${process.version}, ${os.cpus().length} cores, ${db.dialect}: ${VIDEOS} videos, ${USERS} users, ${first.ratingsCreated} ratings, ` +
      `${FIRST_VIEWS} views generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const sizes = await tableSizes(db);
    console.log(`rows with views at ${FIRST_VIEWS}: uma ${sizes.uma}, oma ${sizes.oma}, vmv ${sizes.vmv}; vmr ${sizes.vmr}`);
    const cases = casesFor(sizes);
    const videoIds = (await db.kysely.selectFrom('videos').select('id').orderBy('id').limit(runs + WARM_UP).execute()).map((v) => v.id);

    app = await buildApp({ config, db, logger: false });
    await app.ready();
    // one pass over every case first, so that the first size is not measured on colder code than the second
    for (const c of cases) await timeRequests(app, token, () => c.url, WARM_UP);
    const small = await measure(app, db, token, cases, videoIds, runs);

    started = Date.now();
    await generate(db, { videos: 0, users: 0, views: MORE_VIEWS, seed: 2 });
    const total = Number((await sql<{ n: number | string }>`select count(*) as n from view_events`.execute(db.kysely)).rows[0]!.n);
    console.log(`${MORE_VIEWS} more views generated in ${((Date.now() - started) / 1000).toFixed(1)} s: ${total} view events`);
    const big = await measure(app, db, token, cases, videoIds.slice().reverse(), runs);

    const heading = (text: string) => text.padStart(17);
    console.log(`\n${runs} sequential requests per case after ${WARM_UP} to warm up (app.inject, administrator); GROUP BY queries: ${Math.max(5, Math.floor(runs / 20))} runs`);
    console.log(`ms: median / p95\n`);
    console.log(`${'query'.padEnd(32)} ${heading(`${FIRST_VIEWS / 1000}k views`)} ${heading(`${total / 1_000_000}M views`)}  ratio of medians`);
    for (const [name, before] of small) {
      const after = big.get(name)!;
      if (name === NAIVE[0]!.name) console.log('\nwhat the counters avoid (the same rankings counted from view_events):');
      const cell = (f: Figures) => heading(`${f.p50.toFixed(2)} / ${f.p95.toFixed(2)}`);
      console.log(`${name.padEnd(32)} ${cell(before)} ${cell(after)}  ${(after.p50 / before.p50).toFixed(2).padStart(6)}×`);
    }

    const naive = new Set(NAIVE.map((n) => n.name));
    const row = (name: string, goal: boolean) => {
      const before = small.get(name)!;
      const after = big.get(name)!;
      return [
        name,
        `${formatSummary(before.rounds, 2, 'ms')}; p95 ${before.p95.toFixed(2)}`,
        `${formatSummary(after.rounds, 2, 'ms')}; p95 ${after.p95.toFixed(2)}`,
        // the detail is not one of the statistics' tables R-STAT-9 names: its goal is this project's own
        formatRatio(after.p50 / before.p50, goal ? { atMost: 2, percent: false, own: name === DETAIL } : { percent: false }),
      ];
    };
    const header = ['query', `${FIRST_VIEWS / 1000}k views: median (ms)`, `${Math.round(total / 100_000) / 10}M views: median (ms)`, 'ratio of medians'];
    reportSection(
      'statistics',
      'Statistics dashboard: 100,000 vs 1,000,000 views',
      `GET /api/statistics through the real app (\`app.inject\`, an administrator's token, one request at a time) on ` +
        `${db.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} with ${VIDEOS} videos, ${USERS} users and ${RATINGS} ratings, at ` +
        `${FIRST_VIEWS.toLocaleString('en')} and then ${total.toLocaleString('en')} view events: ${runs} requests per case after ${WARM_UP} to ` +
        `warm up. Each median is of all the requests; its range and spread are those of the medians of ${ROUNDS} consecutive ` +
        `slices. Goal: every query at most 2× slower at 1M views than at 100k (ratio of the medians).\n\n` +
        markdownTable(header, [...small.keys()].filter((name) => !naive.has(name)).map((name) => row(name, true))) +
        `\n\nWhat the counters avoid, for contrast (the same rankings counted from view_events by GROUP BY at every request, ` +
        `${Math.max(5, Math.floor(runs / 20))} runs each; no goal):\n\n` +
        markdownTable(header, [...naive].map((name) => row(name, false))),
    );
  } finally {
    if (app) await app.close();
    if (db) {
      if (pgUrl && !process.env.BENCH_KEEP) await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(db.kysely);
      await db.close();
    }
    if (!process.env.BENCH_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
    else console.log(pgUrl ? `${dataDir} (schema ${pgSchema})` : dataDir);
  }
}

await main();
