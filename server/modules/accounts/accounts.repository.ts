import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database, InvitationsTable, PendingLoginsTable, UsersTable } from '../../db/schema.ts';

/** The Kysely queries of the accounts module. Every function takes the database or a transaction. */
export type Executor = Kysely<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserChanges = Updateable<UsersTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type PendingLoginRow = Selectable<PendingLoginsTable>;

const changed = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }): number =>
  Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0n);

export { isUniqueViolation } from '../../db/database-errors.ts';

// ── users ──────────────────────────────────────────────────────────────────────────────────────

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByKey(db: Executor, usernameKey: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username_key', '=', usernameKey).executeTakeFirst();
}

export function listUsers(db: Executor): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('username_key').orderBy('id').execute();
}

export function insertUser(db: Executor, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export function updateUser(db: Executor, id: number, changes: UserChanges): Promise<UserRow | undefined> {
  return db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Records a sign-in that opened a session. */
export async function setLastLogin(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('users').set({ last_login_at: at }).where('id', '=', id).execute();
}

/** Changes a user and bumps token_version, so every session token issued before stops working. */
export function updateUserRevokingSessions(db: Executor, id: number, changes: UserChanges): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ ...changes, token_version: sql<number>`token_version + 1` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Accepts a TOTP time step once: records it only when it is later than the last accepted one.
 * On enrolment (a new secret) it stores the secret and activates the second factor, only while the
 * user still has no active one. False: a replayed code, or an enrolment overtaken by another.
 */
export async function acceptOtpStep(db: Executor, userId: number, step: number, enrolledSecret: string | null, at: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({
      otp_last_step: step,
      updated_at: at,
      ...(enrolledSecret ? { otp_secret: enrolledSecret, otp_state: 'OTP_ACTIVED' as const } : {}),
    })
    .where('id', '=', userId)
    .$if(!enrolledSecret, (qb) => qb.where((eb) => eb.or([eb('otp_last_step', 'is', null), eb('otp_last_step', '<', step)])))
    .$if(enrolledSecret !== null, (qb) => qb.where((eb) => eb.or([eb('otp_state', '<>', 'OTP_ACTIVED'), eb('otp_secret', 'is', null)])))
    .executeTakeFirst();
  return changed(result) === 1;
}

/**
 * Ids of the unblocked administrators. On PostgreSQL their rows are locked until the transaction
 * ends, so two concurrent changes cannot both remove "the other" last administrator (SQLite runs
 * one write transaction at a time anyway).
 */
export async function lockActiveAdminIds(db: Executor, dialect: DialectName): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('rol', '=', 'admin')
    .where('bloqueado', '=', 0)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .execute();
  return rows.map((r) => r.id);
}

export async function adminExists(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('rol', '=', 'admin').limit(1).executeTakeFirst();
  return row !== undefined;
}

// ── invitations ────────────────────────────────────────────────────────────────────────────────

export function insertInvitation(db: Executor, invitation: Insertable<InvitationsTable>): Promise<InvitationRow> {
  return db.insertInto('invitations').values(invitation).returningAll().executeTakeFirstOrThrow();
}

export function findInvitationByHash(db: Executor, tokenHash: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findInvitationById(db: Executor, id: number): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The invitations made by administrators (not the first-administrator one, not replaced ones), newest first. */
export function listInvitations(db: Executor): Promise<InvitationRow[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('bootstrap', '=', 0)
    .where('replaced_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Marks the unused invitations to an address (ignoring case; not the first-administrator one) as
 * replaced by a new one: they are no longer listed and their links have expired. Answers their ids.
 */
export async function replacePendingInvitations(db: Executor, email: string, at: string): Promise<number[]> {
  const rows = await db
    .updateTable('invitations')
    .set({ replaced_at: at })
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('bootstrap', '=', 0)
    .where('used_at', 'is', null)
    .where('replaced_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

export function findUnusedBootstrapInvitation(db: Executor): Promise<InvitationRow | undefined> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('bootstrap', '=', 1)
    .where('used_at', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export async function setInvitationTokenHash(db: Executor, id: number, tokenHash: string): Promise<void> {
  await db.updateTable('invitations').set({ token_hash: tokenHash }).where('id', '=', id).execute();
}

/** Marks an invitation used, only if nobody used it first. False: it was already used. */
export async function markInvitationUsed(db: Executor, id: number, userId: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ used_at: at, used_by: userId })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return changed(result) === 1;
}

/** Deletes an unused invitation. False: it does not exist or was used. */
export async function deleteUnusedInvitation(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('invitations').where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return changed(result) === 1;
}

export async function deleteUnusedBootstrapInvitations(db: Executor): Promise<void> {
  await db.deleteFrom('invitations').where('bootstrap', '=', 1).where('used_at', 'is', null).execute();
}

// ── login failures ─────────────────────────────────────────────────────────────────────────────

export function findLoginLock(db: Executor, usernameKey: string): Promise<{ locked_until: string | null } | undefined> {
  return db.selectFrom('login_failures').select('locked_until').where('username_key', '=', usernameKey).executeTakeFirst();
}

/**
 * Counts one more sign-in attempt for a name, atomically (it stays counted unless a right password
 * clears the count); a lock that has run out starts the count again. Answers the number of
 * consecutive attempts without success, this one included.
 */
export async function countLoginAttempt(db: Executor, usernameKey: string, at: string): Promise<number> {
  const expired = sql<boolean>`login_failures.locked_until is not null and login_failures.locked_until <= ${at}`;
  const row = await db
    .insertInto('login_failures')
    .values({ username_key: usernameKey, failures: 1, locked_until: null, updated_at: at })
    .onConflict((oc) =>
      oc.column('username_key').doUpdateSet({
        failures: sql<number>`case when ${expired} then 1 else login_failures.failures + 1 end`,
        locked_until: sql<string | null>`case when ${expired} then null else login_failures.locked_until end`,
        updated_at: at,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

export async function lockLogin(db: Executor, usernameKey: string, until: string, at: string): Promise<void> {
  await db.updateTable('login_failures').set({ locked_until: until, updated_at: at }).where('username_key', '=', usernameKey).execute();
}

/**
 * Forgets the counts of names last attempted before `before` whose lock (if any) has run out at `at`:
 * a count that old gives nothing a lock would still hold back, and unknown names need no row.
 */
export async function deleteStaleLoginFailures(db: Executor, before: string, at: string): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where('updated_at', '<', before)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
    .execute();
}

export async function clearLoginFailures(db: Executor, usernameKey: string): Promise<void> {
  await db.deleteFrom('login_failures').where('username_key', '=', usernameKey).execute();
}

// ── ended sessions ─────────────────────────────────────────────────────────────────────────────

/** Records a session as ended (its token refused until `expiresAt`), and forgets those past their expiry. */
export async function endSession(db: Executor, sessionId: string, expiresAt: string, at: string): Promise<void> {
  await db.deleteFrom('ended_sessions').where('expires_at', '<=', at).execute();
  await db.insertInto('ended_sessions').values({ session_id: sessionId, expires_at: expiresAt }).onConflict((oc) => oc.column('session_id').doNothing()).execute();
}

/** What the session check reads of the user a session token names. */
export type SessionUser = Pick<UserRow, 'id' | 'username' | 'rol' | 'bloqueado' | 'token_version'> & { sessionEnded: boolean };

/**
 * The user a session token names, and whether its session was ended (POST /api/logout): one query
 * for every authenticated request. A token without a session id (issued before ids) has none to end.
 * Only the columns the check needs: the whole row (17 columns, the password hash and the second
 * factor's secret among them) cost about a third more per look-up, and those secrets have no
 * business being read at every request.
 */
export async function findSessionUser(db: Executor, userId: number, sessionId: string | undefined): Promise<SessionUser | undefined> {
  // Plain SQL, not the query builder, which builds and compiles it at every authenticated request:
  // 20 µs of CPU per look-up instead of 25–27 µs (docs/decisions/0014-session-tokens-and-revocation.md).
  const { rows } = await sql<Omit<SessionUser, 'sessionEnded'> & { session_ended: number | boolean }>`select u.id, u.username, u.rol, u.bloqueado, u.token_version,
    ${sessionId === undefined ? sql`0` : sql`exists (select 1 from ended_sessions e where e.session_id = ${sessionId})`} as session_ended
    from users u where u.id = ${userId}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const { session_ended: ended, ...user } = row;
  return { ...user, sessionEnded: Boolean(ended) };
}

// ── pending sign-ins (waiting for the second factor) ──────────────────────────────────────────

export async function insertPendingLogin(db: Executor, pending: Insertable<PendingLoginsTable>): Promise<void> {
  await db.insertInto('pending_logins').values(pending).execute();
}

export function findPendingLogin(db: Executor, id: string): Promise<PendingLoginRow | undefined> {
  return db.selectFrom('pending_logins').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One more code tried on a pending sign-in; answers the count (0: the pending sign-in is gone). */
export async function countPendingAttempt(db: Executor, id: string): Promise<number> {
  const row = await db
    .updateTable('pending_logins')
    .set({ failures: sql<number>`failures + 1` })
    .where('id', '=', id)
    .returning('failures')
    .executeTakeFirst();
  return Number(row?.failures ?? 0);
}

/** False: it was already gone (used or ended by another request). */
export async function deletePendingLogin(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('pending_logins').where('id', '=', id).executeTakeFirst();
  return changed(result) === 1;
}

export async function deleteExpiredPendingLogins(db: Executor, at: string): Promise<void> {
  await db.deleteFrom('pending_logins').where('expires_at', '<=', at).execute();
}

export async function deletePendingLoginsOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('pending_logins').where('user_id', '=', userId).execute();
}
