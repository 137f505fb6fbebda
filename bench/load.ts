/**
 * How does the built server hold up under many people at once? 200 simulated users (each a real account
 * of its own) for 60 s against the BUILT server (bench/built-server.ts: dist/ or TAO_DIST) on SQLite,
 * with the demo library (server/media/demo.ts, real videos with thumbnails and previews, as
 * `npm run cli -- demo`) and more videos, views and ratings from the statistics `generate`.
 *
 * Set-up, before the server starts, on its data directory: the demo (`--videos`, default 6), generated
 * rows (`--generated`, default 2,000 videos with 20,000 views and 4,000 ratings: rows only, they have no
 * media) and the users: `--users` (default 200) accounts with one password and each its own second-factor
 * secret (enrolled). Each user signs in once through the API (POST /api/login, then POST /api/mfa with
 * the code an authenticator would show; no failures, so the lockout rules never trigger), then loops
 * without pause until the time is up:
 *  - list: GET /api/videos, pages of 24 as the app asks them, with a random filter (none, a tag, a
 *    minimum score, a text search, favourites, this month, or a tag and a score) and page (offset 0, 24, 48);
 *  - detail: GET /api/videos/{id} of a demo video (it records a view);
 *  - rating: PATCH /puntuacion (1–5); favourite: PATCH /favorito (toggled);
 *  - media: two Range requests (128 KiB at the start, then at a random place) of the video's signed
 *    location from the detail (206), and its thumbnail, revalidated with If-None-Match (304 after the first).
 * Requests go over keep-alive connections (node:http Agent), accepting br/gzip like a browser; the
 * load generator is this process, the server another one. Any answer other than 2xx/3xx counts as an
 * error (printed by kind and status); a 206 must carry the range asked for. Prints requests per second,
 * p50/p90/p99 latency per kind of request, and the CPU time of the server and of the load generator.
 * Exits 1 on any error.
 *
 *   TAO_DIST=.tmp/<name>/dist npx tsx bench/load.ts [--users 200] [--seconds 60] [--videos 6] [--generated 2000]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import * as OTPAuth from 'otpauth';
import { loadConfig } from '../server/config.ts';
import { now, openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrator.ts';
import { DEMO_ORGANIZATIONS } from '../server/media/demo-content.ts';
import { loadDemo } from '../server/media/demo.ts';
import { insertUser } from '../server/modules/accounts/accounts.repository.ts';
import { hashPassword } from '../server/modules/accounts/passwords.ts';
import { newTotpSecret } from '../server/modules/accounts/totp.ts';
import { generate } from '../server/modules/statistics/generate.ts';
import { seededRandom } from '../server/seeded-random.ts';
import { loadSecrets } from '../server/secrets.ts';
import { cpuSeconds, freePort, startBuiltServer, type BuiltServer } from './built-server.ts';
import { markdownTable, OWN_GOAL, reportSection } from './report.ts';

const HARD_LIMIT_MS = 6 * 60_000;
const PAGE = 24;
const RANGE_BYTES = 128 * 1024;
const PASSWORD = 'una contraseña de carga';
const XSRF = 'bench-load-xsrf-0123456789';
const SIGN_IN_AT_ONCE = 8;

const { values: options } = parseArgs({
  options: {
    users: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    videos: { type: 'string', default: '6' },
    generated: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
  },
  strict: true,
});
const USERS = Number(options.users);
const SECONDS = Number(options.seconds);
const DEMO_VIDEOS = Number(options.videos);
const GENERATED = Number(options.generated);
const SEED = Number(options.seed);

// ── HTTP over keep-alive connections ────────────────────────────────────────────────────────────

const agent = new http.Agent({ keepAlive: true, maxSockets: USERS + 16, maxFreeSockets: USERS + 16 });
let port = 0;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** bytes received */
  length: number;
  body: Buffer;
}

