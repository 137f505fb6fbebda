/**
 * Does anything a client was told is stored survive the server being killed at a random moment?
 * The BUILT server (bench/built-server.ts: dist/ or TAO_DIST) runs on one data directory kept across
 * restarts (SQLite by default; `--postgres`, or BENCH_DATABASE_URL set, uses a fresh PostgreSQL database
 * made on that server — default postgres://postgres@127.0.0.1:5432 — and dropped at the end). Clients
 * write at once: resumable uploads
 * (a signed location, Content-Range parts of 128 KiB, a thumbnail for every other upload), waiting for
 * the processing, creating the video (POST /api/videos); ratings and favourites (PATCH) of three
 * users on three videos; deletions of the videos created. At a seeded random moment the server gets
 * SIGKILL, `--kills` times (default 20). After each kill, with the server stopped, the SQLite file
 * passes `PRAGMA integrity_check` and `foreign_key_check` (opened read-only; on PostgreSQL, amcheck's
 * `bt_index_check` of every B-tree index with its rows); after the restart:
 *  - every write answered 2xx before the kill is there: each rating and favourite is its last
 *    acknowledged value (or the value of the one request in flight, which may or may not have been
 *    stored), every created video is listed, every deleted one answers 404, an upload holds at least
 *    the bytes acknowledged, a video received completely is not asked for again;
 *  - no partial media is visible: every media location the API lists answers whole (Content-Length =
 *    bytes = the file's size on disk); uploaded videos are byte for byte the file sent, thumbnails are
 *    whole JPEGs, previews whole MP4 box sequences, for listed videos and for processed uploads;
 *  - interrupted uploads continue from the offset the server reports (`Content-Range: bytes *\/total`);
 *  - videos left in processing end `ready` or `failed` (waited for at the end);
 *  - what the kill left behind is counted as orphans: temporary files of interrupted writes, partial
 *    files nobody resumes, asset directories no row names, the server's ffmpeg work directories, and
 *    ffmpeg processes that outlived the server.
 * At the end every interrupted upload is finished, its video created and checked, the server stopped
 * gracefully and the database checked once more. Prints each kill (what was in flight) and a summary
 * table; exits 1 on any loss, integrity failure, partial media, stuck processing or upload that cannot
 * be resumed.
 *
 *   TAO_DIST=.tmp/<name>/dist npx tsx bench/crash-safety.ts [--kills 20] [--seed N] [--postgres]
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify, parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { generateTestVideo, mediaTools } from '../server/media/ffmpeg.ts';
import { seededRandom } from '../server/seeded-random.ts';
import { api, apiOk, freePort, registerWithInvitation, startBuiltServer, type BuiltServer } from './built-server.ts';
import { markdownTable, OWN_GOAL, reportSection } from './report.ts';

const run = promisify(execFile);
const HARD_LIMIT_MS = 8 * 60_000;
const CHUNK = 128 * 1024;
/** The uploaded file: a real 2-second mp4 made bigger with a trailing `free` box, so it takes several parts. */
const CLIP_BYTES = 1536 * 1024;
const PASSWORD = 'correct horse battery staple';
/** Where the fresh PostgreSQL database is made (`--postgres`, or BENCH_DATABASE_URL as `npm run bench` passes it). */
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const { values: options } = parseArgs({
  options: { kills: { type: 'string', default: '20' }, seed: { type: 'string' }, postgres: { type: 'boolean', default: false } },
  strict: true,
});
const KILLS = Number(options.kills);
const SEED = options.seed === undefined ? crypto.randomInt(1, 2 ** 31) : Number(options.seed);
const rnd = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

// ── what the clients were told ──────────────────────────────────────────────────────────────────

interface Person {
  user: string;
  token: string;
}

/** One rating or favourite of one person on one video, written by one client only (so its order is known). */
interface Key {
  person: Person;
  videoId: number;
  field: 'puntuacion' | 'favorito';
  /** the last value acknowledged (200), or the initial one */
  acked: number | boolean | null;
  /** a value sent and not answered when the server was killed: it may or may not be stored */
  inflight?: number | boolean | null | undefined;
}

type UploadState = 'sending' | 'processing' | 'ready' | 'failed' | 'creating' | 'created' | 'deleting' | 'deleted';

interface Upload {
  n: number;
  owner: number;
  assetId: string;
  videoLocation: string;
  withThumbnail: boolean;
  title: string;
  state: UploadState;
  /** bytes the server acknowledged (Upload-Offset of a 202; the size after the 204) */
  acked: number;
  /** the offset must be asked before sending again (a fresh start after a restart) */
  askOffset: boolean;
  videoId?: number;
  /** the server restarted while it was processing: it must end ready or failed */
  processingResumed?: boolean;
}

