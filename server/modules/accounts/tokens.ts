import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import { HttpProblem } from '../../plugins/problems.ts';
import type { Role } from '../../plugins/security.ts';

/** Who signs the tokens, and for what: a session token and a pending token are never interchangeable. */
const ISSUER = 'tao';
const SESSION_AUDIENCE = 'tao-session';
const PENDING_AUDIENCE = 'tao-mfa';

export interface SessionClaims {
  userId: number;
  user: string;
  role: Role;
  /** the user's token_version when the token was issued */
  tv: number;
  /** the session's id (`jti`), which POST /api/logout ends; absent from tokens issued before it existed */
  sessionId?: string;
  /** when the token expires (`exp`, seconds since 1970) */
  expiresAt: number;
}

export interface PendingClaims {
  pendingId: string;
  userId: number;
  user: string;
}

const invalidToken = () => new HttpProblem(401, 'invalid-access-token', 'the access token is not valid');

/** The token of `Authorization: Bearer <token>`. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined) throw new HttpProblem(401, 'authorization-header-not-present', 'send Authorization: Bearer <token>');
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim());
  if (!match) throw new HttpProblem(401, 'invalid-authorization-header', 'the Authorization header must be Bearer <token>');
  return match[1]!;
}

/** A session token for `claims`, valid `ttlSeconds`, with a fresh session id (its `jti`). */
export function issueSessionToken(key: Uint8Array, claims: Omit<SessionClaims, 'sessionId' | 'expiresAt'>, ttlSeconds: number): Promise<string> {
  return new SignJWT({ user: claims.user, role: claims.role, tv: claims.tv })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setJti(crypto.randomBytes(16).toString('base64url'))
    .setIssuer(ISSUER)
    .setAudience(SESSION_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key);
}

export function issuePendingToken(key: Uint8Array, claims: PendingClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ user: claims.user })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setJti(claims.pendingId)
    .setIssuer(ISSUER)
    .setAudience(PENDING_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key);
}

async function verify(key: Uint8Array, token: string, audience: string) {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience, requiredClaims: ['exp', 'sub'] });
    return payload;
  } catch {
    throw invalidToken();
  }
}

function userIdOf(sub: string | undefined): number {
  const id = Number(sub);
  if (!Number.isSafeInteger(id) || id < 1) throw invalidToken();
  return id;
}

/**
 * Checks signature, audience and expiry of a session token; 401 invalid-access-token otherwise.
 * Whether the user may still use it (blocked, role changed) is the caller's check, at every request.
 */
export async function verifySessionToken(key: Uint8Array, token: string): Promise<SessionClaims> {
  const payload = await verify(key, token, SESSION_AUDIENCE);
  const { user, role, tv } = payload;
  if (typeof user !== 'string' || (role !== 'admin' && role !== 'user') || typeof tv !== 'number') throw invalidToken();
  const sessionId = typeof payload.jti === 'string' && payload.jti.length > 0 && payload.jti.length <= 64 ? payload.jti : undefined;
  return { userId: userIdOf(payload.sub), user, role, tv, expiresAt: payload.exp!, ...(sessionId ? { sessionId } : {}) };
}

/** Checks signature, audience and expiry of a pending token; 401 invalid-access-token otherwise. */
export async function verifyPendingToken(key: Uint8Array, token: string): Promise<PendingClaims> {
  const payload = await verify(key, token, PENDING_AUDIENCE);
  if (typeof payload.user !== 'string' || typeof payload.jti !== 'string') throw invalidToken();
  return { pendingId: payload.jti, userId: userIdOf(payload.sub), user: payload.user };
}
