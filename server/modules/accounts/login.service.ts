import crypto from 'node:crypto';
import type { components } from '../../../contract/openapi.gen.ts';
import { now } from '../../db/database.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { PendingPrincipal, SessionPrincipal } from '../../plugins/security.ts';
import type { AccountsContext } from './accounts-context.ts';
import {
  acceptOtpStep,
  clearLoginFailures,
  countLoginAttempt,
  countPendingAttempt,
  deleteExpiredPendingLogins,
  deleteStaleLoginFailures,
  endSession,
  deletePendingLogin,
  findLoginLock,
  findPendingLogin,
  findUserById,
  findUserByKey,
  insertPendingLogin,
  insertUser,
  isUniqueViolation,
  lockLogin,
  markInvitationUsed,
  setLastLogin,
  type UserRow,
} from './accounts.repository.ts';
import { invitationForRegistration } from './invitations.service.ts';
import { checkNewPassword, hashPassword, verifyPassword } from './passwords.ts';
import type { SsoVerifier } from './sso.ts';
import { issuePendingToken, issueSessionToken } from './tokens.ts';
import { matchTotpStep, newTotpSecret, totpUri } from './totp.ts';
import { checkNewUsername, usernameKey } from './users.service.ts';

type LoginResponse = components['schemas']['LoginResponse'];
type TokenResponse = components['schemas']['TokenResponse'];
type MfaRequest = components['schemas']['MfaRequest'];
type RegisterRequest = components['schemas']['RegisterRequest'];

/** Consecutive failed sign-ins of a user name before it is locked, and for how long. */
export const MAX_LOGIN_FAILURES = 5;
export const LOGIN_LOCK_MS = 15 * 60 * 1000;
/**
 * A name's count of failures is forgotten this long after its last attempt (when no lock runs):
 * every name ever guessed gets a row, most of them nobody's. Forgetting a day-old count gives an
 * attacker nothing: a lock that ran out already starts the count again.
 */
export const STALE_LOGIN_FAILURES_MS = 24 * 60 * 60 * 1000;
/** How long a sign-in waits for its second factor, and how many wrong codes it takes. */
export const PENDING_LOGIN_TTL_MS = 10 * 60 * 1000;
export const MAX_MFA_FAILURES = 5;
/** Longest user-name key the database holds (longer names cannot exist). */
const USERNAME_KEY_MAX = 64;

const tooManyAttempts = () => new HttpProblem(429, 'number-of-login-attempts-exceeded', 'too many failed attempts; try again later');
const invalidAccess = () => new HttpProblem(401, 'invalid-access-token', 'the sign-in has ended; sign in again');
const blocked = () => new HttpProblem(403, 'blocked-user', 'the user is blocked');

export function sessionTokenFor(ctx: AccountsContext, user: UserRow): Promise<string> {
  return issueSessionToken(
    ctx.secrets.tokenKey,
    { userId: user.id, user: user.username, role: user.rol, tv: user.token_version },
    ctx.config.sessionTtlSeconds,
  );
}

/**
 * First factor: user name and password. Unknown users and wrong passwords get the same answer in
 * about the same time; five consecutive failures lock the name for 15 minutes (unknown names too,
 * so the lock reveals nothing). Only a right password learns whether the user is blocked.
 * The attempt is counted before the password is checked, so a burst of parallel guesses gets no
 * more than five checks either; a right password clears the count.
 */