const people: Person[] = [];
const keys: Key[] = [];
const uploads: Upload[] = [];
const inflight = new Map<number, string>();
let requestSeq = 0;
let uploadSeq = 0;

const totals = {
  kills: 0,
  ackedWrites: 0,
  stateChecks: 0,
  losses: 0,
  integrityFailures: 0,
  mediaFailures: 0,
  unexpected: 0,
  uploadsResumed: 0,
  resumeFailures: 0,
  processingResumed: 0,
  processingStuck: 0,
  processingFailed: 0,
  videosCreated: 0,
  videosDeleted: 0,
  mediaFilesChecked: 0,
  restartSeconds: [] as number[],
  windowSeconds: 0,
  checkSeconds: 0,
};
const problems: string[] = [];
let stopNote = '';
const orphans = new Map<string, string>();

function loss(text: string): void {
  totals.losses += 1;
  problems.push(`LOSS: ${text}`);
  console.log(`    LOSS: ${text}`);
}
function failure(kind: 'integrityFailures' | 'mediaFailures' | 'unexpected' | 'resumeFailures' | 'processingStuck', text: string): void {
  totals[kind] += 1;
  problems.push(`${kind}: ${text}`);
  console.log(`    FAILURE (${kind}): ${text}`);
}

// ── the server and the clients ──────────────────────────────────────────────────────────────────

let server: BuiltServer;
let killed = false;
let work: string;
let dataDir: string;
let serverTmp: string;
let port: number;
let databaseUrl = '';
let clip: Buffer;
let clipHash: string;
let thumbnail: Buffer;
let admin: Person;

const env = () => ({ TMPDIR: serverTmp, DATABASE_URL: databaseUrl, PROCESSING_CONCURRENCY: '1', LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? 'warn' });

/** A request the clients track: described while in flight, so a kill can say what it interrupted. */
async function tracked<T>(what: string, request: () => Promise<T>): Promise<T> {
  const id = ++requestSeq;
  inflight.set(id, what);
  try {
    return await request();
  } finally {
    inflight.delete(id);
  }
}

/** An answer the clients did not expect while the server was alive. */
function unexpected(what: string, status: number | string, body?: unknown): void {
  if (killed) return;
  failure('unexpected', `${what} answered ${status}${body === undefined ? '' : `: ${JSON.stringify(body).slice(0, 200)}`}`);
}

