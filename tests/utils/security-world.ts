import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { now } from '../../server/db/database.ts';
import { findUserById, insertUser } from '../../server/modules/accounts/accounts.repository.ts';
import { createInvitation } from '../../server/modules/accounts/invitations.service.ts';
import { hashPassword } from '../../server/modules/accounts/passwords.ts';
import { changeUser } from '../../server/modules/accounts/users.service.ts';
import { passwordLogin, sessionTokenFor } from '../../server/modules/accounts/login.service.ts';
import { issueSessionToken } from '../../server/modules/accounts/tokens.ts';
import { ensureTags } from '../../server/modules/etiquetas/etiquetas.repository.ts';
import { insertUpload } from '../../server/modules/uploads/uploads.repository.ts';
import { insertVideo } from '../../server/modules/videos/videos.service.ts';
import { signedLocation } from '../../server/media/signed-urls.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import { browserHeaders, XSRF, type TestServer } from './server-harness.ts';

/**
 * The people and rows the authorization matrix and the schema fuzzing call the API as and about:
 * every kind of caller (no token, a malformed header, tokens that are forged, unsigned, expired,
 * pending, of a blocked user, of a user whose role changed since, a user, a user of another
 * organisation, an administrator, an administrator without the XSRF header) and real rows of each
 * kind (videos visible and invisible with their media files, a tag, a user, an invitation, an upload).
 */

export const CALLERS = [
  'anonymous',
  'malformedHeader',
  'unsignedToken',
  'forgedSignature',
  'expiredToken',
  'mfaPending',
  'blockedUser',
  'staleToken',
  'user',
  'otherOrganisationUser',
  'admin',
  'adminWithoutXsrf',
] as const;
export type CallerName = (typeof CALLERS)[number];

/** The organisation of `user` and of the invisible video; `otherOrganisationUser` belongs to the other. */
export const OWN_ORGANISATION = 'Norte';
export const OTHER_ORGANISATION = 'Sur';

export interface PasswordAccount {
  id: number;
  user: string;
  password: string;
}

export interface WorldVideo {
  id: number;
  asset: string;
}

export interface SecurityWorld {
  server: TestServer;
  /** Authorization, cookie and X-XSRF-TOKEN headers of each caller (a fresh object each time). */
  headers(caller: CallerName): Record<string, string>;
  tokens: Record<'admin' | 'user' | 'otherOrganisationUser' | 'blockedUser' | 'staleToken' | 'mfaPending' | 'forgedSignature' | 'expiredToken' | 'unsignedToken', string>;
  ids: Record<'admin' | 'user' | 'otherOrganisationUser' | 'blockedUser' | 'staleToken' | 'target', number>;
  /** Accounts with passwords: `login` signs in (OTP disabled: each sign-in enrols a fresh secret); `blocked` is blocked. */
  accounts: { login: PasswordAccount; mfa: PasswordAccount; blocked: PasswordAccount };
  /** The otpauth:// URI of the `mfaPending` token's sign-in (its codes). */
  pendingUri: string;
  tagId: number;
  /** Visible to everyone. */
  visibleVideo: WorldVideo;
  /** Invisible, of OWN_ORGANISATION: `user` sees it, `otherOrganisationUser` does not. */
  invisibleVideo: WorldVideo;
  invitationId: number;
  /** An upload session opened by the administrator (nothing received yet). */
  upload: { asset: string; video: string; thumbnail: string };
  /** Fresh rows, for the calls that consume or destroy theirs. */
  fresh: {
    tag(): Promise<number>;
    video(options?: { isVisible?: boolean; organizacion?: string | null }): Promise<WorldVideo>;
    invitation(options?: { expired?: boolean }): Promise<{ id: number; token: string }>;
    /** An upload whose video was received and processed: what POST /api/videos makes a video of. */
    readyUpload(): Promise<string>;
    user(options?: { rol?: 'admin' | 'user' }): Promise<number>;
    /** Another session token of a caller's user, for the calls that end the session they are sent with (POST /api/logout). */
    session(caller: 'admin' | 'user' | 'otherOrganisationUser'): Promise<string>;
  };
  /** A signed location as the server makes them (any method, path and expiry). */
  sign(method: string, path: string, expires: number): string;
  /** the URL-signing key, for the locations of signed-urls.ts (streaming prefixes) */
  urlKey: Buffer;
}