/** One request; `count`: the body is only counted (media), not kept. */
function request(method: string, url: string, headers: Record<string, string>, body?: string, count = false): Promise<Answer> {
  const timeoutMs = url.startsWith('/api/login') || url.startsWith('/api/mfa') ? 180_000 : 30_000;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      res.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (!count) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, length, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

const json = <T>(answer: Answer): T => {
  const encoding = answer.headers['content-encoding'];
  const raw = encoding === 'br' ? zlib.brotliDecompressSync(answer.body) : encoding === 'gzip' ? zlib.gunzipSync(answer.body) : answer.body;
  return JSON.parse(raw.toString('utf8')) as T;
};

// ── what is measured ────────────────────────────────────────────────────────────────────────────

/** The lists by their filter: each is a query of its own. */
const LIST_KINDS = ['list', 'list: tag', 'list: score', 'list: text', 'list: favourites', 'list: this month', 'list: tags and score'] as const;
type Kind = 'sign-in' | (typeof LIST_KINDS)[number] | 'detail' | 'rating' | 'favourite' | 'media range' | 'thumbnail';
const KINDS: Kind[] = ['sign-in', ...LIST_KINDS, 'detail', 'rating', 'favourite', 'media range', 'thumbnail'];
const latencies = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
const statuses = new Map<Kind, Map<number, number>>(KINDS.map((k) => [k, new Map()]));
const errors = new Map<string, number>();
const errorSamples: string[] = [];
let measuring = false;

function error(kind: Kind, what: string, detail: string): void {
  const key = `${kind}: ${what}`;
  errors.set(key, (errors.get(key) ?? 0) + 1);
  if (errorSamples.length < 10) errorSamples.push(`${key}: ${detail.slice(0, 200)}`);
}

/** One timed request; anything but 2xx/3xx (or an expected status) is an error of its kind. */
async function timed(kind: Kind, method: string, url: string, headers: Record<string, string>, body?: string, expected?: number[]): Promise<Answer | undefined> {
  const started = performance.now();
  let answer: Answer;
  try {
    answer = await request(method, url, headers, body, kind === 'media range');
  } catch (e) {
    error(kind, 'no answer', e instanceof Error ? e.message : String(e));
    return undefined;
  }
  const ms = performance.now() - started;
  if (measuring || kind === 'sign-in') {
    latencies.get(kind)!.push(ms);
    const byStatus = statuses.get(kind)!;
    byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
  }
  const ok = expected ? expected.includes(answer.status) : answer.status >= 200 && answer.status < 400;
  if (!ok) {
    error(kind, String(answer.status), `${method} ${url.slice(0, 120)}: ${answer.body.toString('utf8').slice(0, 200)}`);
    return undefined;
  }
  return answer;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

// ── the simulated users ─────────────────────────────────────────────────────────────────────────

interface User {
  name: string;
  secret: string;
  token?: string;
  /** the favourites as this user last set them */
  favourites: Map<number, boolean>;
  /** thumbnail ETags seen (If-None-Match) */
  etags: Map<string, string>;
}

const headersOf = (user: User, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${user.token}`,
  'accept-encoding': 'br, gzip',
  ...extra,
});
const writeHeaders = (user: User) => headersOf(user, { cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF, 'content-type': 'application/json-patch+json' });

async function signIn(user: User): Promise<void> {
  const base = { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF };
  const first = await timed('sign-in', 'POST', '/api/login', base, JSON.stringify({ user: user.name, password: PASSWORD }));
  if (!first) return;
  const pending = json<{ token: string }>(first).token;
  const totp = new OTPAuth.TOTP({ issuer: 'TAO', label: user.name, algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(user.secret) });
  const second = await timed('sign-in', 'POST', '/api/mfa', { ...base, authorization: `Bearer ${pending}` }, JSON.stringify({ user: user.name, mfaCode: totp.generate() }));
  if (second) user.token = json<{ token: string }>(second).token;
}

function listRequest(rnd: () => number, library: Library): { kind: Kind; url: string } {
  const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)]!;
  const filters: Record<(typeof LIST_KINDS)[number], () => Record<string, string>> = {
    list: () => ({}),
    'list: tag': () => ({ tag: `in:${pick(library.tagIds)}` }),
    'list: score': () => ({ score: `gte:${1 + Math.floor(rnd() * 4)}` }),
    'list: text': () => ({ q: pick(library.words) }),
    'list: favourites': () => ({ favorited: 'eq:true' }),
    'list: this month': () => ({ 'upload-date': 'tm', tz: 'Europe/Madrid' }),
    'list: tags and score': () => ({ tag: `in:${pick(library.tagIds)},${pick(library.tagIds)}`, score: `gte:${1 + Math.floor(rnd() * 3)}` }),
  };
  const kind = pick(LIST_KINDS);
  const query = new URLSearchParams({ ...filters[kind](), limit: String(PAGE), offset: String(PAGE * Math.floor(rnd() * 3)) });
  return { kind, url: `/api/videos?${query}` };
}

async function loop(user: User, library: Library, rnd: () => number, until: number): Promise<number> {
  let rounds = 0;
  while (Date.now() < until) {
    rounds += 1;
    const list = listRequest(rnd, library);
    await timed(list.kind, 'GET', list.url, headersOf(user));

    const id = library.demoIds[Math.floor(rnd() * library.demoIds.length)]!;
    const detail = await timed('detail', 'GET', `/api/videos/${id}`, headersOf(user));
    if (Date.now() >= until) break;

    await timed('rating', 'PATCH', `/api/videos/${id}`, writeHeaders(user), JSON.stringify([{ op: 'replace', path: '/puntuacion', value: 1 + Math.floor(rnd() * 5) }]));
    const favourite = !(user.favourites.get(id) ?? false);
    const toggled = await timed('favourite', 'PATCH', `/api/videos/${id}`, writeHeaders(user), JSON.stringify([{ op: 'replace', path: '/favorito', value: favourite }]));
    if (toggled) user.favourites.set(id, favourite);
    if (!detail || Date.now() >= until) continue;

    const video = json<{ urlVideo: string; urlThumbnail: string | null }>(detail);
    const size = library.sizes.get(id)!;
    for (const start of [0, Math.floor(rnd() * Math.max(1, size - RANGE_BYTES))]) {
      const end = Math.min(size, start + RANGE_BYTES) - 1;
      const answer = await timed('media range', 'GET', video.urlVideo, { range: `bytes=${start}-${end}` }, undefined, [206]);
      if (answer && (answer.headers['content-range'] !== `bytes ${start}-${end}/${size}` || answer.length !== end - start + 1)) {
        error('media range', 'wrong range', `asked ${start}-${end}/${size}, got ${answer.headers['content-range']} with ${answer.length} bytes`);
      }
    }
    if (video.urlThumbnail) {
      const etag = user.etags.get(video.urlThumbnail);
      const answer = await timed('thumbnail', 'GET', video.urlThumbnail, etag ? { 'if-none-match': etag } : {}, undefined, etag ? [304] : [200]);
      if (answer?.headers.etag) user.etags.set(video.urlThumbnail, answer.headers.etag);
    }
  }
  return rounds;
}

// ── set-up ──────────────────────────────────────────────────────────────────────────────────────

async function prepare(dataDir: string, log: (line: string) => void): Promise<User[]> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const db = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await migrateToLatest(db);
    let started = Date.now();
    const demo = await loadDemo({ config, db, secrets: loadSecrets(config) }, { videos: DEMO_VIDEOS });
    log(`demo library: ${demo.videosCreated} videos with media, ${demo.tags} tags (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    started = Date.now();
    const generated = await generate(db, { videos: GENERATED, users: 0, views: GENERATED * 10, ratings: GENERATED * 2, seed: SEED });
    log(`generated: ${generated.videosCreated} videos, ${generated.viewsCreated} views, ${generated.ratingsCreated} ratings (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    started = Date.now();
    const passwordHash = await hashPassword(PASSWORD);
    const users: User[] = [];
    await db.kysely.transaction().execute(async (trx) => {
      const at = now();
      for (let i = 1; i <= USERS; i++) {
        const name = `carga.${String(i).padStart(3, '0')}`;
        const secret = newTotpSecret();
        await insertUser(trx, {
          username: name,
          username_key: name,
          nombre: `Usuario de carga ${i}`,
          email: `${name}@example.org`,
          rol: 'user',
          organizacion: DEMO_ORGANIZATIONS[i % DEMO_ORGANIZATIONS.length]!,
          password_hash: passwordHash,
          otp_state: 'OTP_ACTIVED',
          otp_secret: secret,
          otp_last_step: null,
          created_at: at,
          updated_at: at,
        });
        users.push({ name, secret, favourites: new Map(), etags: new Map() });
      }
    });
    log(`${USERS} users with a password and an enrolled second factor (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return users;
  } finally {
    await db.close();
  }
}

interface Library {
  demoIds: number[];
  tagIds: number[];
  words: string[];
  sizes: Map<number, number>;
}

async function discover(user: User, dataDir: string): Promise<Library> {
  const listed = await request('GET', '/api/videos?limit=500', headersOf(user));
  const videos = json<Array<{ id: number; idExterno: string; titulo: string; isVisible: boolean }>>(listed);
  // visible to all: a hidden demo video is seen only by its own organisation's users
  const demo = videos.filter((v) => v.idExterno.startsWith('demo-video-') && v.isVisible);
  if (demo.length === 0) throw new Error('the demo videos are not listed');
  const tags = json<Array<{ id: number }>>(await request('GET', '/api/etiquetas', headersOf(user)));
  const words = [...new Set(demo.flatMap((v) => v.titulo.toLowerCase().split(/\s+/).filter((w) => w.length > 4)))].slice(0, 20);
  const sizes = new Map(demo.map((v) => [v.id, fs.statSync(path.join(dataDir, 'media', v.idExterno, 'video.mp4')).size]));
  return { demoIds: demo.map((v) => v.id), tagIds: tags.map((t) => t.id), words: words.length ? words : ['reunion'], sizes };
}

// ── the run ─────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const guard = setTimeout(() => {
    console.error('the benchmark took too long: stopping');
    process.exit(2);
  }, HARD_LIMIT_MS);
  guard.unref();
  const began = Date.now();
  const log = (line: string) => console.log(`[${((Date.now() - began) / 1000).toFixed(0).padStart(3)} s] ${line}`);
  log(`load: ${USERS} users for ${SECONDS} s, node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-load-'));
  const dataDir = path.join(work, 'data');
  let server: BuiltServer | undefined;
  try {
    const users = await prepare(dataDir, log);
    port = await freePort();
    server = await startBuiltServer({ dataDir, port });
    log(`server started (pid ${server.pid})`);

    // People arrive a few at a time, not all in one millisecond: SIGN_IN_AT_ONCE sign-ins in progress at once
    // (each checks an argon2id hash, about 20 MiB and tens of milliseconds of a core).
    const signInStarted = Date.now();
    const waiting = [...users];
    await Promise.all(
      Array.from({ length: SIGN_IN_AT_ONCE }, async () => {
        for (let user = waiting.shift(); user; user = waiting.shift()) await signIn(user);
      }),
    );
    const signedIn = users.filter((u) => u.token);
    const signInSeconds = (Date.now() - signInStarted) / 1000;
    log(`${signedIn.length}/${users.length} users signed in (password, then second factor) in ${signInSeconds.toFixed(1)} s`);
    if (signedIn.length === 0) throw new Error('nobody could sign in');
    const library = await discover(signedIn[0]!, dataDir);

    const serverCpu = cpuSeconds(server.pid);
    const ownCpu = process.cpuUsage();
    measuring = true;
    const started = performance.now();
    const until = Date.now() + SECONDS * 1000;
    const progress = setInterval(() => {
      const done = [...latencies.values()].reduce((n, l) => n + l.length, 0);
      log(`${done} requests, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors`);
    }, 15_000);
    const rounds = await Promise.all(signedIn.map((user, i) => loop(user, library, seededRandom(SEED * 1000 + i), until)));
    clearInterval(progress);
    measuring = false;
    const elapsed = (performance.now() - started) / 1000;
    const serverSeconds = cpuSeconds(server.pid) - serverCpu;
    const own = process.cpuUsage(ownCpu);
    const generatorSeconds = (own.user + own.system) / 1e6;

    // not a request: shown beside the figures, not counted as an error
    const stopping = server;
    const stopStarted = Date.now();
    const code = await stopping.stop();
    const stopLine =
      `Graceful stop (SIGTERM) after the run: ${((Date.now() - stopStarted) / 1000).toFixed(1)} s, exit ${code}` +
      `${code === 0 ? '' : ` (${/"msg":"([^"]+)"/.exec(stopping.output().split('\n').reverse().find((l) => l.includes('"msg"')) ?? '')?.[1] ?? 'see the server output'})`}.`;

    const rows: string[][] = [];
    let total = 0;
    for (const kind of KINDS.filter((k) => k !== 'sign-in')) {
      const samples = latencies.get(kind)!.sort((a, b) => a - b);
      total += samples.length;
      const byStatus = [...statuses.get(kind)!.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ');
      rows.push([kind, String(samples.length), (samples.length / elapsed).toFixed(0), ...[50, 90, 99].map((p) => percentile(samples, p).toFixed(1)), byStatus]);
    }
    const signIns = latencies.get('sign-in')!.sort((a, b) => a - b);
    rows.push([
      'sign-in (before, per request)',
      String(signIns.length),
      '—',
      ...[50, 90, 99].map((p) => percentile(signIns, p).toFixed(1)),
      [...statuses.get('sign-in')!.entries()].map(([s, n]) => `${s}×${n}`).join(' '),
    ]);
    const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
    const rps = total / elapsed;
    const cores = os.cpus().length;
    const errorLines = [...errors.entries()].sort((a, b) => b[1] - a[1]).map(([key, n]) => `- ${key}: ${n}`);
    const loopsPerUser = rounds.reduce((a, b) => a + b, 0) / rounds.length;
    reportSection(
      'load',
      `Load: ${signedIn.length} users for ${SECONDS} s (SQLite)`,
      [
        `${signedIn.length} simulated users, each with an account of its own (signed in once: password and second factor), looping without pause for ${elapsed.toFixed(0)} s ` +
          `over list (random filters and pages of ${PAGE}), detail, rating, favourite toggle, two 128 KiB Range requests of the demo video and its thumbnail (If-None-Match). ` +
          `Library: ${library.demoIds.length} demo videos with media and ${GENERATED} generated rows; keep-alive connections, br/gzip accepted.`,
        '',
        `**${rps.toFixed(0)} requests/s** (${total} requests, ${loopsPerUser.toFixed(1)} rounds per user); errors ${errorCount} (${OWN_GOAL} 0: ${errorCount === 0 ? 'met' : 'MISSED'}).`,
        '',
        markdownTable(['request', 'count', 'per second', 'p50 ms', 'p90 ms', 'p99 ms', 'statuses'], rows),
        '',
        `CPU during the ${elapsed.toFixed(0)} s: server ${serverSeconds.toFixed(1)} s (${((serverSeconds / elapsed) * 100).toFixed(0)} % of one core), ` +
          `load generator ${generatorSeconds.toFixed(1)} s (${((generatorSeconds / elapsed) * 100).toFixed(0)} % of one core), of ${cores} cores ` +
          `(load average ${os.loadavg()[0]!.toFixed(1)}: other work on the machine counts too). Sign-in of all users took ${signInSeconds.toFixed(1)} s; ` +
          `whole run ${((Date.now() - began) / 1000).toFixed(0)} s. ${stopLine}`,
        ...(errorCount ? ['', 'Errors by kind and status:', ...errorLines, '', 'First ones:', ...errorSamples.map((s) => `- ${s}`)] : []),
      ].join('\n'),
    );
    if (errorCount > 0 || signedIn.length < users.length) process.exitCode = 1;
  } finally {
    agent.destroy();
    await server?.kill9();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