async function putVideoPart(upload: Upload, first: number, last: number | '*'): Promise<{ status: number; offset: number }> {
  const range = last === '*' ? `bytes */${CLIP_BYTES}` : `bytes ${first}-${last}/${CLIP_BYTES}`;
  const what = last === '*' ? `offset query of upload ${upload.n}` : `PUT video ${kib(first)}–${kib(last + 1)} of upload ${upload.n}`;
  return tracked(what, async () => {
    const response = await fetch(`${server.url}${upload.videoLocation}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4', 'Content-Range': range },
      ...(last === '*' ? {} : { body: Uint8Array.from(clip.subarray(first, last + 1)) }),
    });
    const text = await response.text();
    if (response.status !== 202 && response.status !== 204) unexpected(what, response.status, text);
    return { status: response.status, offset: Number(response.headers.get('upload-offset') ?? -1) };
  });
}

async function startUpload(owner: number): Promise<Upload> {
  const n = ++uploadSeq;
  const session = await tracked(`POST /api/uploads (upload ${n})`, () =>
    apiOk<{ assetId: string; video: { uploadUrl: string }; thumbnail: { uploadUrl: string } }>(server.url, 'POST', '/api/uploads', 201, {
      token: admin.token,
      body: { video: { contentType: 'video/mp4', size: CLIP_BYTES }, thumbnail: { contentType: 'image/jpeg', size: thumbnail.length } },
    }),
  );
  totals.ackedWrites += 1;
  const upload: Upload = {
    n,
    owner,
    assetId: session.assetId,
    videoLocation: session.video.uploadUrl,
    withThumbnail: n % 2 === 0,
    title: `Prueba de caída ${SEED}-${n}`,
    state: 'sending',
    acked: 0,
    askOffset: false,
  };
  uploads.push(upload);
  if (upload.withThumbnail) {
    await tracked(`PUT thumbnail of upload ${n}`, async () => {
      const response = await fetch(`${server.url}${session.thumbnail.uploadUrl}`, { method: 'PUT', headers: { 'Content-Type': 'image/jpeg' }, body: Uint8Array.from(thumbnail) });
      await response.arrayBuffer();
      if (response.status !== 204) unexpected(`PUT thumbnail of upload ${n}`, response.status);
      else totals.ackedWrites += 1;
    });
  }
  return upload;
}

/** Sends the rest of an upload, from the offset the server reports when asked. */
async function send(upload: Upload): Promise<void> {
  let offset = upload.acked;
  if (upload.askOffset) {
    const answer = await putVideoPart(upload, 0, '*');
    if (answer.status === 204) {
      upload.acked = CLIP_BYTES;
      upload.state = 'processing';
      return;
    }
    if (answer.status !== 202) return;
    upload.askOffset = false;
    if (answer.offset < upload.acked) loss(`upload ${upload.n} reports ${answer.offset} bytes held after the restart, ${upload.acked} had been acknowledged`);
    if (answer.offset >= CLIP_BYTES) {
      failure('resumeFailures', `upload ${upload.n}: the server holds all ${answer.offset} bytes but does not take the video as complete (202), so it cannot be resumed`);
      upload.state = 'failed';
      return;
    }
    if (answer.offset !== upload.acked) console.log(`    upload ${upload.n}: resumes at ${kib(answer.offset)} (${kib(upload.acked)} acknowledged)`);
    totals.uploadsResumed += 1;
    offset = answer.offset;
  }
  while (!killed && offset < CLIP_BYTES) {
    const last = Math.min(offset + CHUNK, CLIP_BYTES) - 1;
    const answer = await putVideoPart(upload, offset, last);
    totals.ackedWrites += 1;
    if (answer.status === 202) {
      offset = upload.acked = answer.offset;
    } else if (answer.status === 204) {
      upload.acked = CLIP_BYTES;
      upload.state = 'processing';
      return;
    } else {
      totals.ackedWrites -= 1;
      return;
    }
  }
}

async function uploader(owner: number): Promise<void> {
  while (!killed) {
    const mine = uploads.filter((u) => u.owner === owner);
    const current = mine.find((u) => ['sending', 'processing', 'ready'].includes(u.state));
    if (!current) {
      await startUpload(owner);
      continue;
    }
    if (current.state === 'sending') await send(current);
    else if (current.state === 'processing') {
      const state = await tracked(`GET /api/uploads (upload ${current.n})`, () =>
        api<{ estado: string; error: string | null }>(server.url, 'GET', `/api/uploads/${current.assetId}`, { token: admin.token }),
      );
      if (state.body.estado === 'ready') current.state = 'ready';
      else if (state.body.estado === 'failed') {
        current.state = 'failed';
        totals.processingFailed += 1;
        console.log(`    upload ${current.n}: processing failed (${state.body.error})`);
      } else await sleep(100);
    } else {
      current.state = 'creating';
      const created = await tracked(`POST /api/videos (upload ${current.n})`, () =>
        api<{ id: number }>(server.url, 'POST', '/api/videos', {
          token: admin.token,
          body: { isVisible: true, titulo: current.title, descripcionCorta: 'Video subido durante la prueba de caídas', tags: [], idExterno: current.assetId },
        }),
      );
      if (created.status === 201) {
        current.state = 'created';
        current.videoId = created.body.id;
        totals.ackedWrites += 1;
        totals.videosCreated += 1;
      } else unexpected(`POST /api/videos (upload ${current.n})`, created.status, created.body);
    }
  }
}

async function rater(own: Key[]): Promise<void> {
  while (!killed && own.length > 0) {
    const key = pick(own);
    const value = key.field === 'puntuacion' ? 1 + Math.floor(rnd() * 5) : !key.acked;
    key.inflight = value;
    const what = `PATCH /${key.field}=${value} (${key.person.user}, video ${key.videoId})`;
    const answer = await tracked(what, () =>
      api<Record<string, unknown>>(server.url, 'PATCH', `/api/videos/${key.videoId}`, {
        token: key.person.token,
        body: [{ op: 'replace', path: `/${key.field}`, value }],
      }),
    );
    if (answer.status === 200) {
      key.acked = value;
      key.inflight = undefined;
      totals.ackedWrites += 1;
      if (answer.body[key.field] !== value) unexpected(`${what} answered the video with ${String(answer.body[key.field])}`, 200);
    } else unexpected(what, answer.status, answer.body);
  }
}

async function deleter(): Promise<void> {
  while (!killed) {
    await sleep(300 + rnd() * 500);
    const created = uploads.filter((u) => u.state === 'created' && u.n > BASE_VIDEOS);
    if (killed || created.length < 2) continue;
    const victim = created[0]!;
    victim.state = 'deleting';
    const answer = await tracked(`DELETE /api/videos/${victim.videoId} (upload ${victim.n})`, () =>
      api(server.url, 'DELETE', `/api/videos/${victim.videoId}`, { token: admin.token }),
    );
    if (answer.status === 204) {
      victim.state = 'deleted';
      totals.ackedWrites += 1;
      totals.videosDeleted += 1;
    } else unexpected(`DELETE /api/videos/${victim.videoId}`, answer.status, answer.body);
  }
}

/** Runs the clients until the server dies; a failure while it is alive is reported, after the kill expected. */
async function clients(): Promise<void> {
  const guard = (work: Promise<void>) =>
    work.catch((error: unknown) => {
      if (!killed) failure('unexpected', `a client failed while the server was up: ${error instanceof Error ? error.message : String(error)}`);
    });
  const groups: Key[][] = [[], [], []];
  keys.forEach((key, i) => groups[i % groups.length]!.push(key));
  await Promise.all([guard(uploader(1)), guard(uploader(2)), guard(deleter()), ...groups.map((group) => guard(rater(group)))]);
}

// ── checks ──────────────────────────────────────────────────────────────────────────────────────

/** A whole MP4: top-level boxes that end exactly at the end of the file. */
function wholeMp4(bytes: Buffer): boolean {
  let at = 0;
  while (at < bytes.length) {
    if (at + 8 > bytes.length) return false;
    let size = bytes.readUInt32BE(at);
    if (size === 1) {
      if (at + 16 > bytes.length) return false;
      size = Number(bytes.readBigUInt64BE(at + 8));
    } else if (size === 0) size = bytes.length - at;
    if (size < 8 || at + size > bytes.length) return false;
    at += size;
  }
  return bytes.length > 0 && at === bytes.length;
}

const wholeJpeg = (bytes: Buffer) => bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9;

/** A stored media file is whole: a byte-for-byte copy of the clip for uploaded videos, else a whole MP4 or JPEG. */
function checkMediaBytes(label: string, assetId: string, file: string, bytes: Buffer): void {
  totals.mediaFilesChecked += 1;
  const ours = uploads.some((u) => u.assetId === assetId);
  if (file === 'video.mp4' && ours) {
    if (bytes.length !== CLIP_BYTES || crypto.createHash('sha256').update(bytes).digest('hex') !== clipHash) {
      failure('mediaFailures', `${label}: ${bytes.length} bytes that are not the file uploaded (${CLIP_BYTES} bytes)`);
    }
  } else if (file.endsWith('.mp4') ? !wholeMp4(bytes) : !wholeJpeg(bytes)) {
    failure('mediaFailures', `${label}: ${bytes.length} bytes, not a whole ${file.endsWith('.mp4') ? 'MP4' : 'JPEG'}`);
  }
}

const mediaDir = () => path.join(dataDir, 'media');

async function checkListedMedia(video: { id: number; idExterno: string; urlVideo: string; urlThumbnail: string | null; urlPreview: string | null }): Promise<void> {
  const locations = [video.urlVideo, video.urlThumbnail, video.urlPreview].filter((u): u is string => u !== null);
  for (const location of locations) {
    const file = /\/api\/media\/[^/]+\/([^?]+)/.exec(location)?.[1] ?? '?';
    const label = `video ${video.id} ${file}`;
    const response = await fetch(new URL(location, server.url));
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) {
      failure('mediaFailures', `${label}: the listed location answers ${response.status}`);
      continue;
    }
    const length = Number(response.headers.get('content-length'));
    const onDisk = fs.statSync(path.join(mediaDir(), video.idExterno, file), { throwIfNoEntry: false })?.size;
    if (length !== bytes.length || onDisk !== bytes.length) {
      failure('mediaFailures', `${label}: Content-Length ${length}, ${bytes.length} bytes received, ${onDisk ?? 'no'} bytes on disk`);
      continue;
    }
    checkMediaBytes(label, video.idExterno, file, bytes);
  }
}

interface Rows {
  videos: Set<string>;
  uploads: Map<string, string>;
}

/** integrity_check and foreign_key_check on the SQLite file, opened read-only; answers the rows the orphan count needs. */
function checkSqlite(when: string): Rows | undefined {
  const file = path.join(dataDir, 'tao.sqlite');
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    const integrity = db.prepare('pragma integrity_check').pluck().all() as string[];
    const foreignKeys = db.prepare('pragma foreign_key_check').all();
    if (integrity.length !== 1 || integrity[0] !== 'ok') failure('integrityFailures', `${when}: integrity_check says ${integrity.slice(0, 5).join('; ')}`);
    if (foreignKeys.length > 0) failure('integrityFailures', `${when}: foreign_key_check lists ${foreignKeys.length} rows, e.g. ${JSON.stringify(foreignKeys[0])}`);
    return {
      videos: new Set(db.prepare('select id_externo from videos').pluck().all() as string[]),
      uploads: new Map((db.prepare('select asset_id, video_state from uploads').all() as Array<{ asset_id: string; video_state: string }>).map((r) => [r.asset_id, r.video_state])),
    };
  } catch (error) {
    failure('integrityFailures', `${when}: the database could not be opened read-only: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  } finally {
    db?.close();
  }
}

/**
 * PostgreSQL (killing the server does not stop PostgreSQL; what is checked is what the server committed):
 * every B-tree index checked against its table with amcheck (`bt_index_check`, every row indexed);
 * answers the rows the orphan count needs.
 */
async function checkPostgres(when: string): Promise<Rows | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('create extension if not exists amcheck');
    const indexes = await client.query<{ name: string }>(
      `select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
        join pg_namespace n on n.oid = c.relnamespace where am.amname = 'btree' and n.nspname = 'public'`,
    );
    for (const index of indexes.rows) {
      try {
        await client.query('select bt_index_check($1::regclass, true)', [`public.${index.name}`]);
      } catch (error) {
        failure('integrityFailures', `${when}: amcheck of index ${index.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const videos = await client.query<{ id_externo: string }>('select id_externo from videos');
    const ups = await client.query<{ asset_id: string; video_state: string }>('select asset_id, video_state from uploads');
    return { videos: new Set(videos.rows.map((r) => r.id_externo)), uploads: new Map(ups.rows.map((r) => [r.asset_id, r.video_state])) };
  } catch (error) {
    failure('integrityFailures', `${when}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  } finally {
    await client.end();
  }
}

const checkDatabase = (when: string): Promise<Rows | undefined> => (databaseUrl ? checkPostgres(when) : Promise.resolve(checkSqlite(when)));

/** ffmpeg (or any) processes the killed server started that are still running: their environment names our TMPDIR. */
function survivors(): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
      if (!environ.split('\0').includes(`TMPDIR=${serverTmp}`) || Number(pid) === server.pid) continue;
      found.push(`${pid} ${fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}`);
    } catch {
      /* gone, or not ours */
    }
  }
  return found;
}

