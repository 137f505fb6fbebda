import crypto from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { loadContract, type OperationSpec } from './openapi/contract.ts';
import { passwordLogin, register } from './modules/accounts/login.service.ts';
import type { ProblemType } from './plugins/problems.ts';
import { streamUrl } from './media/signed-urls.ts';
import { authenticatorOf, freshCode, wrongCode } from '../tests/utils/accounts.ts';
import { describeOnEachDatabase, type TestServer } from '../tests/utils/server-harness.ts';
import { securityRefusal, type Refusal } from '../tests/utils/security-rules.ts';
import { buildSecurityWorld, CALLERS, newAsset, PNG, type CallerName, type SecurityWorld } from '../tests/utils/security-world.ts';

/**
 * The authorization matrix: every operation of openapi.yaml × every kind of caller → the status and
 * problem type expected. The common cases follow from each operation's `security` in the contract
 * (`securityRefusal`, tests/utils/security-rules.ts); the table below, keyed by operationId,
 * gives each operation's calls (real rows, valid bodies, so that the only reason to refuse is who
 * calls) and where the answer is not the rule's: rows a user of another organisation may not see,
 * administrators' fields, public locations whose signature is their credential. An operation of the
 * contract without an entry fails the first test.
 */

const contract = loadContract();
const CATALOGUE = new Set((contract.document as { components: { schemas: { ProblemType: { enum: string[] } } } }).components.schemas.ProblemType.enum);

const SSO = { secret: 'the-identity-source-shared-secret-for-the-matrix', issuer: 'https://idp.example.org', audience: 'tao' };

/** What a caller gets: refused with a problem, or let through (the row's success status). */
type Outcome = Refusal | 'allowed';

interface Request {
  url: string;
  payload?: string | Buffer;
  /** merged over the caller's headers (a content type; a fresh pending token) */
  headers?: Record<string, string>;
}

interface MatrixRow {
  /** what the call is about */
  row: string;
  /** `allowed`: the caller passes the operation's security (a destructive call then gets a fresh row) */
  request(world: SecurityWorld, call: { caller: CallerName; allowed: boolean }): Request | Promise<Request>;
  /** the status of a caller let through; default: the operation's lowest documented 2xx */
  success?: number;
  /** the answer to every caller the operation's security lets through (a public location's own credential) */
  all?: Refusal;
  /** answers that differ from the rule for these callers */
  callers?: Partial<Record<CallerName, Outcome>>;
}

// ── the table ─────────────────────────────────────────────────────────────────────────────────────

const refusal = (status: number, type: ProblemType): Refusal => ({ status, type });
const json = (url: string, body: unknown, contentType = 'application/json'): Request => ({ url, payload: JSON.stringify(body), headers: { 'content-type': contentType } });
const replace = (url: string, operations: Array<{ path: string; value: unknown }>) =>
  json(url, operations.map((o) => ({ op: 'replace', ...o })), 'application/json-patch+json');