export async function passwordLogin(ctx: AccountsContext, name: string, password: string): Promise<LoginResponse> {
  const db = ctx.db.kysely;
  const key = usernameKey(name);
  const countable = [...key].length <= USERNAME_KEY_MAX;
  const at = new Date();
  let attempt = 0;
  if (countable) {
    const lock = await findLoginLock(db, key);
    if (lock?.locked_until && lock.locked_until > at.toISOString()) throw tooManyAttempts();
    attempt = await countLoginAttempt(db, key, at.toISOString());
    if (attempt > MAX_LOGIN_FAILURES) throw tooManyAttempts();
  }

  const user = countable ? await findUserByKey(db, key) : undefined;
  if (!(await verifyPassword(user?.password_hash, password)) || !user) {
    if (attempt >= MAX_LOGIN_FAILURES) {
      await lockLogin(db, key, new Date(at.getTime() + LOGIN_LOCK_MS).toISOString(), at.toISOString());
      throw tooManyAttempts();
    }
    throw new HttpProblem(401, 'wrong-password', 'wrong user or password');
  }
  await clearLoginFailures(db, key);
  // Each right password also clears out the counts gone stale (those of names nobody has, mostly).
  await deleteStaleLoginFailures(db, new Date(at.getTime() - STALE_LOGIN_FAILURES_MS).toISOString(), at.toISOString());
  if (user.bloqueado === 1) throw blocked();
  return startSecondFactor(ctx, user);
}

/**
 * Opens a pending sign-in that only the second factor completes. Users without an active second
 * factor get a fresh TOTP secret to enrol (kept on the pending sign-in until a code proves it).
 */
async function startSecondFactor(ctx: AccountsContext, user: UserRow): Promise<LoginResponse> {
  const db = ctx.db.kysely;
  const enrol = user.otp_state !== 'OTP_ACTIVED' || !user.otp_secret;
  const secret = enrol ? newTotpSecret() : null;
  const pendingId = crypto.randomBytes(32).toString('base64url');
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + PENDING_LOGIN_TTL_MS);
  await deleteExpiredPendingLogins(db, createdAt.toISOString());
  await insertPendingLogin(db, {
    id: pendingId,
    user_id: user.id,
    otp_secret: secret,
    failures: 0,
    expires_at: expiresAt.toISOString(),
    created_at: createdAt.toISOString(),
  });
  const token = await issuePendingToken(ctx.secrets.tokenKey, { pendingId, userId: user.id, user: user.username }, expiresAt);
  const state = enrol && user.otp_state === 'OTP_ACTIVED' ? 'OTP_REQUIRED' : user.otp_state;
  return { token, otp: { state, user: user.username, ...(secret ? { uri: totpUri(secret, user.username) } : {}) } };
}

/**
 * Second factor: a TOTP code of the pending sign-in's user, accepted once (its time step must be
 * later than the last accepted one). Enrolment activates the new secret. Five refused codes in a
 * row end the pending sign-in; like passwords, a code is counted before it is checked, so parallel
 * guesses get no more than five checks either.
 */
export async function completeMfa(ctx: AccountsContext, pending: PendingPrincipal, request: MfaRequest): Promise<TokenResponse> {
  const db = ctx.db.kysely;
  if (usernameKey(request.user) !== usernameKey(pending.user)) throw invalidAccess();
  const sign = await findPendingLogin(db, pending.pendingId);
  if (!sign || sign.expires_at <= now()) throw invalidAccess();
  const user = await findUserById(db, sign.user_id);
  if (!user) throw invalidAccess();
  if (user.bloqueado === 1) throw blocked();
  const secret = sign.otp_secret ?? user.otp_secret;
  if (!secret) throw invalidAccess();

  const attempt = await countPendingAttempt(db, sign.id);
  if (attempt === 0) throw invalidAccess();
  if (attempt > MAX_MFA_FAILURES) throw tooManyAttempts();
  const step = matchTotpStep(secret, user.username, request.mfaCode);
  if (step !== null) {
    const accepted = await db.transaction().execute(async (trx) => {
      const at = now();
      if (!(await acceptOtpStep(trx, user.id, step, sign.otp_secret, at))) return false;
      if (!(await deletePendingLogin(trx, sign.id))) throw invalidAccess();
      await setLastLogin(trx, user.id, at);
      return true;
    });
    if (accepted) return { token: await sessionTokenFor(ctx, user) };
    if (sign.otp_secret) {
      // another sign-in enrolled a second factor meanwhile: this enrolment is stale
      await deletePendingLogin(db, sign.id);
      throw invalidAccess();
    }
    // else: a replayed code, refused like a wrong one
  }
  if (attempt >= MAX_MFA_FAILURES) {
    await deletePendingLogin(db, sign.id);
    throw tooManyAttempts();
  }
  throw new HttpProblem(401, 'invalid-mfa-token', 'the code is not valid');
}