/** What the kills left behind that nobody will use (recorded once each). Answers the new ones. */
function countOrphans(rows: Rows): string[] {
  const fresh: string[] = [];
  const note = (name: string, why: string) => {
    if (orphans.has(name)) return;
    orphans.set(name, why);
    fresh.push(`${name} (${why})`);
  };
  const now = new Set<string>();
  for (const entry of fs.readdirSync(mediaDir(), { withFileTypes: true })) {
    if (entry.name === '.tmp' || !entry.isDirectory()) continue;
    if (!rows.videos.has(entry.name) && !rows.uploads.has(entry.name)) {
      note(`media/${entry.name}/`, 'an asset directory no video or upload names');
      now.add(`media/${entry.name}/`);
    }
  }
  const temporary = path.join(mediaDir(), '.tmp');
  for (const name of fs.existsSync(temporary) ? fs.readdirSync(temporary) : []) {
    const assetId = name.split('.')[0]!;
    const state = rows.uploads.get(assetId);
    if (name.endsWith('.partial') && (state === 'pending' || state === 'receiving')) continue; // resumable
    note(`media/.tmp/${name}`, name.endsWith('.partial') ? `a partial file of an upload in state ${state ?? 'none'}` : 'an interrupted write');
    now.add(`media/.tmp/${name}`);
  }
  for (const name of fs.readdirSync(serverTmp)) {
    note(`TMPDIR/${name}`, 'a work directory of interrupted processing');
    now.add(`TMPDIR/${name}`);
  }
  // an orphan that went away (the sweep, a resumed upload) is no longer counted
  for (const name of [...orphans.keys()]) if (!now.has(name) && !name.startsWith('process ')) orphans.delete(name);
  return fresh;
}