const unique = () => crypto.randomBytes(3).toString('hex');
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const aMinuteAgo = () => Math.floor(Date.now() / 1000) - 60;
/** The same signed location with one character of its signature changed. */
const tampered = (location: string) => location.replace(/signature=(.)/, (_all, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`);
/** The same streaming location with one character of its path signature changed. */
const tamperedPrefix = (location: string) => location.replace(/\/s\/(\d+)\/(.)/, (_all, expires: string, c: string) => `/s/${expires}/${c === 'A' ? 'B' : 'A'}`);
const mediaPath = (asset: string, file: string) => `/api/media/${asset}/${file}`;

function ssoToken(claims: JWTPayload, options: { key?: string; exp?: number } = {}) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(SSO.issuer)
    .setAudience(SSO.audience)
    .setIssuedAt()
    .setExpirationTime(options.exp ?? inAnHour())
    .sign(new TextEncoder().encode(options.key ?? SSO.secret));
}

/** Built once per server (beforeAll): an invitation already used. */
let usedInvitation: { id: number; token: string };

const MATRIX: Record<string, MatrixRow[]> = {
  getHealth: [{ row: 'the server', request: () => ({ url: '/api/health' }) }],

  login: [
    { row: 'the password of a real account', request: (w) => json('/api/login', { user: w.accounts.login.user, password: w.accounts.login.password }) },
    {
      row: 'a wrong password (a name of no account, one per caller: no lockout)',
      request: (_w, { caller }) => json('/api/login', { user: `nadie-${caller}`, password: 'not-the-password' }),
      all: refusal(401, 'wrong-password'),
    },
    {
      row: 'the right password of a blocked account',
      request: (w) => json('/api/login', { user: w.accounts.blocked.user, password: w.accounts.blocked.password }),
      all: refusal(403, 'blocked-user'),
    },
    { row: 'a single sign-on token of the identity source', request: async () => json('/api/login', { taoToken: await ssoToken({ user: 'sso.matriz', organizacion: 'Sur' }) }) },
    {
      row: 'an expired single sign-on token',
      request: async () => json('/api/login', { taoToken: await ssoToken({ user: 'sso.matriz' }, { exp: aMinuteAgo() }) }),
      all: refusal(401, 'tao-token expired'),
    },
    {
      row: 'a single sign-on token signed with another key',
      request: async () => json('/api/login', { taoToken: await ssoToken({ user: 'sso.matriz' }, { key: 'not-the-identity-source-secret-0123456789' }) }),
      all: refusal(401, 'invalid-signature'),
    },
    {
      row: 'an unsigned (alg none) single sign-on token',
      request: () => {
        const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
        return json('/api/login', { taoToken: `${part({ alg: 'none' })}.${part({ user: 'sso.matriz', iss: SSO.issuer, aud: SSO.audience, exp: inAnHour() })}.` });
      },
      all: refusal(401, 'invalid'),
    },
  ],

  mfa: [
    {
      row: 'the code of the pending sign-in (a fresh sign-in for the caller let through)',
      request: async (w, { allowed }) => {
        if (!allowed) return json('/api/mfa', { user: w.accounts.mfa.user, mfaCode: '123456' });
        const pending = await passwordLogin(w.server.app.ctx, w.accounts.mfa.user, w.accounts.mfa.password);
        const code = await freshCode(authenticatorOf(pending.otp.uri!), null);
        return { ...json('/api/mfa', { user: w.accounts.mfa.user, mfaCode: code }), headers: { 'content-type': 'application/json', authorization: `Bearer ${pending.token}` } };
      },
    },
    {
      row: 'a wrong code for the pending sign-in',
      request: (w) => json('/api/mfa', { user: w.accounts.login.user, mfaCode: wrongCode(authenticatorOf(w.pendingUri)) }),
      callers: { mfaPending: refusal(401, 'invalid-mfa-token') },
    },
  ],

  register: [
    {
      row: 'a fresh invitation (one per caller)',
      request: async (w, { caller }) => json('/api/register', { user: `reg-${caller}-${unique()}`, password: 'a-new-password-1', token: (await w.fresh.invitation()).token }),
    },
    { row: 'an invitation already used', request: (_w, { caller }) => json('/api/register', { user: `reg-${caller}`, password: 'a-new-password-1', token: usedInvitation.token }), all: refusal(410, 'register-invitation-was-used') },
    {
      row: 'an expired invitation',
      request: async (w, { caller }) => json('/api/register', { user: `reg-${caller}`, password: 'a-new-password-1', token: (await w.fresh.invitation({ expired: true })).token }),
      all: refusal(410, 'register-invitation-expired'),
    },
    { row: 'a token no invitation has', request: (_w, { caller }) => json('/api/register', { user: `reg-${caller}`, password: 'a-new-password-1', token: 'no-such-invitation-token' }), all: refusal(404, 'resource-not-found') },
  ],

  getMe: [{ row: 'the caller', request: () => ({ url: '/api/me' }) }],

  logout: [
    {
      // Signing out ends the session it is sent with: a caller let through signs out another session of theirs.
      row: "the caller's session (another of theirs for each caller let through)",
      request: async (w, { caller, allowed }) =>
        allowed && (caller === 'admin' || caller === 'user' || caller === 'otherOrganisationUser')
          ? { url: '/api/logout', headers: { authorization: `Bearer ${await w.fresh.session(caller)}` } }
          : { url: '/api/logout' },
    },
  ],

  listVideos: [{ row: 'the library', request: () => ({ url: '/api/videos' }) }],

  createVideo: [
    {
      row: 'a processed upload (a fresh one for each caller let through)',
      request: async (w, { allowed }) =>
        json('/api/videos', { isVisible: true, titulo: 'Creado por la matriz', descripcionCorta: 'Un resumen corto', tags: [w.tagId], idExterno: allowed ? await w.fresh.readyUpload() : newAsset() }),
    },
  ],

  getVideo: [
    { row: 'a visible video', request: (w) => ({ url: `/api/videos/${w.visibleVideo.id}` }) },
    {
      row: "an invisible video of the user's organisation",
      request: (w) => ({ url: `/api/videos/${w.invisibleVideo.id}` }),
      callers: { otherOrganisationUser: refusal(404, 'resource-not-found') },
    },
  ],

  patchVideo: [
    { row: "a visible video: the caller's own favourite", request: (w) => replace(`/api/videos/${w.visibleVideo.id}`, [{ path: '/favorito', value: true }]) },
    {
      row: "an invisible video of the user's organisation: the caller's own rating",
      request: (w) => replace(`/api/videos/${w.invisibleVideo.id}`, [{ path: '/puntuacion', value: 4 }]),
      callers: { otherOrganisationUser: refusal(404, 'resource-not-found') },
    },
    {
      row: 'a visible video: its title (an administrator\'s field)',
      request: (w) => replace(`/api/videos/${w.visibleVideo.id}`, [{ path: '/titulo', value: 'Título cambiado por la matriz' }]),
      callers: { user: refusal(403, 'unauthorized-role'), otherOrganisationUser: refusal(403, 'unauthorized-role') },
    },
    {
      row: "an invisible video: its visibility (an administrator's field)",
      request: (w) => replace(`/api/videos/${w.invisibleVideo.id}`, [{ path: '/isVisible', value: false }]),
      callers: { user: refusal(403, 'unauthorized-role'), otherOrganisationUser: refusal(403, 'unauthorized-role') },
    },
  ],

  deleteVideo: [
    {
      row: 'a visible video (a fresh one for each caller let through)',
      request: async (w, { allowed }) => ({ url: `/api/videos/${allowed ? (await w.fresh.video()).id : w.visibleVideo.id}` }),
    },
    {
      row: 'an invisible video (a fresh one for each caller let through)',
      request: async (w, { allowed }) => ({ url: `/api/videos/${allowed ? (await w.fresh.video({ isVisible: false })).id : w.invisibleVideo.id}` }),
    },
  ],

  patchVideos: [
    {
      row: "a visible and an invisible video: a tag added, the visibility set (administrators' fields; fresh videos for each caller let through)",
      request: async (w, { allowed }) => {
        const ids = allowed ? [(await w.fresh.video()).id, (await w.fresh.video({ isVisible: false })).id] : [w.visibleVideo.id, w.invisibleVideo.id];
        return json('/api/videos', { ids, operaciones: [{ op: 'add', path: '/etiquetas/-', value: w.tagId }, { op: 'replace', path: '/isVisible', value: true }] });
      },
    },
  ],

  deleteVideos: [
    {
      row: 'two videos, one invisible (fresh ones for each caller let through)',
      request: async (w, { allowed }) => {
        const ids = allowed ? [(await w.fresh.video()).id, (await w.fresh.video({ isVisible: false })).id] : [w.visibleVideo.id, w.invisibleVideo.id];
        return { url: `/api/videos?ids=${ids.join(',')}` };
      },
    },
  ],

  replaceVideoFile: [
    {
      row: 'a visible video and a processed upload (fresh ones for each caller let through)',
      request: async (w, { allowed }) =>
        allowed ? json(`/api/videos/${(await w.fresh.video()).id}/archivo`, { idExterno: await w.fresh.readyUpload() }) : json(`/api/videos/${w.visibleVideo.id}/archivo`, { idExterno: newAsset() }),
    },
  ],

  createUpload: [{ row: 'a new upload session', request: () => json('/api/uploads', { video: { contentType: 'video/mp4', size: 4096 } }) }],

  getUpload: [{ row: 'an upload session', request: (w) => ({ url: `/api/uploads/${w.upload.asset}` }) }],

  discardUpload: [
    {
      row: 'a processed upload no video was made of (a fresh one for each caller let through)',
      request: async (w, { allowed }) => ({ url: `/api/uploads/${allowed ? await w.fresh.readyUpload() : w.upload.asset}` }),
    },
  ],

  putUploadFile: [
    { row: 'a thumbnail sent to its signed location', request: (w) => ({ url: w.upload.thumbnail, payload: PNG, headers: { 'content-type': 'image/png' } }), success: 204 },
    {
      row: "the video's received size asked at its signed location (Content-Range: bytes */4096, no body)",
      request: (w) => ({ url: w.upload.video, headers: { 'content-range': 'bytes */4096' } }),
      success: 202,
    },
    {
      row: 'a location whose signature was tampered with',
      request: (w) => ({ url: tampered(w.upload.thumbnail), payload: PNG, headers: { 'content-type': 'image/png' } }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: 'a location that expired a minute ago (genuinely signed)',
      request: (w) => ({ url: w.sign('PUT', `/api/uploads/${w.upload.asset}/thumbnail`, aMinuteAgo()), payload: PNG, headers: { 'content-type': 'image/png' } }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: "the video's signature on the thumbnail's path",
      request: (w) => ({ url: w.upload.video.replace('/video?', '/thumbnail?'), payload: PNG, headers: { 'content-type': 'image/png' } }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: 'a location signed for GET',
      request: (w) => ({ url: w.sign('GET', `/api/uploads/${w.upload.asset}/thumbnail`, inAnHour()), payload: PNG, headers: { 'content-type': 'image/png' } }),
      all: refusal(403, 'invalid-signature'),
    },
  ],

  getMedia: [
    { row: "a visible video's thumbnail at its signed location", request: (w) => ({ url: w.sign('GET', mediaPath(w.visibleVideo.asset, 'thumbnail.jpg'), inAnHour()) }) },
    {
      row: "an invisible video's file at its signed location (the location is the credential; who gets one is the next test's)",
      request: (w) => ({ url: w.sign('GET', mediaPath(w.invisibleVideo.asset, 'video.mp4'), inAnHour()) }),
    },
    {
      row: 'a location whose signature was tampered with',
      request: (w) => ({ url: tampered(w.sign('GET', mediaPath(w.visibleVideo.asset, 'video.mp4'), inAnHour())) }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: 'a location that expired a minute ago (genuinely signed)',
      request: (w) => ({ url: w.sign('GET', mediaPath(w.visibleVideo.asset, 'video.mp4'), aMinuteAgo()) }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: "a visible video's signature on the invisible video's path",
      request: (w) => ({
        url: w.sign('GET', mediaPath(w.visibleVideo.asset, 'video.mp4'), inAnHour()).replace(w.visibleVideo.asset, w.invisibleVideo.asset),
      }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: 'a location signed for PUT',
      request: (w) => ({ url: w.sign('PUT', mediaPath(w.visibleVideo.asset, 'video.mp4'), inAnHour()) }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: 'a genuine location of a file that does not exist',
      request: (w) => ({ url: w.sign('GET', mediaPath(newAsset(), 'video.mp4'), inAnHour()) }),
      all: refusal(404, 'resource-not-found'),
    },
  ],

  getStreamFile: [
    { row: "a visible video's master playlist under its signed prefix", request: (w) => ({ url: streamUrl(w.urlKey, w.visibleVideo.asset, 'hls-master.m3u8') }) },
    {
      row: "an invisible video's playlist under its signed prefix (the prefix is the credential)",
      request: (w) => ({ url: streamUrl(w.urlKey, w.invisibleVideo.asset, 'hls-master.m3u8') }),
    },
    {
      row: 'a prefix whose signature was tampered with',
      request: (w) => ({ url: tamperedPrefix(streamUrl(w.urlKey, w.visibleVideo.asset, 'hls-master.m3u8')) }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: 'a prefix that expired (genuinely signed)',
      request: (w) => ({ url: streamUrl(w.urlKey, w.visibleVideo.asset, 'hls-master.m3u8', Date.now() - 14 * 3600_000) }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: "a visible video's prefix on the invisible video's path",
      request: (w) => ({ url: streamUrl(w.urlKey, w.visibleVideo.asset, 'hls-master.m3u8').replace(w.visibleVideo.asset, w.invisibleVideo.asset) }),
      all: refusal(403, 'invalid-signature'),
    },
    {
      row: 'a genuine prefix of a file that does not exist',
      request: (w) => ({ url: streamUrl(w.urlKey, w.visibleVideo.asset, 'hls-720p.mp4') }),
      all: refusal(404, 'resource-not-found'),
    },
  ],

  listEtiquetas: [{ row: 'the tags', request: () => ({ url: '/api/etiquetas' }) }],
  createEtiqueta: [{ row: 'a new tag name', request: () => json('/api/etiquetas', { nombre: `Nueva ${unique()}` }) }],
  patchEtiqueta: [{ row: 'a tag, renamed to its own name', request: (w) => replace(`/api/etiquetas/${w.tagId}`, [{ path: '/nombre', value: 'Etiqueta matriz' }]) }],
  deleteEtiqueta: [
    { row: 'a tag (a fresh one for each caller let through)', request: async (w, { allowed }) => ({ url: `/api/etiquetas/${allowed ? await w.fresh.tag() : w.tagId}` }) },
  ],

  listUsuarios: [{ row: 'the users', request: () => ({ url: '/api/usuarios' }) }],
  patchUsuario: [
    { row: 'another user, unblocked (as they are)', request: (w) => replace(`/api/usuarios/${w.ids.target}`, [{ path: '/bloqueado', value: false }]) },
    {
      row: "the administrator's own account, demoted",
      request: (w) => replace(`/api/usuarios/${w.ids.admin}`, [{ path: '/rol', value: 'user' }]),
      callers: { admin: refusal(409, 'conflict') },
    },
  ],

  listInvitations: [{ row: 'the invitations', request: () => ({ url: '/api/register-invitations' }) }],
  createInvitation: [{ row: 'a new address', request: () => json('/api/register-invitations', { email: `matriz-${unique()}@example.org`, rol: 'user' }) }],
  deleteInvitation: [
    {
      row: 'an unused invitation (a fresh one for each caller let through)',
      request: async (w, { allowed }) => ({ url: `/api/register-invitations/${allowed ? (await w.fresh.invitation()).id : w.invitationId}` }),
    },
    { row: 'an invitation already used', request: () => ({ url: `/api/register-invitations/${usedInvitation.id}` }), callers: { admin: refusal(409, 'conflict') } },
  ],

  getStatistics: [
    { row: 'the info boxes', request: () => ({ url: '/api/statistics?option=infoBox' }) },
    { row: 'a table page', request: () => ({ url: '/api/statistics?option=infoTable&table=uma&limit=5' }) },
  ],
  listAudit: [{ row: 'the audit log', request: () => ({ url: '/api/audit' }) }],
};

// ── the test ──────────────────────────────────────────────────────────────────────────────────────

function successOf(op: OperationSpec, row: MatrixRow): number {
  if (row.success !== undefined) return row.success;
  const statuses = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s)).map(Number).sort();
  if (statuses.length === 0) throw new Error(`${op.operationId} documents no 2xx answer`);
  return statuses[0]!;
}

function expectedOutcome(op: OperationSpec, row: MatrixRow, caller: CallerName): Outcome {
  return securityRefusal(op, caller) ?? row.callers?.[caller] ?? row.all ?? 'allowed';
}

const show = (o: Outcome | { status: number; type?: unknown }) => (o === 'allowed' ? 'allowed' : `${o.status} ${String(o.type ?? '')}`.trim());

describe('the authorization matrix covers the contract', () => {
  it('every operation of openapi.yaml has rows, and every row is of an operation', () => {
    const ids = contract.operations.map((op) => op.operationId);
    expect(ids.filter((id) => !(id in MATRIX) || MATRIX[id]!.length === 0), 'operations without matrix rows').toEqual([]);
    expect(Object.keys(MATRIX).filter((id) => !ids.includes(id)), 'matrix rows of operations the contract lacks').toEqual([]);
  });
});

describeOnEachDatabase(
  'authorization matrix: every operation × every caller',
  () => ({ SSO_HS256_SECRET: SSO.secret, SSO_ISSUER: SSO.issuer, SSO_AUDIENCE: SSO.audience }),
  (server: () => TestServer) => {
    let world: SecurityWorld;

    beforeAll(async () => {
      world = await buildSecurityWorld(server());
      const invitation = await world.fresh.invitation();
      await register(server().app.ctx, { user: 'matriz-registrada', password: 'a-new-password-1', token: invitation.token });
      usedInvitation = invitation;
    });

    for (const op of contract.operations) {
      for (const row of MATRIX[op.operationId] ?? []) {
        it(`${op.operationId} (${op.method} ${op.path}) — ${row.row}`, async () => {
          const mismatches: string[] = [];
          for (const caller of CALLERS) {
            const expected = expectedOutcome(op, row, caller);
            const request = await row.request(world, { caller, allowed: securityRefusal(op, caller) === undefined });
            const options: InjectOptions = {
              method: op.method,
              url: request.url,
              headers: { ...world.headers(caller), ...request.headers },
              ...(request.payload !== undefined ? { payload: request.payload } : {}),
            };
            const res = await server().app.inject(options);
            const answer = `${res.statusCode} ${res.body.slice(0, 200)}`;
            // listed by the operation itself, not only covered by its `default`
            if (!(String(res.statusCode) in op.responses)) mismatches.push(`${caller}: ${res.statusCode} is not one of the statuses ${op.operationId} lists`);
            if (expected === 'allowed') {
              const success = successOf(op, row);
              if (res.statusCode !== success || res.statusCode === 401 || res.statusCode === 403) mismatches.push(`${caller}: expected ${success}, got ${answer}`);
              continue;
            }
            const problem = String(res.headers['content-type']).startsWith('application/problem+json') ? (res.json() as { type?: string; status?: number }) : undefined;
            if (!problem) {
              mismatches.push(`${caller}: expected a ${show(expected)} problem, got ${res.headers['content-type']} ${answer}`);
              continue;
            }
            if (res.statusCode !== expected.status || problem.type !== expected.type || problem.status !== res.statusCode || !CATALOGUE.has(String(problem.type))) {
              mismatches.push(`${caller}: expected ${show(expected)}, got ${show({ status: res.statusCode, type: problem.type })}`);
            }
          }
          expect(mismatches, `${op.operationId}: ${row.row}`).toEqual([]);
        });
      }
    }

    it('a user of another organisation is never given an invisible video, nor its signed media locations', async () => {
      const { asset, id } = world.invisibleVideo;
      const seen = async (caller: CallerName) => {
        const list = await server().app.inject({ method: 'GET', url: '/api/videos?limit=500', headers: world.headers(caller) });
        const detail = await server().app.inject({ method: 'GET', url: `/api/videos/${id}`, headers: world.headers(caller) });
        expect(list.statusCode).toBe(200);
        return { list: list.body.includes(asset), detail: detail.statusCode === 200 && detail.body.includes(asset), search: (await searchFor(caller)).includes(asset) };
      };
      const searchFor = async (caller: CallerName) =>
        (await server().app.inject({ method: 'GET', url: `/api/videos?q=${encodeURIComponent('matriz')}&limit=500`, headers: world.headers(caller) })).body;
      expect(await seen('otherOrganisationUser')).toEqual({ list: false, detail: false, search: false });
      // the same question shows it to those who may see it, so the answer above is not vacuous
      expect(await seen('user')).toEqual({ list: true, detail: true, search: true });
      expect(await seen('admin')).toEqual({ list: true, detail: true, search: true });
    });
  },
);
