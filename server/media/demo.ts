import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { findUserByKey, updateUser } from '../modules/accounts/accounts.repository.ts';
import { createInvitation } from '../modules/accounts/invitations.service.ts';
import { register } from '../modules/accounts/login.service.ts';
import { usernameKey } from '../modules/accounts/users.service.ts';
import { findVideoByExternalId, recordViewEvent } from '../modules/videos/videos.repository.ts';
import { insertVideo, patchVideo, type VideoPatch } from '../modules/videos/videos.service.ts';
import { putSubtitles } from '../modules/subtitulos/subtitulos.service.ts';
import type { Secrets } from '../secrets.ts';
import { openStorage } from '../storage/open-storage.ts';
import type { Storage } from '../storage/storage.ts';
import { writeLocalFile } from '../storage/write-local-file.ts';
import { DEMO_ENGLISH_CAPTIONS, DEMO_ORGANIZATIONS, DEMO_USERS, DEMO_VIDEOS, demoSpanishCaptions, HIDDEN_DEMO_VIDEOS } from './demo-content.ts';
import { formatStamp } from '../modules/subtitulos/subtitle-files.ts';
import { makeStreaming } from './hls.ts';
import { createMediaJobs, generateTestVideo, makePreview, makeThumbnail, probe, TEST_PATTERNS, type MediaJobs } from './ffmpeg.ts';
import { storeThumbnail } from './thumbnails.ts';
import { seededRandom } from '../seeded-random.ts';

/**
 * The demo library: real short mp4 videos made with ffmpeg (distinct test patterns and tones, with
 * thumbnails and animated previews), Spanish texts, tags, users of two organisations, and ratings,
 * favourites and views spread over them; a few videos are hidden (isVisible false: only administrators
 * and users of the video's organisation see them). Every video has Spanish captions, the first also
 * English ones, stored through the subtitles service as an administrator's would be. Files go through
 * the storage interface, rows through the accounts and videos services. Idempotent: what exists
 * (by asset id `demo-video-NN`, by user name) is kept, only what is missing is made.
 */

export interface DemoContext {
  config: Config;
  db: Db;
  secrets: Secrets;
  media?: MediaJobs;
}

export interface DemoOptions {
  /** how many videos (default 24) */
  videos?: number;
  /** length of each video in seconds, by position (default 8–20 s) */
  secondsOf?: (index: number) => number;
  /** where the files go (default: the configured storage) */
  storage?: Storage;
  /** a line per finished step */
  onProgress?: (line: string) => void;
  /** the time the demo is made at (default now) */
  now?: number;
}

export interface DemoReport {
  videosCreated: number;
  videosExisting: number;
  hiddenCreated: number;
  usersCreated: Array<{ user: string; nombre: string; organizacion: string }>;
  usersExisting: number;
  /** the password of the users created by this run (undefined when none was created) */
  password: string | undefined;
  tags: number;
  ratings: number;
  favourites: number;
  views: number;
  /** subtitle tracks stored (one per new video in Spanish, one more in English) */
  captions: number;
  seconds: number;
}

export const DEFAULT_DEMO_VIDEOS = 24;
export const MAX_DEMO_VIDEOS = 200;

export const demoAssetId = (index: number) => `demo-video-${String(index + 1).padStart(2, '0')}`;

/** 8–20 seconds, spread over the videos. */
const defaultSeconds = (index: number) => 8 + ((index * 5) % 13);

const DAY = 24 * 3600 * 1000;
/** Upload ages (days) that give every upload-date filter something: this week, month, 6 months, year, older. */
const AGES = [0, 1, 2, 4, 6, 9, 13, 18, 24, 31, 40, 52, 65, 80, 100, 125, 150, 175, 200, 240, 280, 330, 380, 430];

interface PlannedVideo {
  index: number;
  assetId: string;
  text: (typeof DEMO_VIDEOS)[number];
  titulo: string;
  seconds: number;
  fechaAlta: number;
  organizacion: string;
  isVisible: boolean;
}

