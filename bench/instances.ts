/**
 * Several instances behind nginx (R-OPS-1, docs/DEPLOY.md): does the product hold together when two
 * server processes share one PostgreSQL database and one media storage behind a round-robin nginx?
 *
 * It starts, all under a temporary directory and on free ports:
 *  - a fresh PostgreSQL database (`tao_instances_<random>` on 127.0.0.1:5432, dropped at the end);
 *  - the media storage: s3rver with one bucket when the build has the S3 driver
 *    (server/storage/s3-storage.ts), else (or with INSTANCES_STORAGE=local) one local MEDIA_DIR both use;
 *  - two BUILT servers (TAO_DIST or dist/, as tests/e2e/harness.ts), at the same moment, on the fresh
 *    database (concurrent migrations), each with a data directory of its own and the same
 *    TOKEN_SECRET and URL_SIGNING_SECRET, TRUST_PROXY=1;
 *  - Debian's nginx (/usr/sbin/nginx, or NGINX) running deploy/nginx.conf as it is, the instances'
 *    addresses and its port put in, inside a configuration of its own (`-p`, `-c`, `daemon off`,
 *    temporary paths under the temp directory) that adds the header X-Tao-Upstream (which instance
 *    answered).
 * Then it checks, through nginx and against each instance directly:
 *  1. both start at once on the fresh database and print the same first-administrator link;
 *  2. nginx spreads requests over both (round-robin);
 *  3. a session opened on one works on the other (register on A, second factor on B, /api/me on both);
 *  4. the sign-in lockout counts failures made on both (the fifth failure, alternating A and B, locks the name);
 *  5. blocking a user on A ends their session on B at once (the very next request);
 *  6. an upload started on one (POST /api/uploads), sent through nginx, is confirmed on the other
 *     (POST /api/videos) and its media served through nginx; a transfer broken off on A resumes on B;
 *  7. each video is processed once (one claim, attempts = 1), also when a third instance starts while
 *     they are processing (it resumes videos left in processing), and which instance processed each;
 *  8. an instance killed (SIGKILL) while processing a video: another takes the video over once the
 *     lease has run out (the instances run with PROCESSING_LEASE_SECONDS=15 instead of the default
 *     60, so the wait is about 15 s; NO_TAKEOVER=1 leaves this check out).
 * It prints pass/fail and figures, reports the section `instances`, and exits 1 when a check fails.
 * Everything it started is stopped and removed at the end, also on failure or Ctrl-C.
 *
 *   npx tsx bench/instances.ts [videos, default 6]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { URI } from 'otpauth';
import pg from 'pg';
import { generateTestVideo } from '../server/media/ffmpeg.ts';
import { freePort } from './built-server.ts';
import { stopChild } from './child-process.ts';
import { startNginxSite } from './nginx-site.ts';
import { markdownTable, reportSection } from './report.ts';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.resolve(root, process.env.TAO_DIST ?? 'dist');
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
/** the PostgreSQL server the fresh database is made on (BENCH_DATABASE_URL under npm run bench) */
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HARD_LIMIT_MS = 8 * 60_000;
const XSRF = 'bench-xsrf-token-0123456789';
const VIDEOS = Math.max(2, Number(process.argv[2] ?? 6));

// ── what it started, stopped at the end ─────────────────────────────────────────────────────────

const cleanups: Array<() => Promise<void> | void> = [];
let cleaned = false;
async function cleanUp(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error('clean-up:', error instanceof Error ? error.message : error);
    }
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A server is given 12 s to stop (its own shutdown takes up to 10), nginx the same. */
const stop = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') => stopChild(child, signal, 12_000);

// ── the pieces ──────────────────────────────────────────────────────────────────────────────────

