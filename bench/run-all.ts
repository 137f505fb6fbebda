/**
 * `npm run bench`: every benchmark, one after the other, then bench/results.md (also printed): the
 * machine and the date, each benchmark's section (bench/report.ts reportSection), a summary of the
 * goals (met / missed) and how long each benchmark took.
 *
 * Each benchmark runs as its own process (`tsx bench/<name>.ts`) with BENCH_RESULTS_DIR set to a
 * temporary directory where it leaves its section; its output streams through. A benchmark that
 * fails (non-zero exit, or over its time limit: its whole process group is killed) is shown as
 * failed, with the end of its output, and makes this command exit non-zero; the others still run.
 * A benchmark whose file does not exist (yet) is listed as "not present".
 *
 * The browser benchmarks (first-screen, lighthouse…) measure the build: the product is built first
 * (`npm run build`) when dist/ is missing or older than its sources. With TAO_DIST set (a build kept
 * apart, scripts/build-apart.sh) that build is measured and nothing is built.
 *
 *   npm run bench                       every benchmark, writes bench/results.md
 *   npm run bench -- media-range lighthouse    only those (bench/results.md then holds only those)
 *   BENCH_DATABASE_URL=postgres://…     the benchmarks that support it run on PostgreSQL
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { markdownTable, OWN_GOAL } from './report.ts';

interface Bench {
  id: string;
  /** extra arguments */
  args?: string[];
  /** killed past this */
  limitMinutes: number;
}

/** In the order they run and appear. */
const BENCHES: Bench[] = [
  { id: 'api-overhead', limitMinutes: 3 },
  { id: 'videos-list', limitMinutes: 5 },
  // the list's goal: p99 at an organisation's busiest, PostgreSQL and SQLite with 100,000 videos
  { id: 'list-load', limitMinutes: 12 },
  { id: 'media-range', limitMinutes: 6 },
  { id: 'upload-throughput', limitMinutes: 6 },
  { id: 'video-rewrite', limitMinutes: 4 },
  { id: 'transcode', limitMinutes: 8 },
  { id: 'playback', limitMinutes: 20 },
  { id: 'statistics', limitMinutes: 6 },
  // search in what is said: 6.3 million generated cues on SQLite and on PostgreSQL (most of it generating)
  { id: 'caption-search', limitMinutes: 45 },
  { id: 'first-screen', limitMinutes: 2 },
  { id: 'lighthouse', limitMinutes: 9 },
  { id: 'load', limitMinutes: 5 },
  { id: 'crash-safety', limitMinutes: 5 },
  { id: 'instances', limitMinutes: 5 },
];

const root = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(root, 'bench/results.md');
const TSX = path.join(root, 'node_modules/tsx/dist/cli.mjs');
/** What the build is made from: newer than the build means it is stale. */
const BUILD_SOURCES = ['src', 'server', 'contract', 'machines', 'public', 'index.html', 'openapi.yaml', 'vite.config.ts', 'tsconfig.server.json', 'package.json'];
const OUTPUT_TAIL_LINES = 30;

type Status = 'ok' | 'failed' | 'not present';

interface Outcome {
  bench: Bench;
  status: Status;
  exitCode: number | null;
  /** why it failed, in words */
  failure?: string;
  seconds: number;
  sections: string[];
  tail: string[];
}

// ── the machine ─────────────────────────────────────────────────────────────────────────────────

function osName(): string {
  try {
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(fs.readFileSync('/etc/os-release', 'utf8'))?.[1] ?? os.type();
  } catch {
    return os.type();
  }
}

async function databaseName(): Promise<string> {
  const sqlite = new Database(':memory:');
  const version = (sqlite.prepare('select sqlite_version() as v').get() as { v: string }).v;
  sqlite.close();
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) return `SQLite ${version} (better-sqlite3, embedded; the default)`;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const row = (await client.query<{ version: string }>('select version()')).rows[0]!;
    return `${row.version.split(' on ')[0]} (BENCH_DATABASE_URL) where a benchmark supports it, else SQLite ${version}`;
  } finally {
    await client.end();
  }
}

function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

async function header(started: Date, only: string[]): Promise<string> {
  const cpus = os.cpus();
  const rows = [
    ['CPU', `${cpus[0]?.model.trim() ?? 'unknown'}`],
    ['cores', String(cpus.length)],
    ['memory', `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`],
    ['OS / kernel', `${osName()} / ${os.type()} ${os.release()} (${os.arch()})`],
    ['Node', process.version],
    ['database', await databaseName()],
    ['load average at the start', os.loadavg().map((x) => x.toFixed(2)).join(', ')],
    ['commit', gitCommit()],
  ];
  return [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` (bench/run-all.ts) on ${started.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}` +
      `${only.length > 0 ? `, for ${only.join(', ')} only` : ''}. Each figure is the median of several runs with its range ` +
      `and spread ((max − min) / median); timings depend on the machine and on what else runs on it.`,
    '',
    markdownTable(['machine', ''], rows),
  ].join('\n');
}

