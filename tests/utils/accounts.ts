import { URI, type TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, type TestServer } from './server-harness.ts';
import { findUserById } from '../../server/modules/accounts/accounts.repository.ts';
import { firstAdministratorLink } from '../../server/modules/accounts/bootstrap.ts';
import { sessionTokenFor } from '../../server/modules/accounts/login.service.ts';

/** Accounts helpers for the tests of every area: sign-in, invitations, the first administrator, TOTP codes. */

export interface TestUser {
  id: number;
  user: string;
  password: string;
  /** the user's authenticator, once enrolled */
  totp: TOTP;
  /** a session token */
  session: string;
}

const STEP_MS = 30_000;

/** The authenticator an app makes from the QR code's otpauth:// URI. */
export function authenticatorOf(uri: string): TOTP {
  const otp = URI.parse(uri);
  if (!('period' in otp)) throw new Error('not a TOTP URI');
  return otp;
}

export async function lastStepOf(server: TestServer, userId: number): Promise<number | null> {
  return (await findUserById(server.db.kysely, userId))?.otp_last_step ?? null;
}

/** A code the server has not accepted yet (the current step's, else the next one's), waiting for the next step if need be. */
export async function freshCode(totp: TOTP, lastStep: number | null): Promise<string> {
  for (;;) {
    const current = totp.counter();
    const step = [current, current + 1].find((s) => lastStep === null || s > lastStep);
    if (step !== undefined) return totp.generate({ timestamp: step * STEP_MS });
    await new Promise((resolve) => setTimeout(resolve, totp.remaining() + 50));
  }
}

/** A six-digit code that is none of the codes the server accepts right now. */
export function wrongCode(totp: TOTP): string {
  const current = totp.counter();
  const valid = new Set([-1, 0, 1, 2].map((d) => totp.generate({ timestamp: (current + d) * STEP_MS })));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

export function invitationTokenOf(link: string): string {
  const token = new URL(link).searchParams.get('invitation');
  if (!token) throw new Error(`no invitation in ${link}`);
  return token;
}

export function login(app: FastifyInstance, user: string, password: string) {
  return call(app, { method: 'POST', url: '/api/login', payload: { user, password } });
}

export function mfa(app: FastifyInstance, pendingToken: string, user: string, mfaCode: string) {
  return call(app, { method: 'POST', url: '/api/mfa', token: pendingToken, payload: { user, mfaCode } });
}

export function register(app: FastifyInstance, token: string, user: string, password: string) {
  return call(app, { method: 'POST', url: '/api/register', payload: { user, password, token } });
}

/** Completes a pending sign-in (login or register answer) with the second factor; answers the session token. */
async function secondFactor(server: TestServer, answer: { token: string; otp: { user: string; uri?: string } }, userId: number, totp?: TOTP) {
  const authenticator = answer.otp.uri ? authenticatorOf(answer.otp.uri) : totp;
  if (!authenticator) throw new Error('no authenticator for this user');
  const res = await mfa(server.app, answer.token, answer.otp.user, await freshCode(authenticator, await lastStepOf(server, userId)));
  expect(res.statusCode, res.body).toBe(200);
  return { session: (res.json() as { token: string }).token, totp: authenticator };
}

/** Registers through an invitation token and enrols the second factor: a signed-in user. */
export async function registerAndEnrol(server: TestServer, invitationToken: string, user: string, password: string): Promise<TestUser> {
  const res = await register(server.app, invitationToken, user, password);
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json() as { token: string; otp: { user: string; uri?: string } };
  const id = Number(claimsOf(answer.token).sub);
  const { session, totp } = await secondFactor(server, answer, id);
  return { id, user: answer.otp.user, password, totp, session };
}

/** Signs a registered user in with password and code; answers a new session token. */
export async function signIn(server: TestServer, user: TestUser): Promise<string> {
  const res = await login(server.app, user.user, user.password);
  expect(res.statusCode, res.body).toBe(200);
  return (await secondFactor(server, res.json(), user.id, user.totp)).session;
}

/** The first administrator, through the first-administrator link. */
export async function createFirstAdmin(server: TestServer, user = 'admin', password = 'admin-password-1'): Promise<TestUser> {
  const link = await firstAdministratorLink(server.app.ctx);
  if (!link) throw new Error('an administrator exists already');
  return registerAndEnrol(server, invitationTokenOf(link), user, password);
}

/** An administrator invites a user, who registers and enrols. */
export async function inviteUser(
  server: TestServer,
  admin: TestUser,
  user: string,
  options: { rol?: 'admin' | 'user'; organizacion?: string; password?: string } = {},
): Promise<TestUser> {
  const { password = `${user}-password-1`, ...invitation } = options;
  const res = await call(server.app, {
    method: 'POST',
    url: '/api/register-invitations',
    token: admin.session,
    payload: { email: `${user}@example.org`, ...invitation },
  });
  expect(res.statusCode, res.body).toBe(201);
  return registerAndEnrol(server, (res.json() as { token: string }).token, user, password);
}

/** A fresh session token for a user as they are now in the database (what a new sign-in would give). */
export async function sessionOf(server: TestServer, userId: number): Promise<string> {
  const user = await findUserById(server.db.kysely, userId);
  if (!user) throw new Error(`no user ${userId}`);
  return sessionTokenFor(server.app.ctx, user);
}

/** The claims of a JWT, unverified. */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}