/** A fresh database on the PostgreSQL server: its URL; dropped at the end. */
async function freshDatabase(): Promise<string> {
  const name = `tao_instances_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

interface S3rverLike {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: object) => S3rverLike;

/** The environment of the shared media storage: s3rver when the build has the S3 driver, else one local directory. */
async function sharedStorage(work: string): Promise<{ kind: string; env: Record<string, string> }> {
  if (process.env.INSTANCES_STORAGE === 'local' || !fs.existsSync(path.join(dist, 'server/server/storage/s3-storage.js'))) {
    const mediaDir = path.join(work, 'media');
    fs.mkdirSync(mediaDir);
    return { kind: 'one local MEDIA_DIR', env: { MEDIA_DIR: mediaDir } };
  }
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const port = await freePort();
  const bucket = 'tao-instances';
  const server = new S3rver({ port, address: '127.0.0.1', directory: path.join(work, 's3'), silent: true, configureBuckets: [{ name: bucket }] });
  await server.run();
  cleanups.push(() => server.close());
  return {
    kind: 's3rver (S3-compatible)',
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'bench/',
    },
  };
}

interface Instance {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
}

/** The instances' processing lease (PROCESSING_LEASE_SECONDS): how long check 8 waits for a dead instance's lease to run out. */
const LEASE_SECONDS = 15;

/** A built server process; resolves once it answers /api/health. */
async function startInstance(name: string, work: string, env: Record<string, string>): Promise<Instance> {
  const entry = path.join(dist, 'server/server/main.js');
  const port = await freePort();
  const dataDir = path.join(work, `data-${name}`);
  let out = '';
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', CLIENT_DIR: path.join(dist, 'client'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => stop(child));
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; await sleep(150)) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited (${child.exitCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok && /running at/.test(out)) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`instance ${name} did not answer within 60 s:\n${out}`);
  }
  return { name, url, port, child, output: () => out };
}

/**
 * nginx running deploy/nginx.conf: its upstream addresses become the instances', its `listen` a free
 * port; the file is included in a configuration of the bench's own (prefix, logs, temporary paths).
 */
async function startNginx(work: string, port: number, instances: Instance[]): Promise<{ url: string }> {
  const example = fs.readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8');
  const servers = ['127.0.0.1:8081', '127.0.0.1:8082'];
  let site = example.replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${port};`);
  servers.forEach((address, i) => (site = site.replaceAll(address, `127.0.0.1:${instances[i]!.port}`)));
  if (!site.includes(`listen 127.0.0.1:${port};`) || instances.some((instance) => !site.includes(`127.0.0.1:${instance.port}`))) {
    throw new Error('deploy/nginx.conf no longer has `listen 80;` and the upstreams 127.0.0.1:8081 and :8082 this bench replaces');
  }
  const url = `http://127.0.0.1:${port}`;
  const nginx = await startNginxSite({
    binary: NGINX,
    prefix: path.join(work, 'nginx'),
    site,
    httpLines: [
      `access_log ${work}/nginx/logs/access.log;`,
      '# which instance answered (the example has no add_header of its own, so this one applies)',
      'add_header X-Tao-Upstream $upstream_addr always;',
    ],
    ready: async () => (await fetch(`${url}/api/health`)).ok,
    timeoutMs: 15_000,
  });
  cleanups.push(() => nginx.stop());
  return { url };
}

// ── HTTP ────────────────────────────────────────────────────────────────────────────────────────

interface Answer {
  status: number;
  body: unknown;
  /** the instance that answered through nginx (X-Tao-Upstream), else the one called */
  upstream: string;
}