// ── building ────────────────────────────────────────────────────────────────────────────────────

function newestMtime(file: string): number {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(file)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

/** The oldest of the build's two entry points, or 0 when one is missing. */
function builtAt(dist: string): number {
  const entries = [path.join(dist, 'server/server/main.js'), path.join(dist, 'client/index.html')];
  if (!entries.every((file) => fs.existsSync(file))) return 0;
  return Math.min(...entries.map((file) => fs.statSync(file).mtimeMs));
}

function ensureBuilt(): void {
  const apart = process.env.TAO_DIST;
  const dist = path.resolve(root, apart ?? 'dist');
  const built = builtAt(dist);
  const sources = Math.max(...BUILD_SOURCES.map((file) => newestMtime(path.join(root, file))));
  if (built >= sources) {
    console.log(`The build in ${path.relative(root, dist)}/ is up to date.`);
    return;
  }
  if (apart) {
    console.log(`TAO_DIST=${apart}: ${built === 0 ? 'no build there' : 'that build is older than the sources'}; measuring it as it is (scripts/build-apart.sh rebuilds it).`);
    return;
  }
  console.log(built === 0 ? 'dist/ is missing: npm run build' : 'dist/ is older than the sources: npm run build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed (${build.status ?? build.signal})`);
}

// ── running one benchmark ───────────────────────────────────────────────────────────────────────

let current: import('node:child_process').ChildProcess | undefined;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killGroup(current?.pid);
    process.exit(130);
  });
}