function plan(count: number, secondsOf: (index: number) => number, now: number): PlannedVideo[] {
  return Array.from({ length: count }, (_, index) => {
    const text = DEMO_VIDEOS[index % DEMO_VIDEOS.length]!;
    const round = Math.floor(index / DEMO_VIDEOS.length);
    const age = AGES[index % AGES.length]! + round * 7;
    return {
      index,
      assetId: demoAssetId(index),
      text,
      titulo: round === 0 ? text.titulo : `${text.titulo} (${round + 1})`,
      seconds: secondsOf(index),
      // at a working hour of that day, minutes apart so the order is stable
      fechaAlta: Math.floor((now - age * DAY) / DAY) * DAY + 9 * 3600 * 1000 + index * 60_000,
      organizacion: DEMO_ORGANIZATIONS[index % DEMO_ORGANIZATIONS.length]!,
      isVisible: !HIDDEN_DEMO_VIDEOS.has(index % DEMO_VIDEOS.length),
    };
  });
}

/** The caption lines as a WebVTT file, one cue after another over the whole video (its `seconds`). */
export function demoCaptionsFile(lines: readonly string[], seconds: number): string {
  const span = Math.floor(seconds * 1000);
  const cues = lines.map((line, i) => `${formatStamp(Math.round((i * span) / lines.length))} --> ${formatStamp(Math.round(((i + 1) * span) / lines.length))}\n${line}`);
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/** The demo stores captions as an administrator would, through the subtitles service; the audit log names the command line. */
const DEMO_CALLER = { userId: 0, role: 'admin' as const };
const DEMO_ACTOR = { id: null, nombre: 'demo' };

/** Makes the video, its thumbnail, preview, HLS renditions and storyboard in `dir`, and stores them; answers the duration and what streams. */
async function makeMedia(video: PlannedVideo, dir: string, storage: Storage, jobs: MediaJobs): Promise<{ duration: number; hlsHeights: number[]; hasStoryboard: boolean }> {
  const files = { video: path.join(dir, 'video.mp4'), thumbnail: path.join(dir, 'thumbnail.jpg'), preview: path.join(dir, 'preview.mp4') };
  await generateTestVideo(files.video, {
    seconds: video.seconds,
    pattern: TEST_PATTERNS[video.index % TEST_PATTERNS.length]!,
    hue: (Math.floor(video.index / TEST_PATTERNS.length) * 115) % 360,
    // a chromatic scale from A3: every video of the demo sounds different
    toneHz: 220 * 2 ** ((video.index % 36) / 12),
    label: video.titulo,
    jobs,
  });
  const { durationSeconds } = await probe(files.video, { jobs });
  await Promise.all([makeThumbnail(files.video, files.thumbnail, { durationSeconds, jobs }), makePreview(files.video, files.preview, { durationSeconds, jobs })]);
  // The thumbnail and preview first: a video row appears only after all three exist.
  await storeThumbnail(storage, video.assetId, files.thumbnail, undefined, jobs);
  await writeLocalFile(storage, video.assetId, 'preview.mp4', files.preview);
  await writeLocalFile(storage, video.assetId, 'video.mp4', files.video);
  // R-MED-5: the demo streams as uploads do (two at a time in the demo's short-job slots)
  const streaming = await makeStreaming(storage, video.assetId, { jobs, lane: 'jobs', workParent: dir });
  return { duration: Math.round(durationSeconds * 100) / 100, hlsHeights: streaming.heights, hasStoryboard: streaming.storyboard };
}

export async function loadDemo(ctx: DemoContext, options: DemoOptions = {}): Promise<DemoReport> {
  const started = Date.now();
  const now = options.now ?? started;
  const count = options.videos ?? DEFAULT_DEMO_VIDEOS;
  if (!Number.isInteger(count) || count < 1 || count > MAX_DEMO_VIDEOS) throw new Error(`the number of videos must be from 1 to ${MAX_DEMO_VIDEOS}`);
  const storage = options.storage ?? openStorage(ctx.config);
  const progress = options.onProgress ?? (() => {});
  const db = ctx.db.kysely;

  // ── users, through the accounts service (an invitation each, then registration) ──
  const existingUsers = new Map<string, number>();
  for (const u of DEMO_USERS) {
    const row = await findUserByKey(db, usernameKey(u.user));
    if (row) existingUsers.set(u.user, row.id);
  }
  const password = existingUsers.size < DEMO_USERS.length ? crypto.randomBytes(9).toString('base64url') : undefined;
  const userIds = new Map(existingUsers);
  const usersCreated: DemoReport['usersCreated'] = [];
  for (const u of DEMO_USERS) {
    if (existingUsers.has(u.user)) continue;
    const invitation = await createInvitation(ctx, { email: u.email, rol: 'user', organizacion: u.organizacion, invitedBy: null });
    await register(ctx, { token: invitation.token, user: u.user, password: password! });
    const row = (await findUserByKey(db, usernameKey(u.user)))!;
    await updateUser(db, row.id, { nombre: u.nombre });
    userIds.set(u.user, row.id);
    usersCreated.push({ user: u.user, nombre: u.nombre, organizacion: u.organizacion });
  }

  // ── media of the missing videos, made in parallel (ffmpeg runs two at a time) ──
  const planned = plan(count, options.secondsOf ?? defaultSeconds, now);
  const missing: PlannedVideo[] = [];
  for (const video of planned) {
    if (!(await findVideoByExternalId(db, video.assetId))) missing.push(video);
  }
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tao-demo-'));
  const durations = new Map<string, Awaited<ReturnType<typeof makeMedia>>>();
  // the slots of this load (ffmpeg runs two at a time), or those of the server that loads it
  const jobs = ctx.media ?? createMediaJobs();
  try {
    let done = 0;
    await Promise.all(
      missing.map(async (video) => {
        const dir = path.join(work, video.assetId);
        await fs.promises.mkdir(dir);
        durations.set(video.assetId, await makeMedia(video, dir, storage, jobs));
        await fs.promises.rm(dir, { recursive: true, force: true });
        done += 1;
        progress(`[${done}/${missing.length}] ${video.assetId}  ${video.titulo}`);
      }),
    );
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }

  // ── rows, through the videos service, oldest first ──
  const created: Array<{ id: number; video: PlannedVideo }> = [];
  for (const video of [...missing].sort((a, b) => a.fechaAlta - b.fechaAlta)) {
    const row = await insertVideo(ctx.db, {
      idExterno: video.assetId,
      titulo: video.titulo,
      descripcionCorta: video.text.descripcionCorta,
      descripcion: video.text.descripcion,
      duracion: durations.get(video.assetId)!.duration,
      organizacion: video.organizacion,
      nombreUsuarioAlta: video.text.nombreUsuarioAlta,
      isVisible: video.isVisible,
      hasThumbnail: true,
      hasPreview: true,
      hlsHeights: durations.get(video.assetId)!.hlsHeights,
      hasStoryboard: durations.get(video.assetId)!.hasStoryboard,
      fechaAlta: new Date(video.fechaAlta),
      tagNames: video.text.etiquetas,
    });
    created.push({ id: row.id, video });
  }

  // ── captions of the new videos: Spanish for every one, English also for the first ──
  let captions = 0;
  for (const { id, video } of created) {
    const seconds = durations.get(video.assetId)!.duration;
    const tracks: Array<[string, readonly string[]]> = [['es', demoSpanishCaptions(video.text, video.index)]];
    if (video.index === 0) tracks.push(['en', DEMO_ENGLISH_CAPTIONS]);
    for (const [idioma, lines] of tracks) {
      await putSubtitles(ctx, storage, DEMO_CALLER, id, idioma, Buffer.from(demoCaptionsFile(lines, seconds)), DEMO_ACTOR);
      captions += 1;
    }
  }

  // ── what users did with the new videos: views (past dates), seen marks, ratings, favourites ──
  let ratings = 0;
  let favourites = 0;
  let views = 0;
  for (const { id, video } of created) {
    const rnd = seededRandom(video.index + 1);
    for (const u of DEMO_USERS) {
      const userId = userIds.get(u.user)!;
      const interest = rnd();
      if (!video.isVisible && u.organizacion !== video.organizacion) continue; // a hidden video of another organisation
      if (interest < 0.3) continue; // never opened it
      const opened = 1 + Math.floor(rnd() * 4);
      for (let n = 0; n < opened; n++) {
        const at = new Date(Math.min(now - 60_000, video.fechaAlta + (rnd() * (now - video.fechaAlta))));
        if (await recordViewEvent(db, id, userId, at.toISOString(), at.toISOString())) views += 1;
      }
      const operations: VideoPatch = [{ op: 'replace', path: '/visto', value: true }];
      if (interest > 0.45) operations.push({ op: 'replace', path: '/puntuacion', value: 1 + Math.min(4, Math.floor(interest * 3 + rnd() * 2.5)) });
      if (interest > 0.75) operations.push({ op: 'replace', path: '/favorito', value: true });
      if (rnd() < 0.3) operations.push({ op: 'replace', path: '/posicion', value: Math.round(rnd() * video.seconds * 10) / 10 });
      await patchVideo(ctx, { userId, role: 'user' }, id, operations);
      ratings += operations.some((op) => op.path === '/puntuacion') ? 1 : 0;
      favourites += operations.some((op) => op.path === '/favorito') ? 1 : 0;
    }
  }

  return {
    videosCreated: created.length,
    videosExisting: planned.length - missing.length,
    hiddenCreated: created.filter((c) => !c.video.isVisible).length,
    usersCreated,
    usersExisting: existingUsers.size,
    password,
    tags: new Set(planned.flatMap((v) => v.text.etiquetas)).size,
    ratings,
    favourites,
    views,
    captions,
    seconds: (Date.now() - started) / 1000,
  };
}

/** What the command prints. */
export function describeDemo(report: DemoReport, config: Pick<Config, 'mediaDir'> & Partial<Pick<Config, 's3'>>): string {
  const where = config.s3 ? `s3://${config.s3.bucket}/${config.s3.prefix}` : config.mediaDir;
  const lines: string[] = [];
  if (report.videosCreated === 0 && report.usersCreated.length === 0) {
    lines.push(`The demo data is already loaded (${report.videosExisting} videos, ${report.usersExisting} users): nothing was changed.`);
  } else {
    lines.push(
      `Demo data loaded in ${report.seconds.toFixed(1)} s: ${report.videosCreated} videos (${report.hiddenCreated} hidden from users of the other organisation) with thumbnails and previews in ${where}` +
        `${report.videosExisting ? ` (${report.videosExisting} were already there)` : ''}; ` +
        `${report.tags} tags; ${report.captions} subtitle tracks (Spanish, and English for the first video); ${report.views} views, ${report.ratings} ratings and ${report.favourites} favourites by the demo users.`,
    );
  }
  if (report.usersCreated.length > 0) {
    lines.push('', `Demo users (role user), password ${report.password} — each sets up the second factor (TOTP) at the first sign-in:`);
    const width = Math.max(...report.usersCreated.map((u) => u.user.length));
    for (const u of report.usersCreated) lines.push(`  ${u.user.padEnd(width)}  ${u.nombre}, ${u.organizacion}`);
  }
  if (report.usersExisting > 0 && report.usersCreated.length > 0) lines.push(`  (${report.usersExisting} demo users existed already and keep their passwords)`);
  lines.push('', 'Administrators see every video; the first one is created with the link `npm start` prints.');
  return lines.join('\n');
}