async function call(base: string, method: string, url: string, options: { token?: string; json?: unknown; body?: Buffer; type?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = options.type ?? 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.body) {
    headers['content-type'] = options.type ?? 'application/octet-stream';
    body = Uint8Array.from(options.body);
  }
  const res = await fetch(`${base}${url}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, upstream: res.headers.get('x-tao-upstream') ?? base };
}

const field = (answer: Answer, name: string): unknown => (answer.body as Record<string, unknown> | undefined)?.[name];

/** A code of the authenticator enrolled from the otpauth:// URI (a fresh enrolment: the current step is accepted). */
const codeOf = (uri: string): string => {
  const otp = URI.parse(uri);
  if (!('period' in otp)) throw new Error('not a TOTP URI');
  return otp.generate();
};

// ── the checks ──────────────────────────────────────────────────────────────────────────────────

interface Check {
  property: string;
  pass: boolean;
  figures: string;
}
const checks: Check[] = [];
function check(property: string, pass: boolean, figures: string): void {
  checks.push({ property, pass, figures });
  console.log(`${pass ? 'PASS' : 'FAIL'}  ${property}${figures ? ` — ${figures}` : ''}`);
}

async function main(): Promise<void> {
  const entry = path.join(dist, 'server/server/main.js');
  if (!fs.existsSync(entry) || !fs.existsSync(path.join(dist, 'client/index.html'))) {
    throw new Error(`no build in ${dist}: run \`npm run build\` (or scripts/build-apart.sh <name> and TAO_DIST=.tmp/<name>/dist)`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-instances-'));
  cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

  const databaseUrl = await freshDatabase();
  const storage = await sharedStorage(work);
  const videoFile = path.join(work, 'video.mp4');
  // long enough that its processing (probe, thumbnail, preview) outlasts a third instance's start
  await generateTestVideo(videoFile, { seconds: 20, pattern: 'testsrc2', toneHz: 440, width: 640, height: 360 });
  const video = fs.readFileSync(videoFile);

  const nginxPort = await freePort();
  const shared = {
    DATABASE_URL: databaseUrl,
    TOKEN_SECRET: crypto.randomBytes(32).toString('base64url'),
    URL_SIGNING_SECRET: crypto.randomBytes(32).toString('base64url'),
    TRUST_PROXY: '1',
    PUBLIC_URL: `http://127.0.0.1:${nginxPort}`,
    // check 8 waits for a dead instance's lease to run out: 15 s instead of the default minute
    PROCESSING_LEASE_SECONDS: String(LEASE_SECONDS),
    ...storage.env,
  };
  console.log(`PostgreSQL: ${databaseUrl.replace(/\/\/[^@]*@/, '//')}; storage: ${storage.kind}; build: ${path.relative(root, dist) || '.'}`);

  // 1. both at once on the fresh database
  const started = Date.now();
  const [a, b] = await Promise.all([startInstance('A', work, shared), startInstance('B', work, shared)]);
  const startMs = Date.now() - started;
  const linkOf = (instance: Instance) => /https?:\/\/\S+\/register\?invitation=[A-Za-z0-9_-]+/.exec(instance.output())?.[0];
  const link = linkOf(a);
  check('both instances start at once on a fresh database (migrations) and print the same first-administrator link', link !== undefined && link === linkOf(b), `both up in ${startMs} ms`);

  const nginx = await startNginx(work, nginxPort, [a, b]);
  const via = nginx.url;
  const nameOf = new Map([
    [`127.0.0.1:${a.port}`, 'A'],
    [`127.0.0.1:${b.port}`, 'B'],
  ]);
  const who = (answer: Answer) => nameOf.get(answer.upstream) ?? answer.upstream;

  // 2. round-robin
  const spread = new Map<string, number>();
  for (let i = 0; i < 40; i += 1) {
    const answer = await call(via, 'GET', '/api/health');
    spread.set(who(answer), (spread.get(who(answer)) ?? 0) + 1);
  }
  check(
    'nginx spreads requests over both instances (round-robin)',
    (spread.get('A') ?? 0) >= 10 && (spread.get('B') ?? 0) >= 10,
    `40 requests: A ${spread.get('A') ?? 0}, B ${spread.get('B') ?? 0}`,
  );

  // the first administrator, through nginx
  const invitation = link ? new URL(link).searchParams.get('invitation') : null;
  const registered = await call(via, 'POST', '/api/register', { json: { user: 'admin', password: 'admin-password-1', token: invitation } });
  const adminOtp = field(registered, 'otp') as { user: string; uri: string } | undefined;
  const adminMfa = await call(via, 'POST', '/api/mfa', { token: String(field(registered, 'token')), json: { user: 'admin', mfaCode: adminOtp ? codeOf(adminOtp.uri) : '000000' } });
  const admin = String(field(adminMfa, 'token'));
  if (adminMfa.status !== 200) throw new Error(`the first administrator could not sign in: ${registered.status} ${JSON.stringify(registered.body)} / ${adminMfa.status} ${JSON.stringify(adminMfa.body)}`);

  // 3. a session opened on one works on the other: registration on A, second factor on B
  const invited = await call(a.url, 'POST', '/api/register-invitations', { token: admin, json: { email: 'lucia@example.org' } });
  const lucia = await call(a.url, 'POST', '/api/register', { json: { user: 'lucia', password: 'lucia-password-1', token: field(invited, 'token') } });
  const luciaOtp = field(lucia, 'otp') as { uri: string } | undefined;
  const luciaMfa = await call(b.url, 'POST', '/api/mfa', { token: String(field(lucia, 'token')), json: { user: 'lucia', mfaCode: luciaOtp ? codeOf(luciaOtp.uri) : '000000' } });
  const session = String(field(luciaMfa, 'token'));
  const meA = await call(a.url, 'GET', '/api/me', { token: session });
  const meB = await call(b.url, 'GET', '/api/me', { token: session });
  check(
    'a session opened on one instance works on the other',
    invited.status === 201 && lucia.status === 200 && luciaMfa.status === 200 && meA.status === 200 && meB.status === 200,
    `register on A ${lucia.status}, second factor on B ${luciaMfa.status}, /api/me on A ${meA.status}, on B ${meB.status}`,
  );

  // 4. the lockout counts failures on both
  const attempts: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const answer = await call(i % 2 === 0 ? a.url : b.url, 'POST', '/api/login', { json: { user: 'lucia', password: `wrong-${i}` } });
    attempts.push(`${i % 2 === 0 ? 'A' : 'B'} ${answer.status}`);
  }
  const lockedB = await call(b.url, 'POST', '/api/login', { json: { user: 'lucia', password: 'lucia-password-1' } });
  const lockedA = await call(a.url, 'POST', '/api/login', { json: { user: 'lucia', password: 'lucia-password-1' } });
  const lockedVia = await call(via, 'POST', '/api/login', { json: { user: 'lucia', password: 'lucia-password-1' } });
  check(
    'the sign-in lockout counts failures made on both instances',
    attempts.slice(0, 4).every((a) => a.endsWith('401')) && attempts[4] === 'A 429' && [lockedA, lockedB, lockedVia].every((answer) => answer.status === 429),
    `5 wrong passwords in turn (${attempts.join(', ')}: the fifth locks), then the right one: B ${lockedB.status}, A ${lockedA.status}, nginx ${lockedVia.status}`,
  );

  // 5. blocking on A ends the session on B at once
  const before = await call(b.url, 'GET', '/api/me', { token: session });
  const userId = Number(field(meA, 'id'));
  const blocked = await call(a.url, 'PATCH', `/api/usuarios/${userId}`, { token: admin, type: 'application/json-patch+json', json: [{ op: 'replace', path: '/bloqueado', value: true }] });
  const blockedAt = Date.now();
  const afterB = await call(b.url, 'GET', '/api/me', { token: session });
  const refusedMs = Date.now() - blockedAt;
  const afterVia = await Promise.all([call(via, 'GET', '/api/me', { token: session }), call(via, 'GET', '/api/me', { token: session })]);
  check(
    'blocking a user on one instance ends their session on the other at once',
    before.status === 200 && blocked.status === 200 && afterB.status === 401 && afterVia.every((answer) => answer.status === 401),
    `before: B ${before.status}; block on A ${blocked.status}; the next request on B ${afterB.status} (${refusedMs} ms later), through nginx ${afterVia.map((answer) => `${who(answer)} ${answer.status}`).join(', ')}`,
  );

  // 6 and 7. uploads started on one, sent through nginx, confirmed on the other; processed once
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  cleanups.push(() => db.end());
  const pidOf = new Map([
    [String(a.child.pid), 'A'],
    [String(b.child.pid), 'B'],
  ]);
  const claimedBy = new Map<string, Set<string>>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const rows = await db.query<{ asset_id: string; claimed_by: string }>("select asset_id, claimed_by from uploads where claimed_by is not null");
      for (const row of rows.rows) {
        const set = claimedBy.get(row.asset_id) ?? new Set();
        set.add(row.claimed_by);
        claimedBy.set(row.asset_id, set);
      }
      await sleep(25);
    }
  })();

  interface Upload {
    asset: string;
    createdOn: Instance;
    confirmOn: Instance;
    receivedBy: string;
    put: number;
  }
  const uploads: Upload[] = [];
  const uploadStart = Date.now();
  for (let i = 0; i < VIDEOS; i += 1) {
    const createdOn = i % 2 === 0 ? a : b;
    const created = await call(createdOn.url, 'POST', '/api/uploads', { token: admin, json: { video: { contentType: 'video/mp4', size: video.length } } });
    const asset = String(field(created, 'assetId'));
    const location = (field(created, 'video') as { uploadUrl: string } | undefined)?.uploadUrl ?? '';
    const put = await call(via, 'PUT', location, { body: video, type: 'video/mp4' });
    uploads.push({ asset, createdOn, confirmOn: createdOn === a ? b : a, receivedBy: who(put), put: put.status });
  }
  // a transfer in two parts: the first to A, the offset asked of B, the rest to B
  const halves = await call(a.url, 'POST', '/api/uploads', { token: admin, json: { video: { contentType: 'video/mp4', size: video.length } } });
  const halvesAsset = String(field(halves, 'assetId'));
  const halvesUrl = (field(halves, 'video') as { uploadUrl: string } | undefined)?.uploadUrl ?? '';
  const middle = Math.floor(video.length / 2);
  const partOnA = await putPart(a.url, halvesUrl, video.subarray(0, middle), `bytes 0-${middle - 1}/${video.length}`);
  const offsetOnB = await putPart(b.url, halvesUrl, undefined, `bytes */${video.length}`);
  const restOnB = await putPart(b.url, halvesUrl, video.subarray(middle), `bytes ${middle}-${video.length - 1}/${video.length}`);
  uploads.push({ asset: halvesAsset, createdOn: a, confirmOn: b, receivedBy: 'A+B', put: restOnB.status });
  const resumed = partOnA.status === 202 && offsetOnB.status === 202 && offsetOnB.offset === String(middle) && restOnB.status === 204;

  // a third instance starts while videos are processing (scaling up, or a restart): it may take the
  // videos nobody holds yet, never one another instance is processing
  const processingNow = async () =>
    (await db.query<{ total: number; held: number }>("select count(*)::int as total, count(claimed_by)::int as held from uploads where video_state = 'processing'")).rows[0]!;
  const beforeC = await processingNow();
  const c = await startInstance('C', work, shared);
  pidOf.set(String(c.child.pid), 'C');
  const whenC = await processingNow();

  const states = new Map<string, string>();
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await sleep(200)) {
    for (const upload of uploads) {
      if (states.get(upload.asset) === 'ready' || states.get(upload.asset) === 'failed') continue;
      states.set(upload.asset, String(field(await call(upload.confirmOn.url, 'GET', `/api/uploads/${upload.asset}`, { token: admin }), 'estado')));
    }
    if (uploads.every((u) => ['ready', 'failed'].includes(states.get(u.asset) ?? ''))) break;
  }
  const processedMs = Date.now() - uploadStart;
  sampling = false;
  await sampler;
  const rows = await db.query<{ asset_id: string; attempts: number }>('select asset_id, attempts from uploads where asset_id = any($1)', [uploads.map((u) => u.asset)]);
  const attemptsOf = new Map(rows.rows.map((r) => [r.asset_id, Number(r.attempts)]));

  const confirmed: string[] = [];
  let media = 0;
  for (const upload of uploads) {
    const made = await call(upload.confirmOn.url, 'POST', '/api/videos', {
      token: admin,
      json: { isVisible: true, titulo: `Instancias ${upload.asset.slice(0, 6)}`, descripcionCorta: 'Subido por una instancia, confirmado por la otra', tags: [], idExterno: upload.asset },
    });
    confirmed.push(`${made.status}`);
    const id = field(made, 'id');
    const detail = await call(via, 'GET', `/api/videos/${String(id)}`, { token: admin });
    for (const key of ['urlVideo', 'urlThumbnail', 'urlPreview']) {
      const url = field(detail, key);
      if (typeof url === 'string' && (await fetch(`${via}${url}`)).ok) media += 1;
    }
  }
  const ready = uploads.filter((u) => states.get(u.asset) === 'ready').length;
  check(
    'a transfer broken off on one instance is resumed on the other',
    resumed && states.get(halvesAsset) === 'ready',
    `first half on A ${partOnA.status}, offset asked of B ${offsetOnB.status} (Upload-Offset ${offsetOnB.offset}), the rest on B ${restOnB.status}, then ${states.get(halvesAsset)}`,
  );
  check(
    'an upload started on one instance is confirmed on the other, its media served through nginx',
    uploads.every((u) => u.put === 204) && ready === uploads.length && confirmed.every((s) => s === '201') && media === uploads.length * 3,
    `${uploads.length} videos created on A/B in turn, sent through nginx (received by ${countOf(uploads.map((u) => u.receivedBy))}), ` +
      `${ready} ready on the other instance, confirmed there: ${countOf(confirmed)}; ${media}/${uploads.length * 3} media files served through nginx`,
  );

  const once = uploads.every((u) => attemptsOf.get(u.asset) === 1 && (claimedBy.get(u.asset)?.size ?? 0) <= 1);
  const instanceOf = (claimant: string) => pidOf.get(claimant.split(':')[1] ?? '') ?? claimant;
  const processedBy = uploads.map((u) => [...(claimedBy.get(u.asset) ?? ['(not seen)'])].map(instanceOf).join('+'));
  check(
    'each video is processed once, by one instance',
    once && ready === uploads.length,
    `attempts per video: ${countOf(uploads.map((u) => String(attemptsOf.get(u.asset))))}; processed by ${countOf(processedBy)} (leases seen); ` +
      `a third instance C started while ${beforeC.total} were processing (${beforeC.held} held) and was up while ${whenC.total} still were (${whenC.held} held); ` +
      `all ready ${processedMs} ms after the first upload started`,
  );

  if (process.env.NO_TAKEOVER !== '1') await takeOver(db, a, admin, video, instanceOf);

  const table = markdownTable(
    ['Property', 'Result', 'Figures'],
    checks.map((c) => [c.property, c.pass ? 'pass' : '**FAIL**', c.figures]),
  );
  reportSection(
    'instances',
    'Several instances behind nginx',
    `Two built servers on one fresh PostgreSQL database and ${storage.kind}, behind nginx running deploy/nginx.conf ` +
      `(round-robin; upload files hashed by path), checked through nginx and against each instance directly (bench/instances.ts, ${new Date().toISOString().slice(0, 10)}).\n\n${table}`,
  );
  if (checks.some((c) => !c.pass)) process.exitCode = 1;
}