async function runBench(bench: Bench, resultsDir: string): Promise<Outcome> {
  const file = path.join(root, 'bench', `${bench.id}.ts`);
  const outcome: Outcome = { bench, status: 'not present', exitCode: null, seconds: 0, sections: [], tail: [] };
  console.log(`\n━━ ${bench.id} ━━ ${new Date().toISOString()}`);
  if (!fs.existsSync(file)) {
    console.log(`bench/${bench.id}.ts: not present`);
    return outcome;
  }
  const dir = path.join(resultsDir, bench.id);
  fs.mkdirSync(dir, { recursive: true });
  const started = process.hrtime.bigint();
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  // Its own process group, so that a benchmark over its limit goes with its servers and browsers.
  const child = spawn(process.execPath, [TSX, file, ...(bench.args ?? [])], {
    cwd: root,
    env: { ...process.env, BENCH_RESULTS_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  current = child;
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    keep(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    keep(chunk);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    console.error(`bench/${bench.id}.ts: over its ${bench.limitMinutes} minutes, stopping it`);
    killGroup(child.pid);
  }, bench.limitMinutes * 60_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('close', (c, s) => resolve([c, s]));
    child.once('error', (error) => {
      keep(Buffer.from(String(error)));
      resolve([null, null]);
    });
  });
  clearTimeout(timer);
  current = undefined;
  // Whatever it left behind in its group (a server, a browser) goes too.
  killGroup(child.pid);
  outcome.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  outcome.exitCode = code;
  outcome.tail = output.trimEnd().split('\n').slice(-OUTPUT_TAIL_LINES);
  outcome.sections = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8').trim());
  if (timedOut) outcome.failure = `stopped after its limit of ${bench.limitMinutes} minutes`;
  else if (code !== 0) outcome.failure = code === null ? `ended by ${signal ?? 'an error'}` : `exit code ${code}`;
  else if (outcome.sections.length === 0) outcome.failure = 'it wrote no section (bench/report.ts reportSection)';
  outcome.status = outcome.failure ? 'failed' : 'ok';
  return outcome;
}

// ── the goals ───────────────────────────────────────────────────────────────────────────────────

interface Goal {
  bench: string;
  figure: string;
  result: string;
  met: boolean;
  /** the product's requirements set it, or this project (OWN_GOAL in its text) */
  own: boolean;
}

/**
 * The goals a section states, as formatRatio writes them ("83 % (goal ≥ 70 %: met)") or any
 * "goal …: met / MISSED / NOT met": in a table row, named by the row's first cell; elsewhere by the
 * line's text before the figure.
 */
function goalsOf(bench: string, section: string): Goal[] {
  const goals: Goal[] = [];
  const pattern = /\(?(?:own )?goal\b[^:|]*:\s*(met|missed|not met)\)?/i;
  for (const line of section.split('\n')) {
    if (!pattern.test(line)) continue;
    if (line.trim().startsWith('|')) {
      const cells = line.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((cell) => cell.trim());
      for (const cell of cells.slice(1)) {
        const match = pattern.exec(cell);
        if (match) goals.push({ bench, figure: cells[0]!, result: cell, met: match[1]!.toLowerCase() === 'met', own: cell.includes(OWN_GOAL) });
      }
    } else {
      for (const sentence of line.split(/(?<=\))[;.,]\s+/)) {
        const match = pattern.exec(sentence);
        if (!match) continue;
        const text = sentence.replace(/^[-*]\s*/, '').trim();
        const figure = text.slice(0, match.index).replace(/[\s:(]+$/, '');
        const result = text.slice(match.index).replace(/[.;,]+$/, '');
        goals.push({ bench, figure: figure.length > 0 ? figure : text, result, met: match[1]!.toLowerCase() === 'met', own: result.includes(OWN_GOAL) });
      }
    }
  }
  return goals;
}

function failedSection(outcome: Outcome): string {
  return [
    `## ${outcome.bench.id}: failed`,
    '',
    `bench/${outcome.bench.id}.ts failed: ${outcome.failure}. The end of its output:`,
    '',
    '```',
    ...outcome.tail,
    '```',
  ].join('\n');
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<number> {
  const only = process.argv.slice(2);
  const unknown = only.filter((id) => !BENCHES.some((bench) => bench.id === id));
  if (unknown.length > 0) throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.id).join(', ')}`);
  const started = new Date();
  const top = await header(started, only);
  ensureBuilt();

  const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-results-'));
  const outcomes: Outcome[] = [];
  try {
    for (const bench of BENCHES) {
      if (only.length > 0 && !only.includes(bench.id)) continue;
      const outcome = await runBench(bench, resultsDir);
      outcomes.push(outcome);
      console.log(`━━ ${bench.id}: ${outcome.status}${outcome.failure ? ` (${outcome.failure})` : ''}, ${outcome.seconds.toFixed(0)} s`);
    }
  } finally {
    fs.rmSync(resultsDir, { recursive: true, force: true });
  }
  const totalSeconds = (Date.now() - started.getTime()) / 1000;

  const goals = outcomes.flatMap((outcome) => outcome.sections.flatMap((section) => goalsOf(outcome.bench.id, section)));
  const goalRows = goals.map((goal) => [goal.bench, goal.figure, goal.result, goal.own ? 'this project' : 'the product', goal.met ? 'met' : '**MISSED**']);
  const missed = goals.filter((goal) => !goal.met).length;
  /** "5 of 6 met, 1 missed" */
  const count = (some: Goal[]) => {
    const notMet = some.filter((goal) => !goal.met).length;
    return `${some.length - notMet} of ${some.length} met${notMet > 0 ? `, ${notMet} missed` : ''}`;
  };
  const failed = outcomes.filter((outcome) => outcome.status === 'failed');
  const durationRows = outcomes.map((outcome) => [
    `bench/${outcome.bench.id}.ts`,
    outcome.status === 'failed' ? `**failed** (${outcome.failure})` : outcome.status,
    outcome.status === 'not present' ? '' : `${outcome.seconds.toFixed(0)} s`,
  ]);
  durationRows.push(['total (with the build check)', '', `${totalSeconds.toFixed(0)} s (${(totalSeconds / 60).toFixed(1)} min)`]);

  const parts = [
    top,
    '## Goals',
    goals.length === 0
      ? 'No goal was reported.'
      : `${goals.length - missed} of ${goals.length} goals met${missed > 0 ? `, ${missed} missed` : ''}` +
        `${failed.length > 0 ? `; ${failed.length} benchmark(s) failed and report nothing here` : ''}. ` +
        `The product's goals: ${count(goals.filter((goal) => !goal.own))}. This project's own (marked "${OWN_GOAL}"): ${count(goals.filter((goal) => goal.own))}.\n\n` +
        markdownTable(['benchmark', 'figure', 'result', 'set by', 'goal'], goalRows),
    ...outcomes.flatMap((outcome) => [...outcome.sections, ...(outcome.status === 'failed' ? [failedSection(outcome)] : [])]),
    '## Durations',
    markdownTable(['benchmark', 'status', 'duration'], durationRows),
  ];
  const text = `${parts.join('\n\n')}\n`;
  fs.writeFileSync(RESULTS, text);
  console.log(`\n${'━'.repeat(100)}\n\n${text}`);
  console.log(`Written to ${path.relative(process.cwd(), RESULTS)}.`);
  return failed.length > 0 ? 1 : 0;
}

process.exitCode = await main();
