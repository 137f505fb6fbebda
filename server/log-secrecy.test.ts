import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootDir } from './config.ts';
import { generateTestVideo } from './media/ffmpeg.ts';
import { authenticatorOf, freshCode, wrongCode } from '../tests/utils/accounts.ts';

/**
 * What the server logs never holds a secret: the real server (server/main.ts, its own logger
 * configuration) runs at the most verbose level pino has (trace) while a whole flow goes through it
 * over HTTP: the first administrator's registration from the printed link, second factors, an
 * invitation opened and used, sign-ins right and wrong, single sign-on, an upload to signed
 * locations, the video made from it and its media fetched (and a tampered location). Then every
 * password, TOTP code and secret, session, pending and single-sign-on token, invitation token, URL
 * signature, XSRF token and server key of the flow is looked for in everything it wrote.
 */

const TOKEN_SECRET = `token-secret-${crypto.randomBytes(24).toString('hex')}`;
const URL_SIGNING_SECRET = `url-secret-${crypto.randomBytes(24).toString('hex')}`;
const SSO_SECRET = `sso-secret-${crypto.randomBytes(24).toString('hex')}`;

describe('the server log holds no password, code, token or signature', () => {
  let work: string;
  let child: ChildProcess;
  let stdout = '';
  let stderr = '';
  let base = '';
  /** every secret the flow handled, with what it is */
  const secrets: Array<{ what: string; value: string }> = [];
  const keep = (what: string, value: string) => {
    expect(value.length, what).toBeGreaterThan(0);
    secrets.push({ what, value });
    return value;
  };
  let xsrf = '';
  const asset = { id: '', video: '' };

  async function api(method: string, url: string, options: { token?: string; body?: unknown; raw?: Buffer; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${url}`, { method, headers, body: options.raw ? new Uint8Array(options.raw) : options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  }

  /** The signature of a signed location (kept as a secret). */
  const signatureOf = (what: string, location: string) => keep(what, new URL(location, 'http://x').searchParams.get('signature') ?? '');

  async function secondFactor(pending: { token: string; otp: { user: string; uri?: string } }, what: string, previousUri?: string) {
    keep(`${what}: pending token`, pending.token);
    const uri = pending.otp.uri ?? previousUri!;
    const totp = authenticatorOf(uri);
    keep(`${what}: TOTP secret`, totp.secret.base32);
    const wrong = keep(`${what}: a wrong code`, wrongCode(totp));
    expect((await api('POST', '/api/mfa', { token: pending.token, body: { user: pending.otp.user, mfaCode: wrong } })).status).toBe(401);
    const code = keep(`${what}: the code`, await freshCode(totp, previousUri ? totp.counter() : null));
    const res = await api('POST', '/api/mfa', { token: pending.token, body: { user: pending.otp.user, mfaCode: code } });
    expect(res.status, res.text).toBe(200);
    return { session: keep(`${what}: session token`, String(res.json().token)), uri };
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-log-secrecy-'));
    const videoFile = path.join(work, 'video.mp4');
    const generated = generateTestVideo(videoFile, { seconds: 1, pattern: 'testsrc2', toneHz: 440, width: 160, height: 96 });

    child = spawn(path.join(rootDir, 'node_modules/.bin/tsx'), [path.join(rootDir, 'server/main.ts')], {
      cwd: rootDir,
      env: {
        ...process.env,
        DATA_DIR: path.join(work, 'data'),
        CLIENT_DIR: path.join(work, 'no-client'),
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'trace',
        TOKEN_SECRET,
        URL_SIGNING_SECRET,
        SSO_HS256_SECRET: SSO_SECRET,
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    for (const deadline = Date.now() + 60_000; !/invitation=/.test(stdout); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the server did not start:\n${stdout}\n${stderr}`);
    }
    base = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)![1]!;
    const firstLink = /(\S+\/register\?invitation=\S+)/.exec(stdout)![1]!;
    const firstToken = keep('first administrator invitation token', decodeURIComponent(new URL(firstLink).searchParams.get('invitation')!));

    // the browser gets its XSRF cookie, then opens the printed link (the SPA's page: logged like any request)
    const health = await fetch(`${base}/api/health`);
    xsrf = keep('XSRF token', /XSRF-TOKEN=([^;]+)/.exec(health.headers.getSetCookie().join('\n'))![1]!);
    await fetch(`${base}${new URL(firstLink).pathname}${new URL(firstLink).search}`);

    const adminPassword = keep('administrator password', `Contraseña-admin-${crypto.randomBytes(6).toString('hex')}`);
    const registered = await api('POST', '/api/register', { body: { user: 'jefa', password: adminPassword, token: firstToken } });
    expect(registered.status, registered.text).toBe(200);
    const admin = await secondFactor(registered.json() as never, 'administrator registration');

    const invited = await api('POST', '/api/register-invitations', { token: admin.session, body: { email: 'ana@example.org', rol: 'user' } });
    expect(invited.status, invited.text).toBe(201);
    const invitation = invited.json() as { token: string; link: string };
    keep('invitation token', invitation.token);
    await fetch(`${base}${new URL(invitation.link).pathname}${new URL(invitation.link).search}`);
    const userPassword = keep('user password', `clave secreta ${crypto.randomBytes(6).toString('hex')}`);
    const userRegistered = await api('POST', '/api/register', { body: { user: 'ana', password: userPassword, token: invitation.token } });
    expect(userRegistered.status, userRegistered.text).toBe(200);
    const user = await secondFactor(userRegistered.json() as never, 'user registration');

    const wrongPassword = keep('a mistyped password', `${userPassword}x`);
    expect((await api('POST', '/api/login', { body: { user: 'ana', password: wrongPassword } })).status).toBe(401);
    const signIn = await api('POST', '/api/login', { body: { user: 'ana', password: userPassword } });
    expect(signIn.status, signIn.text).toBe(200);
    await secondFactor(signIn.json() as never, 'user sign-in', user.uri);

    const taoToken = keep(
      'single sign-on token',
      await new SignJWT({ user: 'sso.bea', organizacion: 'Archivo' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(SSO_SECRET)),
    );
    // the portal's link as the browser opens it: the page /videos?xwikiid=<token> (SPEC.md "Single sign-on"), then the app's call
    await api('GET', `/videos?xwikiid=${taoToken}`);
    const sso = await api('POST', '/api/login', { body: { taoToken } });
    expect(sso.status, sso.text).toBe(200);
    keep('single sign-on session token', String(sso.json().token));

    // an upload to signed locations, processed into a video whose media is fetched
    await generated;
    const upload = await api('POST', '/api/uploads', { token: admin.session, body: {} });
    expect(upload.status, upload.text).toBe(201);
    const session = upload.json() as { assetId: string; video: { uploadUrl: string }; thumbnail: { uploadUrl: string } };
    asset.id = session.assetId;
    signatureOf('video upload signature', session.video.uploadUrl);
    signatureOf('thumbnail upload signature', session.thumbnail.uploadUrl);
    // a 1×1 PNG
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const thumbnail = await api('PUT', session.thumbnail.uploadUrl, { raw: png, headers: { 'content-type': 'image/png' } });
    expect(thumbnail.status, thumbnail.text).toBe(204);
    const video = fs.readFileSync(videoFile);
    const first = await api('PUT', session.video.uploadUrl, { raw: video.subarray(0, 1000), headers: { 'content-type': 'video/mp4', 'content-range': `bytes 0-999/${video.length}` } });
    expect(first.status, first.text).toBe(202);
    const rest = await api('PUT', session.video.uploadUrl, { raw: video.subarray(1000), headers: { 'content-type': 'video/mp4', 'content-range': `bytes 1000-${video.length - 1}/${video.length}` } });
    expect(rest.status, rest.text).toBe(204);
    for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
      const state = (await api('GET', `/api/uploads/${asset.id}`, { token: admin.session })).json();
      if (state.estado === 'ready') break;
      if (state.estado === 'failed' || Date.now() > deadline) throw new Error(`the upload was not processed: ${JSON.stringify(state)}`);
    }
    const created = await api('POST', '/api/videos', { token: admin.session, body: { isVisible: true, titulo: 'Vídeo del registro', descripcionCorta: 'Para mirar el registro', tags: [], idExterno: asset.id } });
    expect(created.status, created.text).toBe(201);
    const detail = await api('GET', `/api/videos/${String(created.json().id)}`, { token: user.session });
    const { urlVideo, urlThumbnail } = detail.json() as { urlVideo: string; urlThumbnail: string };
    asset.video = new URL(urlVideo, 'http://x').pathname;
    signatureOf('video media signature', urlVideo);
    signatureOf('thumbnail media signature', urlThumbnail);
    expect((await api('GET', urlVideo, { headers: { range: 'bytes=0-99' } })).status).toBe(206);
    expect((await api('GET', urlThumbnail)).status).toBe(200);
    const tampered = urlVideo.replace(/signature=(.)/, (_all, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`);
    signatureOf('a tampered media signature', tampered);
    expect((await api('GET', tampered)).status).toBe(403);
    expect((await api('GET', '/api/me', { token: user.session })).status).toBe(200);
    expect((await api('GET', '/api/me', { token: `${user.session}x` })).status).toBe(401);

    keep('token signing key', TOKEN_SECRET);
    keep('URL signing key', URL_SIGNING_SECRET);
    keep('single sign-on key', SSO_SECRET);

    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }, 120_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** The log records (pino's JSON lines); the start banner, the one text that is not a record, is the operator's. */
  const records = () => stdout.split('\n').filter((line) => line.startsWith('{'));

  it('logged the flow: the requests, their paths and the refusals (so the search below is not vacuous)', () => {
    const log = records().join('\n');
    // at trace, pino's most verbose level: whatever the server logs at any level is searched below;
    // each request of the flow is one line (server/logging.ts, OneLinePerRequest)
    expect(records().filter((line) => line.includes('"msg":"request completed"')).length).toBeGreaterThan(25);
    for (const url of ['/api/register', '/api/mfa', '/api/login', '/register?invitation=[redacted]', `/api/uploads/${asset.id}/video?expires=`, `${asset.video}?expires=`, 'signature=[redacted]']) {
      expect(log).toContain(url);
    }
    expect(log).toContain('request refused');
    expect(stderr).toBe('');
  });

  it('no password, code, TOTP secret, token, invitation, signature or key appears in the log', () => {
    const log = records().join('\n');
    const found = secrets.filter(({ value }) =>
      /^\d{6}$/.test(value) ? new RegExp(`(?<![0-9])${value}(?![0-9])`).test(log) : log.includes(value) || log.includes(encodeURIComponent(value)),
    );
    expect(found.map((f) => f.what)).toEqual([]);
  });

  it('the first administrator\'s link is printed only in the start banner, for the operator', () => {
    const outside = stdout.split('\n').filter((line) => !line.startsWith('{') && line.includes('invitation='));
    expect(outside).toHaveLength(1);
    expect(outside[0]).toMatch(/^\s+http:\/\/\S+\/register\?invitation=/);
  });
});