/** 8: A receives a video and starts processing it, and is killed; the video must be processed by another instance after A's lease. */
async function takeOver(db: pg.Client, a: Instance, admin: string, video: Buffer, instanceOf: (claimant: string) => string): Promise<void> {
  const created = await call(a.url, 'POST', '/api/uploads', { token: admin, json: { video: { contentType: 'video/mp4', size: video.length } } });
  const asset = String(field(created, 'assetId'));
  const put = await call(a.url, 'PUT', (field(created, 'video') as { uploadUrl: string } | undefined)?.uploadUrl ?? '', { body: video, type: 'video/mp4' });
  const rowOf = async () =>
    (await db.query<{ video_state: string; attempts: number; claimed_by: string | null; claimed_until: string | null; processing_started_at: string | null }>(
      'select video_state, attempts, claimed_by, claimed_until, processing_started_at from uploads where asset_id = $1', [asset])).rows[0];
  let held: { by: string; until: string } | undefined;
  for (const deadline = Date.now() + 20_000; !held && Date.now() < deadline; await sleep(10)) {
    const row = await rowOf();
    if (row?.claimed_by && row.claimed_until) held = { by: row.claimed_by, until: row.claimed_until };
  }
  const killedAt = Date.now();
  a.child.kill('SIGKILL');
  const claimants = new Set<string>(held ? [held.by] : []);
  let row = await rowOf();
  for (const deadline = Date.now() + 150_000; row?.video_state === 'processing' && Date.now() < deadline; await sleep(100)) {
    row = await rowOf();
    if (row?.claimed_by) claimants.add(row.claimed_by);
  }
  const after = Date.now() - killedAt;
  const takenAt = row?.processing_started_at;
  check(
    'a video whose instance died is taken over by another once its lease has run out',
    put.status === 204 && held !== undefined && instanceOf(held.by) === 'A' && row?.video_state === 'ready' && Number(row.attempts) === 2 &&
      claimants.size === 2 && takenAt !== null && takenAt !== undefined && takenAt >= held.until,
    `A claimed it ${held ? `(lease until ${held.until.slice(11, 19)})` : '(never seen)'} and was killed; ${[...claimants].map(instanceOf).join(' then ')} ` +
      `claimed it at ${takenAt?.slice(11, 19) ?? '—'}; ${row?.video_state ?? '—'} after ${row?.attempts ?? '—'} attempts, ${(after / 1000).toFixed(1)} s after the kill`,
  );
}

/** A PUT of part of a video with its Content-Range (no body: the offset query); the status and Upload-Offset. */
async function putPart(base: string, url: string, body: Buffer | undefined, range: string): Promise<{ status: number; offset: string | null }> {
  const res = await fetch(`${base}${url}`, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': range }, ...(body ? { body: Uint8Array.from(body) } : {}) });
  await res.arrayBuffer();
  return { status: res.status, offset: res.headers.get('upload-offset') };
}

/** `A ×3, B ×3` */
function countOf(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, n]) => `${value} ×${n}`).join(', ');
}

const hardLimit = setTimeout(() => {
  console.error(`bench/instances.ts: still running after ${HARD_LIMIT_MS / 60_000} minutes; stopping`);
  process.exitCode = 1;
  void cleanUp().then(() => process.exit(1));
}, HARD_LIMIT_MS);
hardLimit.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().then(() => process.exit(130)));
}

try {
  await main();
} catch (error) {
  console.error('FAIL ', error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  await cleanUp();
  clearTimeout(hardLimit);
}