interface ListedVideo {
  id: number;
  idExterno: string;
  titulo: string;
  puntuacion: number | null;
  favorito: boolean;
  urlVideo: string;
  urlThumbnail: string | null;
  urlPreview: string | null;
}

async function listAs(person: Person): Promise<ListedVideo[]> {
  return apiOk<ListedVideo[]>(server.url, 'GET', '/api/videos?limit=500', 200, { token: person.token });
}

/** After a restart: every acknowledged write is there, nothing partial is visible, uploads resume. */
async function checkAfterRestart(rows: Rows | undefined): Promise<string> {
  let checked = 0;
  // ratings and favourites, through each person's own list
  for (const person of people) {
    const listed = new Map((await listAs(person)).map((v) => [v.id, v]));
    for (const key of keys.filter((k) => k.person === person)) {
      checked += 1;
      const seen = listed.get(key.videoId)?.[key.field];
      const acceptable = [key.acked, ...(key.inflight !== undefined ? [key.inflight] : [])];
      if (!acceptable.includes(seen ?? null)) {
        loss(`${person.user}'s ${key.field} of video ${key.videoId} is ${String(seen)}; acknowledged ${String(key.acked)}${key.inflight !== undefined ? `, in flight ${String(key.inflight)}` : ''}`);
      }
      key.acked = seen ?? null;
      key.inflight = undefined;
    }
  }

  // videos created and deleted, and uploads
  const all = await listAs(admin);
  const byTitle = new Map(all.map((v) => [v.titulo, v]));
  for (const upload of uploads) {
    const listed = byTitle.get(upload.title);
    if (upload.state === 'creating') {
      // the POST was in flight: either outcome is right
      upload.state = listed ? 'created' : 'ready';
      if (listed) upload.videoId = listed.id;
    }
    if (upload.state === 'deleting') upload.state = listed ? 'created' : 'deleted';
    if (upload.state === 'created') {
      checked += 1;
      if (!listed) loss(`video ${upload.videoId} (upload ${upload.n}) was created (201) and is not listed`);
    } else if (upload.state === 'deleted') {
      checked += 1;
      const answer = await api(server.url, 'GET', `/api/videos/${upload.videoId}`, { token: admin.token });
      if (listed || answer.status !== 404) loss(`video ${upload.videoId} (upload ${upload.n}) was deleted (204) and is back (GET answers ${answer.status}${listed ? `; listed as video ${listed.id} ${listed.idExterno} ${listed.titulo}` : ''})`);
    } else if (upload.state === 'sending' || upload.state === 'processing' || upload.state === 'ready') {
      checked += 1;
      const state = await apiOk<{ estado: string; recibido: number }>(server.url, 'GET', `/api/uploads/${upload.assetId}`, 200, { token: admin.token });
      if (upload.state === 'sending') {
        if (state.estado === 'pending' || state.estado === 'receiving') {
          if (state.recibido < upload.acked) loss(`upload ${upload.n} holds ${state.recibido} bytes, ${upload.acked} had been acknowledged`);
          upload.askOffset = true;
        } else upload.state = 'processing'; // the last part was in flight and arrived
      } else if (state.estado === 'pending' || state.estado === 'receiving') {
        loss(`upload ${upload.n} was received completely (204) and is ${state.estado} again with ${state.recibido} bytes`);
        upload.state = 'sending';
        upload.askOffset = true;
      } else if (upload.state === 'processing' && state.estado === 'processing' && !upload.processingResumed) {
        upload.processingResumed = true;
        totals.processingResumed += 1;
      }
    }
  }

  // media: every listed location whole, and the files of processed uploads not yet made videos
  for (const video of all) await checkListedMedia(video);
  for (const upload of uploads.filter((u) => u.state === 'ready')) {
    for (const file of ['video.mp4', 'thumbnail.jpg', 'preview.mp4']) {
      const local = path.join(mediaDir(), upload.assetId, file);
      if (fs.existsSync(local)) checkMediaBytes(`upload ${upload.n} ${file} on disk`, upload.assetId, file, fs.readFileSync(local));
    }
  }
  totals.stateChecks += checked;

  const fresh = rows ? countOrphans(rows) : [];
  return `checked ${checked} states, ${all.length} videos' media${fresh.length ? `; left behind: ${fresh.join(', ')}` : ''}`;
}