/**
 * Creates an account from an invitation (role, e-mail and organisation come from it) and answers
 * like a sign-in, so the new user enrols the second factor before seeing anything. The invitation
 * is marked used in the same transaction, only if nobody used it first.
 */
export async function register(ctx: AccountsContext, request: RegisterRequest): Promise<LoginResponse> {
  const db = ctx.db.kysely;
  const invitation = await invitationForRegistration(ctx, request.token);
  const username = checkNewUsername(request.user);
  checkNewPassword(request.password);
  const usersExists = () => new HttpProblem(409, 'users-exists', 'the user name is taken');
  if (await findUserByKey(db, usernameKey(username))) throw usersExists();
  const passwordHash = await hashPassword(request.password);

  const user = await db.transaction().execute(async (trx) => {
    const at = now();
    let created: UserRow;
    try {
      created = await insertUser(trx, {
        username,
        username_key: usernameKey(username),
        nombre: username,
        email: invitation.email,
        rol: invitation.rol,
        organizacion: invitation.organizacion,
        password_hash: passwordHash,
        otp_state: 'OTP_DISABLED',
        otp_secret: null,
        otp_last_step: null,
        created_at: at,
        updated_at: at,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw usersExists();
      throw error;
    }
    if (!(await markInvitationUsed(trx, invitation.id, created.id, at))) {
      throw new HttpProblem(410, 'register-invitation-was-used', 'the invitation has been used');
    }
    return created;
  });
  return startSecondFactor(ctx, user);
}

/**
 * Single sign-on: the identity source has done its own strong authentication, so a valid token
 * opens a session directly. The first sign-in provisions the user (role user, no password).
 */
export async function ssoLogin(ctx: AccountsContext, verify: SsoVerifier | null, token: string): Promise<TokenResponse> {
  if (!verify) throw new HttpProblem(503, 'sso-not-configured', 'single sign-on is not configured on this server');
  const identity = await verify(token);
  const db = ctx.db.kysely;
  const key = usernameKey(identity.username);
  let user = await findUserByKey(db, key);
  if (!user) {
    const at = now();
    try {
      user = await insertUser(db, {
        username: identity.username,
        username_key: key,
        nombre: identity.nombre,
        email: identity.email,
        rol: 'user',
        organizacion: identity.organizacion,
        password_hash: null,
        otp_state: 'OTP_DISABLED',
        otp_secret: null,
        otp_last_step: null,
        created_at: at,
        updated_at: at,
      });
    } catch (error) {
      // provisioned by a concurrent first sign-in
      if (!isUniqueViolation(error)) throw error;
      user = await findUserByKey(db, key);
      if (!user) throw error;
    }
  }
  if (user.bloqueado === 1) throw blocked();
  await setLastLogin(db, user.id, now());
  return { token: await sessionTokenFor(ctx, user) };
}

/**
 * Ends the caller's session ('Cerrar sesión', the idle time-out): its token is refused from now on,
 * until it would have expired anyway. A token issued before sessions had ids cannot be told apart
 * from the user's other sessions: it runs out on its own (at most the session's 12 hours).
 */
export async function logout(ctx: AccountsContext, principal: SessionPrincipal): Promise<void> {
  const { session } = principal;
  if (!session.id) return;
  await endSession(ctx.db.kysely, session.id, new Date(session.expiresAt * 1000).toISOString(), now());
}