/** A fresh asset id (the contract's AssetId pattern). */
export const newAsset = () => `asset_${crypto.randomBytes(8).toString('hex')}`;
const suffix = () => crypto.randomBytes(4).toString('hex');

/** A PNG as far as the upload's content check looks (its leading bytes). */
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(200)]);

export const MEDIA_BYTES = {
  'video.mp4': crypto.randomBytes(4096),
  'preview.mp4': crypto.randomBytes(1024),
  'thumbnail.jpg': crypto.randomBytes(512),
  'hls-master.m3u8': Buffer.from('#EXTM3U\n#EXT-X-VERSION:7\n'),
} as const;

/** A JWT with `alg: none` carrying the claims of a real session token. */
function unsigned(token: string): string {
  const [, payload] = token.split('.');
  return `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
}

async function insertAccount(server: TestServer, user: string, options: { rol?: 'admin' | 'user'; organizacion?: string | null; password?: string } = {}) {
  const at = now();
  return insertUser(server.db.kysely, {
    username: user,
    username_key: user.toLowerCase(),
    nombre: user,
    email: `${user}@example.org`,
    rol: options.rol ?? 'user',
    organizacion: options.organizacion ?? null,
    password_hash: options.password ? await hashPassword(options.password) : null,
    otp_state: options.password ? 'OTP_DISABLED' : 'OTP_ACTIVED',
    created_at: at,
    updated_at: at,
  });
}

/** Builds the world on a test server (its database must be fresh: the user names are fixed). */
export async function buildSecurityWorld(server: TestServer): Promise<SecurityWorld> {
  const { ctx } = server.app;
  const kysely = server.db.kysely;
  const storage = openStorage(server.config);

  const adminRow = await insertAccount(server, 'matriz-admin', { rol: 'admin', organizacion: 'Central' });
  const userRow = await insertAccount(server, 'matriz-ana', { organizacion: OWN_ORGANISATION });
  const otherRow = await insertAccount(server, 'matriz-otro', { organizacion: OTHER_ORGANISATION });
  const targetRow = await insertAccount(server, 'matriz-objetivo', { organizacion: OWN_ORGANISATION });

  // Blocked straight in the database, without the token-version bump a block through the service also
  // makes: only the blocked flag refuses this token.
  const blockedPassword = 'bloqueada-password-1';
  const blockedRow = await insertAccount(server, 'matriz-bloqueada', { organizacion: OWN_ORGANISATION, password: blockedPassword });
  const blockedToken = await sessionTokenFor(ctx, blockedRow);
  await kysely.updateTable('users').set({ bloqueado: 1 }).where('id', '=', blockedRow.id).execute();

  // An administrator demoted after their token was issued: the token still claims the admin role.
  const staleRow = await insertAccount(server, 'matriz-degradada', { rol: 'admin', organizacion: OWN_ORGANISATION });
  const staleToken = await sessionTokenFor(ctx, staleRow);
  await changeUser(ctx, adminRow.id, staleRow.id, { rol: 'user' });

  const loginAccount = { user: 'matriz-clave', password: 'matriz-clave-password-1' };
  const loginRow = await insertAccount(server, loginAccount.user, { organizacion: OWN_ORGANISATION, password: loginAccount.password });
  const mfaAccount = { user: 'matriz-mfa', password: 'matriz-mfa-password-1' };
  const mfaRow = await insertAccount(server, mfaAccount.user, { organizacion: OWN_ORGANISATION, password: mfaAccount.password });
  const pending = await passwordLogin(ctx, loginAccount.user, loginAccount.password);

  const adminToken = await sessionTokenFor(ctx, adminRow);
  const adminClaims = { userId: adminRow.id, user: adminRow.username, role: adminRow.rol, tv: adminRow.token_version };
  const tokens: SecurityWorld['tokens'] = {
    admin: adminToken,
    user: await sessionTokenFor(ctx, userRow),
    otherOrganisationUser: await sessionTokenFor(ctx, otherRow),
    blockedUser: blockedToken,
    staleToken,
    mfaPending: pending.token,
    // the administrator's claims, signed with a key that is not the server's
    forgedSignature: await issueSessionToken(new TextEncoder().encode(crypto.randomBytes(48).toString('base64url')), adminClaims, 3600),
    // the administrator's claims, signed by the server, expired a minute ago
    expiredToken: await issueSessionToken(ctx.secrets.tokenKey, adminClaims, -60),
    unsignedToken: unsigned(adminToken),
  };

  const headers = (caller: CallerName): Record<string, string> => {
    switch (caller) {
      case 'anonymous':
        return browserHeaders();
      case 'malformedHeader':
        return { ...browserHeaders(), authorization: `Bearer ${adminToken} extra` };
      case 'adminWithoutXsrf':
        return { cookie: `XSRF-TOKEN=${XSRF}`, authorization: `Bearer ${adminToken}` };
      default:
        return browserHeaders(tokens[caller]);
    }
  };

  const writeMedia = async (asset: string) => {
    for (const [file, bytes] of Object.entries(MEDIA_BYTES)) await storage.write(asset, file, Readable.from([bytes]));
  };

  const [tag] = await ensureTags(kysely, ['Etiqueta matriz'], now());
  let videos = 0;
  const video = async (options: { isVisible?: boolean; organizacion?: string | null } = {}): Promise<WorldVideo> => {
    const asset = newAsset();
    const row = await insertVideo(server.db, {
      idExterno: asset,
      titulo: `Vídeo de la matriz ${++videos}`,
      descripcionCorta: 'Un vídeo para comprobar quién puede qué',
      nombreUsuarioAlta: adminRow.username,
      duracion: 30,
      organizacion: options.organizacion ?? OWN_ORGANISATION,
      isVisible: options.isVisible ?? true,
      hasThumbnail: true,
      hasPreview: true,
      tagIds: [tag!.id],
    });
    await writeMedia(asset);
    return { id: row.id, asset };
  };

  const invitation = async (options: { expired?: boolean } = {}) => {
    const created = await createInvitation(ctx, { email: `invitada-${suffix()}@example.org`, organizacion: OWN_ORGANISATION, invitedBy: adminRow.id });
    if (options.expired) await kysely.updateTable('invitations').set({ expires_at: new Date(Date.now() - 60_000).toISOString() }).where('id', '=', created.id).execute();
    return { id: created.id, token: created.token };
  };

  const readyUpload = async () => {
    const asset = newAsset();
    const at = now();
    await insertUpload(kysely, {
      asset_id: asset,
      created_by: adminRow.id,
      created_at: at,
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
      video_state: 'ready',
      video_content_type: 'video/mp4',
      video_size: 4096,
      duracion: 30,
      has_thumbnail: 1,
      has_preview: 1,
      updated_at: at,
    });
    await writeMedia(asset);
    return asset;
  };

  const sign = (method: string, path: string, expires: number) => signedLocation(ctx.secrets.urlKey, method, path, expires);
  const uploadAsset = newAsset();
  const uploadExpires = Math.floor(Date.now() / 1000) + 3600;
  {
    const at = now();
    await insertUpload(kysely, { asset_id: uploadAsset, created_by: adminRow.id, created_at: at, expires_at: new Date(uploadExpires * 1000).toISOString(), updated_at: at });
  }

  return {
    server,
    headers,
    tokens,
    ids: { admin: adminRow.id, user: userRow.id, otherOrganisationUser: otherRow.id, blockedUser: blockedRow.id, staleToken: staleRow.id, target: targetRow.id },
    accounts: {
      login: { id: loginRow.id, ...loginAccount },
      mfa: { id: mfaRow.id, ...mfaAccount },
      blocked: { id: blockedRow.id, user: blockedRow.username, password: blockedPassword },
    },
    pendingUri: pending.otp.uri!,
    tagId: tag!.id,
    visibleVideo: await video(),
    invisibleVideo: await video({ isVisible: false, organizacion: OWN_ORGANISATION }),
    invitationId: (await invitation()).id,
    upload: {
      asset: uploadAsset,
      video: sign('PUT', `/api/uploads/${uploadAsset}/video`, uploadExpires),
      thumbnail: sign('PUT', `/api/uploads/${uploadAsset}/thumbnail`, uploadExpires),
    },
    fresh: {
      tag: async () => (await ensureTags(kysely, [`Etiqueta ${suffix()}`], now()))[0]!.id,
      video,
      invitation,
      readyUpload,
      user: async (options = {}) => (await insertAccount(server, `matriz-${suffix()}`, { organizacion: OWN_ORGANISATION, ...options })).id,
      session: async (caller) => {
        const row = await findUserById(kysely, { admin: adminRow.id, user: userRow.id, otherOrganisationUser: otherRow.id }[caller]);
        return sessionTokenFor(ctx, row!);
      },
    },
    sign,
    urlKey: ctx.secrets.urlKey,
  };
}