// ── the run ─────────────────────────────────────────────────────────────────────────────────────

const BASE_VIDEOS = 3;

async function restart(): Promise<number> {
  const started = Date.now();
  server = await startBuiltServer({ dataDir, port, env: env() });
  const seconds = (Date.now() - started) / 1000;
  totals.restartSeconds.push(seconds);
  return seconds;
}

async function setUp(): Promise<void> {
  const source = path.join(work, 'clip.mp4');
  await generateTestVideo(source, { seconds: 2, pattern: 'smptebars', toneHz: 440, width: 320, height: 180 });
  const made = fs.readFileSync(source);
  const pad = Buffer.alloc(CLIP_BYTES - made.length, 0x2a);
  pad.writeUInt32BE(pad.length, 0);
  pad.write('free', 4, 'latin1');
  clip = Buffer.concat([made, pad]);
  clipHash = crypto.createHash('sha256').update(clip).digest('hex');
  const jpeg = path.join(work, 'portada.jpg');
  await run(mediaTools().ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=orange:s=320x180', '-frames:v', '1', jpeg]);
  thumbnail = fs.readFileSync(jpeg);

  await restart();
  const invitation = server.firstAdminToken();
  if (!invitation) throw new Error(`the server printed no first-administrator link:\n${server.output()}`);
  admin = { user: 'admin.caidas', token: await registerWithInvitation(server.url, invitation, 'admin.caidas', PASSWORD) };
  people.push(admin);
  for (const user of ['ana.caidas', 'luis.caidas']) {
    const created = await apiOk<{ token: string }>(server.url, 'POST', '/api/register-invitations', 201, { token: admin.token, body: { email: `${user}@example.org`, rol: 'user' } });
    people.push({ user, token: await registerWithInvitation(server.url, created.token, user, PASSWORD) });
  }
  // the videos rated and favourited: uploaded, processed and created like the others, before any kill
  killed = false;
  for (let i = 0; i < BASE_VIDEOS; i++) {
    const upload = await startUpload(0);
    while (upload.state === 'sending') await send(upload);
    for (let waited = 0; upload.state === 'processing'; waited += 100) {
      if (waited > 60_000) throw new Error('the base videos were not processed within a minute');
      const state = await apiOk<{ estado: string; error: string | null }>(server.url, 'GET', `/api/uploads/${upload.assetId}`, 200, { token: admin.token });
      if (state.estado === 'failed') throw new Error(`processing the base video failed: ${state.error}`);
      if (state.estado === 'ready') upload.state = 'ready';
      else await sleep(100);
    }
    const video = await apiOk<{ id: number }>(server.url, 'POST', '/api/videos', 201, {
      token: admin.token,
      body: { isVisible: true, titulo: upload.title, descripcionCorta: 'Video base de la prueba de caídas', tags: [], idExterno: upload.assetId },
    });
    upload.state = 'created';
    upload.videoId = video.id;
    for (const person of people) {
      keys.push({ person, videoId: video.id, field: 'puntuacion', acked: null }, { person, videoId: video.id, field: 'favorito', acked: false });
    }
  }
}

/** Every interrupted upload finished from the offset the server reports, processed, made a video; processing waited for. */
async function finish(): Promise<void> {
  killed = false;
  const deadline = Date.now() + 90_000;
  for (const upload of uploads) {
    while (Date.now() < deadline && ['sending', 'processing', 'ready'].includes(upload.state)) {
      if (upload.state === 'sending') await send(upload);
      else if (upload.state === 'processing') {
        const state = await apiOk<{ estado: string; error: string | null }>(server.url, 'GET', `/api/uploads/${upload.assetId}`, 200, { token: admin.token });
        if (state.estado === 'ready') upload.state = 'ready';
        else if (state.estado === 'failed') {
          upload.state = 'failed';
          totals.processingFailed += 1;
          console.log(`  upload ${upload.n}: processing failed (${state.error})`);
        } else await sleep(200);
      } else {
        const video = await apiOk<{ id: number }>(server.url, 'POST', '/api/videos', 201, {
          token: admin.token,
          body: { isVisible: true, titulo: upload.title, descripcionCorta: 'Video subido durante la prueba de caídas', tags: [], idExterno: upload.assetId },
        });
        upload.state = 'created';
        upload.videoId = video.id;
        totals.videosCreated += 1;
      }
    }
    if (upload.state === 'processing') failure('processingStuck', `upload ${upload.n} is still processing 90 s after the last restart`);
    if (upload.state === 'sending') failure('resumeFailures', `upload ${upload.n} could not be finished`);
  }
}

async function createPgDatabase(): Promise<void> {
  const name = `tao_crash_${process.pid}_${Date.now()}`;
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
}

async function dropPgDatabase(): Promise<void> {
  if (!databaseUrl) return;
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const guard = setTimeout(() => {
    console.error('the benchmark took too long: stopping');
    void server?.kill9().finally(() => process.exit(2));
  }, HARD_LIMIT_MS);
  guard.unref();
  const started = Date.now();
  const postgres = options.postgres || process.env.BENCH_DATABASE_URL !== undefined;
  const database = postgres ? 'PostgreSQL' : 'SQLite';
  console.log(`crash safety: ${KILLS} kills (SIGKILL), seed ${SEED} (repeat with --seed ${SEED}), ${database}, node ${process.version}, ${os.cpus().length} cores`);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-crash-'));
  dataDir = path.join(work, 'data');
  serverTmp = path.join(work, 'server-tmp');
  fs.mkdirSync(serverTmp);
  port = await freePort();
  try {
    if (postgres) await createPgDatabase();
    await setUp();
    console.log(`set up in ${((Date.now() - started) / 1000).toFixed(1)} s: 3 people, ${BASE_VIDEOS} videos, ${keys.length} ratings and favourites to write; uploads of ${kib(CLIP_BYTES)} in parts of ${kib(CHUNK)}`);

    for (let kill = 1; kill <= KILLS; kill++) {
      killed = false;
      const window = 300 + rnd() * 2200;
      const running = clients();
      await sleep(window);
      killed = true;
      const interrupted = [...inflight.values()];
      const processing = uploads.filter((u) => u.state === 'processing').map((u) => `processing upload ${u.n} (server side)`);
      await server.kill9();
      totals.kills += 1;
      await running;
      const outliving = survivors();
      for (const p of outliving) orphans.set(`process ${p}`, 'a media program that outlived the server');
      console.log(`kill ${kill}/${KILLS} after ${(window / 1000).toFixed(2)} s; in flight: ${[...interrupted, ...processing].join('; ') || 'nothing'}${outliving.length ? `; still running after the kill: ${outliving.join(', ')}` : ''}`);
      const rows = await checkDatabase(`after kill ${kill}`);
      const restartSeconds = await restart();
      const checking = Date.now();
      const checked = await checkAfterRestart(rows);
      totals.checkSeconds += (Date.now() - checking) / 1000;
      totals.windowSeconds += window / 1000;
      console.log(`  restarted in ${restartSeconds.toFixed(1)} s; ${checked}`);
    }

    console.log('finishing the interrupted uploads from the offsets the server reports…');
    await finish();
    const finalCheck = await checkAfterRestart(await checkDatabase('before the graceful stop'));
    console.log(`  ${finalCheck}`);
    // not what is measured here (shown beside the figures): main.ts gives a stop 10 s
    const stopStarted = Date.now();
    const code = await server.stop();
    stopNote =
      `Graceful stop (SIGTERM) at the end: ${((Date.now() - stopStarted) / 1000).toFixed(1)} s, exit ${code}` +
      `${code === 0 ? '' : ` (${/"msg":"([^"]+)"/.exec(server.output().split('\n').reverse().find((l) => l.includes('"msg"')) ?? '')?.[1] ?? 'see the server output'}; BENCH_SERVER_LOG_LEVEL=info shows its log)`}.`;
    console.log(stopNote);
    if (code !== 0) console.log(`  the server's last lines:\n${server.output().trim().split('\n').slice(-15).join('\n')}`);
    await checkDatabase('after the graceful stop');
  } finally {
    await server?.kill9();
    await dropPgDatabase().catch((error: unknown) => console.error(`could not drop the PostgreSQL database: ${String(error)}`));
    fs.rmSync(work, { recursive: true, force: true });
  }

  const seconds = (Date.now() - started) / 1000;
  const restarts = totals.restartSeconds;
  const orphanList = [...orphans.entries()].map(([name, why]) => `${name}: ${why}`);
  const table = markdownTable(
    ['database', 'kills', 'acknowledged writes', 'states checked', 'losses', 'integrity failures', 'partial media', 'uploads resumed', 'processing resumed', 'stuck', 'orphans'],
    [[
      database,
      String(totals.kills),
      String(totals.ackedWrites),
      String(totals.stateChecks),
      String(totals.losses),
      String(totals.integrityFailures),
      String(totals.mediaFailures),
      `${totals.uploadsResumed} (${totals.resumeFailures} could not)`,
      `${totals.processingResumed} (${totals.processingFailed} failed)`,
      String(totals.processingStuck),
      String(orphans.size),
    ]],
  );
  const verdict = totals.losses + totals.integrityFailures + totals.mediaFailures + totals.resumeFailures + totals.processingStuck + totals.unexpected === 0;
  reportSection(
    postgres ? 'crash-safety-postgres' : 'crash-safety',
    `Crash safety (${database})`,
    [
      `${totals.kills} SIGKILLs of the built server at seeded random moments (seed ${SEED}) during resumable uploads, processing, video creation and deletion, ratings and favourites; ` +
        `${totals.videosCreated} videos created, ${totals.videosDeleted} deleted, ${totals.mediaFilesChecked} media files checked whole. ` +
        `Whole run ${seconds.toFixed(0)} s on ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)} at the end): ` +
        `restarts ${restarts.reduce((a, b) => a + b, 0).toFixed(0)} s (${Math.min(...restarts).toFixed(1)}–${Math.max(...restarts).toFixed(1)} s each), ` +
        `clients writing ${totals.windowSeconds.toFixed(0)} s, checks after the restarts ${totals.checkSeconds.toFixed(0)} s. ${stopNote}`,
      '',
      table,
      '',
      `Verdict: ${verdict ? 'no acknowledged write lost, database intact, no partial media visible, every interrupted upload resumed, no processing stuck' : 'FAILED'}.`,
      '',
      [
        ['acknowledged writes lost', totals.losses],
        ['integrity failures', totals.integrityFailures],
        ['partial media visible', totals.mediaFailures],
        ['uploads that could not be resumed', totals.resumeFailures],
        ['processing stuck', totals.processingStuck],
        ['unexpected answers', totals.unexpected],
      ]
        .map(([name, n]) => `${name} ${n} (${OWN_GOAL} 0: ${n === 0 ? 'met' : 'MISSED'})`)
        .join('; ') + '.',
      ...(problems.length ? ['', ...problems.slice(0, 20).map((p) => `- ${p}`)] : []),
      ...(orphanList.length ? ['', 'Left behind by the kills (not visible to anyone; see the summary):', ...orphanList.slice(0, 15).map((o) => `- ${o}`)] : []),
    ].join('\n'),
  );
  if (!verdict) process.exitCode = 1;
}

await main();
