import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase, POSTGRES_URL, type TestServer } from '../tests/utils/server-harness.ts';
import { runCli } from './cli-program.ts';
import { rootDir } from './config.ts';
import { findUserByKey } from './modules/accounts/accounts.repository.ts';
import { readViewCounters, rebuildViewCounters } from './modules/statistics/statistics.repository.ts';
import { mediaTools, probe, testVideoBytes } from './media/ffmpeg.ts';
import { makeForeignVideo } from './media/foreign-videos.ts';
import { THUMBNAIL_SMALL_WEBP } from './media/thumbnails.ts';
import { addVideo, assetId, createUser, titles } from './modules/videos/videos.test-support.ts';
import { LocalStorage } from './storage/local-storage.ts';
import { createFirstAdmin, invitationTokenOf, inviteUser, registerAndEnrol, type TestUser } from '../tests/utils/accounts.ts';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment that points the command line at the test server's database. */
async function cliEnv(server: TestServer): Promise<NodeJS.ProcessEnv> {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const base = { ...env, DATA_DIR: server.config.dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: server.config.publicUrl };
  if (server.kind === 'sqlite') return base;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(server.db.kysely);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${rows[0]!.schema}`);
  return { ...base, DATABASE_URL: url.toString() };
}

/** `npm run cli -- <args>` as its own process (tsx, as the script runs it): the entry, exit codes and output streams. */
function runCliProcess(env: NodeJS.ProcessEnv, args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], { cwd: rootDir, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The same program in this process (server/cli-program.ts, which the entry runs on the process's
 * arguments, environment and streams): what each command does, without starting Node and tsx again.
 */
async function runCliHere(env: NodeJS.ProcessEnv, args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { env, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('command line: usage', () => {
  const env = { ...process.env, LOG_LEVEL: 'silent' };

  it('prints the help', async () => {
    const res = await runCliProcess(env, ['help']);
    expect(res.code).toBe(0);
    for (const command of ['invite <email> [--admin] [--org NAME]', 'users', 'set-role <user> admin|user', 'block <user>', 'unblock <user>', 'reset-otp <user>', 'audit [--since DATE]',
      'generate --videos N --users M --views K [--ratings R] [--cues C] [--days D] [--seed S]', 'playable [--check]', 'hls', 'webp-thumbnails', 'help']) {
      expect(res.stdout).toContain(command);
    }
  });

  it('refuses a missing or unknown command with exit code 2 and the usage', async () => {
    const [none, unknown] = await Promise.all([runCliProcess(env, []), runCliProcess(env, ['destroy'])]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No command given');
    expect(none.stderr).toContain('Usage: npm run cli -- <command>');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "destroy"');
  });
});

describeOnEachDatabase('command line', (server) => {
  let env: NodeJS.ProcessEnv;
  let admin: TestUser;
  let ana: TestUser;
  const cli = (...args: string[]) => runCliHere(env, args);
  const me = (token: string) => call(server().app, { method: 'GET', url: '/api/me', token });

  beforeAll(async () => {
    env = await cliEnv(server());
    admin = await createFirstAdmin(server());
    ana = await inviteUser(server(), admin, 'ana');
  });

  describe('arguments', () => {
    it('refuses bad arguments with exit code 2', async () => {
      const [badRole, badEmail, badOption, extra] = await Promise.all([
        cli('set-role', 'ana', 'boss'),
        cli('invite', 'not-an-address'),
        cli('invite', 'x@example.org', '--root'),
        cli('block', 'ana', 'bea'),
      ]);
      expect(badRole.code).toBe(2);
      expect(badRole.stderr).toContain('set-role takes a user name and admin or user');
      expect(badEmail.code).toBe(2);
      expect(badEmail.stderr).toContain('email');
      expect(badOption.code).toBe(2);
      expect(badOption.stderr).toContain("Unknown option '--root'");
      expect(extra.code).toBe(2);
      expect(extra.stderr).toContain('block takes exactly one user name');
    });

    it('says so, with exit code 1, when the user does not exist', async () => {
      const res = await cli('block', 'nobody');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('there is no user named "nobody"');
    });
  });

  describe('invite', () => {
    it('prints a registration link that registers a user of the organisation', async () => {
      const res = await cli('invite', 'bea@example.org', '--org', 'Archivo');
      expect(res.code, res.stderr).toBe(0);
      const link = /http:\/\/localhost:8080\/register\?invitation=[A-Za-z0-9_-]{43}/.exec(res.stdout)?.[0];
      expect(link).toBeDefined();
      const bea = await registerAndEnrol(server(), invitationTokenOf(link!), 'bea', 'bea-password-1');
      expect((await me(bea.session)).json()).toMatchObject({ user: 'bea', role: 'user', email: 'bea@example.org', organizacion: 'Archivo' });
    });

    it('invites an administrator with --admin', async () => {
      const res = await cli('invite', 'boss@example.org', '--admin');
      expect(res.code, res.stderr).toBe(0);
      const link = /http\S+invitation=\S+/.exec(res.stdout)![0];
      const boss = await registerAndEnrol(server(), invitationTokenOf(link), 'boss', 'boss-password-1');
      expect((await me(boss.session)).json()).toMatchObject({ role: 'admin' });
    });
  });

  describe('users', () => {
    it('lists the users in a table (the command line as its own process, on this database)', async () => {
      const res = await runCliProcess(env, ['users']);
      expect(res.code, res.stderr).toBe(0);
      const lines = res.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^id\s+user\s+nombre\s+rol\s+organizacion\s+bloqueado\s+otp$/);
      expect(lines.find((l) => /\sana\s/.test(l))).toMatch(/^\d+\s+ana\s+ana\s+user\s+no\s+OTP_ACTIVED$/);
      expect(lines.find((l) => /\sadmin\s/.test(l))).toMatch(/\sadmin\s+admin\s+admin\s+no\s+OTP_ACTIVED$/);
    });
  });

  describe('changes, through the same rules as the API', () => {
    it('set-role changes the role and ends the user\'s sessions', async () => {
      const res = await cli('set-role', 'ana', 'admin');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('ana is now admin');
      expect((await findUserByKey(server().db.kysely, 'ana'))!.rol).toBe('admin');
      expect((await me(ana.session)).statusCode).toBe(401);
      expect((await cli('set-role', 'ANA', 'user')).code).toBe(0);
    });

    it('block ends the sessions at once; unblock lets the user sign in again', async () => {
      const blocked = await cli('block', 'ana');
      expect(blocked.code, blocked.stderr).toBe(0);
      expect(blocked.stdout).toContain('ana is blocked');
      const login = await call(server().app, { method: 'POST', url: '/api/login', payload: { user: 'ana', password: ana.password } });
      expect(login.json().type).toBe('blocked-user');
      const unblocked = await cli('unblock', 'ana');
      expect(unblocked.code).toBe(0);
      const again = await call(server().app, { method: 'POST', url: '/api/login', payload: { user: 'ana', password: ana.password } });
      expect(again.statusCode).toBe(200);
    });

    it('reset-otp makes the user enrol the second factor again', async () => {
      const res = await cli('reset-otp', 'ana');
      expect(res.code, res.stderr).toBe(0);
      expect(await findUserByKey(server().db.kysely, 'ana')).toMatchObject({ otp_state: 'OTP_REQUIRED', otp_secret: null, otp_last_step: null });
      const login = await call(server().app, { method: 'POST', url: '/api/login', payload: { user: 'ana', password: ana.password } });
      expect(login.json().otp).toMatchObject({ state: 'OTP_REQUIRED', uri: expect.stringMatching(/^otpauth:/) });
    });

    it('keeps the last administrator', async () => {
      expect((await cli('set-role', 'boss', 'user')).code).toBe(0);
      const res = await cli('block', 'admin');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('the last administrator cannot be demoted or blocked');
      expect((await findUserByKey(server().db.kysely, 'admin'))!.bloqueado).toBe(0);
    });

    it('records its changes in the audit log as cli (no user), and not the refused one', async () => {
      const rows = await server().db.kysely.selectFrom('audit_log').select(['actor_id', 'actor_nombre', 'action', 'detail']).orderBy('id').execute();
      const cliRows = rows.filter((r) => r.actor_nombre === 'cli');
      expect(cliRows.every((r) => r.actor_id === null)).toBe(true);
      const userActions = cliRows.filter((r) => r.action.startsWith('user.')).map((r) => [r.action, r.detail]);
      expect(userActions).toEqual([
        ['user.role-changed', 'ana'],
        ['user.role-changed', 'ana'],
        ['user.blocked', 'ana'],
        ['user.unblocked', 'ana'],
        ['user.otp-reset', 'ana'],
        ['user.role-changed', 'boss'],
      ]);
      expect(cliRows.filter((r) => r.action === 'invitation.created').length).toBeGreaterThanOrEqual(2);
      expect(rows.some((r) => r.action === 'user.blocked' && r.detail === 'admin')).toBe(false);
    });

    it('audit prints those changes oldest first, by cli, with the values before and after; --since in the future prints none', async () => {
      const res = await cli('audit', '--since', new Date(Date.now() - 3600_000).toISOString().slice(0, 10));
      expect(res.code, res.stderr).toBe(0);
      const lines = res.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^at\s+actor\s+action\s+subject\s+change$/);
      const roleChanges = lines.filter((l) => /\suser\.role-changed\s/.test(l));
      expect(roleChanges[0]).toMatch(/^\S+Z\s+cli\s+user\.role-changed\s+user \d+\s+.*"user" → "admin"/);
      expect(roleChanges[1]).toMatch(/"admin" → "user"/);
      expect(lines.findIndex((l) => /\suser\.blocked\s/.test(l))).toBeLessThan(lines.findIndex((l) => /\suser\.unblocked\s/.test(l)));
      const future = await cli('audit', '--since', '2999-01-01');
      expect(future.stdout.trim()).toBe('No changes recorded since 2999-01-01T00:00:00.000Z.');
      const wrong = await cli('audit', '--since', 'ayer');
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('--since must be a date');
    });
  });
});

describeOnEachDatabase('command line: generate', (server) => {
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => runCliHere(env, args);
  const count = async (query: ReturnType<typeof sql<{ n: number | string }>>) => Number((await query.execute(server().db.kysely)).rows[0]!.n);

  beforeAll(async () => {
    env = await cliEnv(server());
  });

  it('refuses bad arguments with exit code 2 and the usage', async () => {
    const results = await Promise.all([
      cli('generate', '--videos', '1', '--users', '1'),
      cli('generate', '--videos', '1', '--users', '1', '--views', 'muchas'),
      cli('generate', '--videos', '1', '--users', '1', '--views', '1.5'),
      cli('generate', '--videos', '100001', '--users', '1', '--views', '1'),
      cli('generate', '--videos', '1', '--users', '1', '--views', '1', '--days', '0'),
      cli('generate', '--videos', '1', '--users', '1', '--views', '1', '--viewers', '3'),
      cli('generate', '10', '--videos', '1', '--users', '1', '--views', '1'),
    ]);
    const messages = ['generate needs --views', '--views must be a whole number from 0 to 10000000', '--views must be a whole number',
      '--videos must be a whole number from 0 to 100000', '--days must be a whole number from 1 to 3650', "Unknown option '--viewers'", 'generate takes only options'];
    results.forEach((res, i) => {
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(messages[i]);
      expect(res.stderr).toContain('Usage: npm run cli -- <command>');
    });
    expect(await count(sql`select count(*) as n from videos`)).toBe(0);
  });

  it('says so, with exit code 1, when there is nothing to view', async () => {
    const res = await cli('generate', '--videos', '0', '--users', '0', '--views', '10');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('views and ratings need at least one ready video and one user');
  });

  it('adds ready, visible videos without media, users who cannot sign in, views and ratings; the counters match the views', async () => {
    const existing = await createUser(server(), 'existente', { organizacion: 'TAO' });
    const existingVideo = await addVideo(server(), { titulo: 'Video existente' });
    const res = await cli('generate', '--videos', '6', '--users', '4', '--views', '3000', '--ratings', '12', '--days', '10');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('6 videos: ready and visible, rows only (no media files');
    expect(res.stdout).toContain('4 users without a password (they cannot sign in)');
    expect(res.stdout).toContain('3000 views over the last 10 days, 12 ratings');
    expect(res.stdout).toContain('all 7 ready videos and 5 users');

    const db = server().db.kysely;
    const generated = await db.selectFrom('videos').selectAll().where('id_externo', 'like', 'generated_%').execute();
    expect(generated).toHaveLength(6);
    for (const video of generated) expect(video).toMatchObject({ status: 'ready', is_visible: 1, has_thumbnail: 0, has_preview: 0 });
    const users = await db.selectFrom('users').select(['id', 'username', 'password_hash']).where('id', '<>', existing.id).execute();
    expect(users).toHaveLength(4);
    for (const user of users) {
      expect(user.password_hash).toBeNull();
      const login = await call(server().app, { method: 'POST', url: '/api/login', payload: { user: user.username, password: 'cualquiera' } });
      expect(login.statusCode).toBe(401);
    }
    // the views: the last 10 days, over every ready video and every user (the existing ones too)
    const views = await db.selectFrom('view_events').select(['video_id', 'user_id', 'viewed_at']).execute();
    expect(views).toHaveLength(3000);
    const since = new Date(Date.now() - 10 * 86_400_000 - 60_000).toISOString();
    expect(views.every((v) => v.viewed_at >= since && v.viewed_at <= new Date().toISOString())).toBe(true);
    expect(new Set(views.map((v) => v.video_id))).toEqual(new Set([existingVideo, ...generated.map((v) => v.id)]));
    expect(new Set(views.map((v) => v.user_id))).toEqual(new Set([existing.id, ...users.map((u) => u.id)]));
    // unevenly: the most viewed video has several times the views of the least viewed one
    const perVideo = [...views.reduce((m, v) => m.set(v.video_id, (m.get(v.video_id) ?? 0) + 1), new Map<number, number>()).values()];
    expect(Math.max(...perVideo)).toBeGreaterThan(3 * Math.min(...perVideo));
    expect(await count(sql`select count(*) as n from video_user_states where puntuacion is not null`)).toBe(12);
    expect(await count(sql`select sum(rating_count) as n from videos`)).toBe(12);
    // listed and found by their titles (the search index was refreshed)
    expect(await titles(server(), existing.session, { q: generated[0]!.titulo })).toContain(generated[0]!.titulo);
    expect(await titles(server(), existing.session, { limit: 10 })).toHaveLength(7);
    const counters = await readViewCounters(db);
    expect(counters.videos.reduce((total, [, n]) => total + n, 0)).toBe(3000);
    await rebuildViewCounters(db, server().db.dialect);
    expect(await readViewCounters(db)).toEqual(counters);
  });

  it('with --videos 0 --users 0, adds views to the library there is', async () => {
    const res = await cli('generate', '--videos', '0', '--users', '0', '--views', '500');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('500 views over the last 90 days, 0 ratings');
    expect(await count(sql`select count(*) as n from videos`)).toBe(7);
    expect(await count(sql`select count(*) as n from view_events`)).toBe(3500);
    expect(await count(sql`select sum(view_count) as n from view_counts_hourly`)).toBe(3500);
  });

  it('with --cues, gives each new video that many subtitle cues (R-STAT-11)', async () => {
    const res = await cli('generate', '--videos', '2', '--users', '0', '--views', '0', '--cues', '3', '--seed', '5');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('6 subtitle cues (Spanish, and English for one video in 20)');
    expect(await count(sql`select count(*) as n from video_cues`)).toBe(6);
    expect((await cli('generate', '--videos', '1', '--users', '0', '--views', '0', '--cues', 'tres')).stderr).toContain('--cues must be a whole number from 0 to 10000');
  });
});

describeOnEachDatabase('command line: playable', (server) => {
  let env: NodeJS.ProcessEnv;
  let webm: Buffer;
  let mp4: Buffer;
  const cli = (...args: string[]) => runCliHere(env, args);
  const storage = () => new LocalStorage(server().config.mediaDir);
  const stored = (asset: string) => fs.readFileSync(storage().localPath(asset, 'video.mp4'));

  beforeAll(async () => {
    env = await cliEnv(server());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-cli-playable-'));
    await makeForeignVideo(path.join(dir, 'recording.webm'), 'webm');
    webm = fs.readFileSync(path.join(dir, 'recording.webm'));
    fs.rmSync(dir, { recursive: true, force: true });
    mp4 = await testVideoBytes({ seconds: 2, pattern: 'smptebars', toneHz: 440, width: 320, height: 180 });
  }, 60_000);

  async function videoWithFile(titulo: string, bytes: Buffer): Promise<string> {
    const asset = assetId();
    await addVideo(server(), { titulo, idExterno: asset });
    await storage().write(asset, 'video.mp4', Readable.from([bytes]));
    return asset;
  }

  it('--check lists the videos not every browser plays and changes nothing; without it they are rewritten, the others kept byte for byte', async () => {
    const recording = await videoWithFile('Grabación antigua', webm);
    const ready = await videoWithFile('Ya reproducible', mp4);
    await addVideo(server(), { titulo: 'Sin archivo' });

    const check = await cli('playable', '--check');
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toMatch(/«Grabación antigua»: to be rewritten \(video vp8 yuv420p, sound vorbis, container matroska,webm\)/);
    expect(check.stderr).not.toContain('Ya reproducible');
    expect(check.stdout.trim()).toBe('3 ready videos: 1 already play in every browser, 1 to be rewritten (run without --check to rewrite them), 1 without a stored file.');
    expect(stored(recording).equals(webm)).toBe(true);

    const run = await cli('playable');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/«Grabación antigua»: rewritten \(/);
    expect(run.stdout.trim()).toBe('3 ready videos: 1 already play in every browser, 1 rewritten, 1 without a stored file.');
    const info = await probe(storage().localPath(recording, 'video.mp4'));
    expect([info.formatName.includes('mp4'), info.videoCodec, info.audioCodec]).toEqual([true, 'h264', 'aac']);
    expect(stored(ready).equals(mp4)).toBe(true);

    // A second run finds nothing left to do.
    const again = await cli('playable');
    expect(again.stdout.trim()).toBe('3 ready videos: 2 already play in every browser, 0 rewritten, 1 without a stored file.');
  }, 120_000);

  it('a stored file that is not a video is named, left as it is, and the command ends with exit code 1', async () => {
    const broken = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(4000, 7)]);
    const asset = await videoWithFile('Archivo dañado', broken);
    const res = await cli('playable');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/«Archivo dañado»: not a playable video, left as it is/);
    expect(res.stderr).toContain('1 failed (left as they were)');
    expect(stored(asset).equals(broken)).toBe(true);
  }, 60_000);
});

describeOnEachDatabase('command line: hls', (server) => {
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => runCliHere(env, args);
  const storage = () => new LocalStorage(server().config.mediaDir);
  beforeAll(async () => {
    env = await cliEnv(server());
  });

  it('makes the renditions and storyboard ready videos lack, records them, and a second run makes nothing (R-MED-7)', async () => {
    const asset = assetId();
    const video = await addVideo(server(), { titulo: 'Sin HLS', idExterno: asset });
    await storage().write(asset, 'video.mp4', Readable.from([await testVideoBytes({ seconds: 3, pattern: 'smptebars', toneHz: 440, width: 256, height: 144 })]));
    await addVideo(server(), { titulo: 'Fila generada' });

    const run = await cli('hls');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ffmpeg: \S*ffmpeg \(ffmpeg version /);
    expect(run.stdout).toContain('2 ready videos: 0 had every rendition and a storyboard, 1 renditions and 1 storyboards made, 1 without a stored file.');
    expect(run.stderr).toContain('«Sin HLS»: made hls-144p, storyboard');
    expect(run.stderr).toContain('100 %');
    const row = await server().db.kysely.selectFrom('videos').select(['hls_heights', 'has_storyboard']).where('id', '=', video).executeTakeFirstOrThrow();
    expect(row).toEqual({ hls_heights: '144', has_storyboard: 1 });
    const master = fs.readFileSync(storage().localPath(asset, 'hls-master.m3u8'), 'utf8');
    expect(master).toContain('RESOLUTION=256x144');

    const again = await cli('hls');
    expect(again.stdout).toContain('2 ready videos: 1 had every rendition and a storyboard, 0 renditions and 0 storyboards made, 1 without a stored file.');
  }, 60_000);

  it('goes on from a run stopped after a rendition was stored but before it was recorded (R-MED-7)', async () => {
    const asset = assetId();
    const video = await addVideo(server(), { titulo: 'Interrumpido', idExterno: asset });
    await storage().write(asset, 'video.mp4', Readable.from([await testVideoBytes({ seconds: 3, pattern: 'testsrc', toneHz: 440, width: 256, height: 144 })]));
    await cli('hls');
    // as a run killed before it wrote the master and the row: the rendition's own files remain
    await storage().remove(asset, 'hls-master.m3u8');
    await storage().remove(asset, 'storyboard.vtt');
    await server().db.kysely.updateTable('videos').set({ hls_heights: null, has_storyboard: 0 }).where('id', '=', video).execute();
    const media = fs.statSync(storage().localPath(asset, 'hls-144p.mp4')).mtimeMs;

    const resumed = await cli('hls');
    expect(resumed.stderr).toContain('«Interrumpido»: made storyboard');
    expect(fs.statSync(storage().localPath(asset, 'hls-144p.mp4')).mtimeMs).toBe(media);
    expect(fs.existsSync(storage().localPath(asset, 'hls-master.m3u8'))).toBe(true);
    const row = await server().db.kysely.selectFrom('videos').select(['hls_heights', 'has_storyboard']).where('id', '=', video).executeTakeFirstOrThrow();
    expect(row).toEqual({ hls_heights: '144', has_storyboard: 1 });
  }, 60_000);
});

describeOnEachDatabase('command line: webp-thumbnails', (server) => {
  let env: NodeJS.ProcessEnv;
  let jpeg: Buffer;
  const cli = (...args: string[]) => runCliHere(env, args);
  const storage = () => new LocalStorage(server().config.mediaDir);

  beforeAll(async () => {
    env = await cliEnv(server());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-cli-webp-'));
    const file = path.join(dir, 'thumbnail.jpg');
    await new Promise<void>((resolve, reject) =>
      execFile(mediaTools().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=320x180', '-frames:v', '1', '-c:v', 'mjpeg', file], (error) => (error ? reject(error) : resolve())),
    );
    jpeg = fs.readFileSync(file);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function videoWithThumbnail(titulo: string, files: Record<string, Buffer>): Promise<string> {
    const asset = assetId();
    await addVideo(server(), { titulo, idExterno: asset, hasThumbnail: true });
    for (const [file, bytes] of Object.entries(files)) await storage().write(asset, file, Readable.from([bytes]));
    return asset;
  }

  it('makes the WebP copies the thumbnails stored without them lack, leaves those they have, and a second run finds nothing to do', async () => {
    const old = await videoWithThumbnail('Miniatura antigua', { 'thumbnail.jpg': jpeg });
    const copied = Buffer.from('RIFF\0\0\0\0WEBP already made');
    // stored when WebP copies were made, before the card-sized one was
    const recent = await videoWithThumbnail('Miniatura reciente', { 'thumbnail.jpg': jpeg, 'thumbnail.webp': copied });
    const small = Buffer.from('RIFF\0\0\0\0WEBP small, already made');
    const newest = await videoWithThumbnail('Miniatura nueva', { 'thumbnail.jpg': jpeg, 'thumbnail.webp': copied, [THUMBNAIL_SMALL_WEBP]: small });
    await videoWithThumbnail('Fila generada', {});
    await addVideo(server(), { titulo: 'Sin miniatura' });

    const run = await cli('webp-thumbnails');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('4 thumbnails: 3 WebP copies made, 1 had them, 1 without a stored file.');
    const made = fs.readFileSync(storage().localPath(old, 'thumbnail.webp'));
    expect(made.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect((await probe(storage().localPath(old, 'thumbnail.webp'))).width).toBe(320);
    expect((await probe(storage().localPath(old, THUMBNAIL_SMALL_WEBP))).width).toBe(320);
    expect(fs.readFileSync(storage().localPath(recent, 'thumbnail.webp')).equals(copied)).toBe(true);
    expect(fs.readFileSync(storage().localPath(recent, THUMBNAIL_SMALL_WEBP)).subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(fs.readFileSync(storage().localPath(newest, THUMBNAIL_SMALL_WEBP)).equals(small)).toBe(true);

    const again = await cli('webp-thumbnails');
    expect(again.stdout.trim()).toBe('4 thumbnails: 0 WebP copies made, 3 had them, 1 without a stored file.');
  }, 60_000);

  it('a thumbnail ffmpeg cannot read is named, keeps its JPEG, and the command ends with exit code 1', async () => {
    const broken = await videoWithThumbnail('Miniatura dañada', { 'thumbnail.jpg': Buffer.alloc(500, 7) });
    const res = await cli('webp-thumbnails');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/«Miniatura dañada»: no WebP copy made, its JPEG is served/);
    expect(await storage().stat(broken, 'thumbnail.webp')).toBeUndefined();
    expect(await storage().stat(broken, THUMBNAIL_SMALL_WEBP)).toBeUndefined();
    expect(fs.readFileSync(storage().localPath(broken, 'thumbnail.jpg')).equals(Buffer.alloc(500, 7))).toBe(true);
  }, 60_000);
});
