import type { components } from '../../../contract/openapi.gen.ts';
import { now } from '../../db/database.ts';
import { HttpProblem, invalidField } from '../../plugins/problems.ts';
import type { Role } from '../../plugins/security.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import type { AccountsContext } from './accounts-context.ts';
import {
  deletePendingLoginsOfUser,
  findUserById,
  findUserByKey,
  listUsers,
  lockActiveAdminIds,
  updateUserRevokingSessions,
  type Executor,
  type UserRow,
} from './accounts.repository.ts';

type Usuario = components['schemas']['Usuario'];
type Me = components['schemas']['Me'];

/** User names: 3 to 64 ASCII letters, digits, '.', '_' or '-' (no look-alike Unicode letters). */
const USERNAME = /^[A-Za-z0-9._-]{3,64}$/;
// What other modules use of the accounts: a user by id (the name and organisation a video records).
export { findUserById } from './accounts.repository.ts';

export const USERNAME_RULE = '3 to 64 letters, digits, ".", "_" or "-"';

/** The key a user name is unique and looked up by: trimmed and lower-cased. */
export function usernameKey(name: string): string {
  return name.trim().toLowerCase();
}

export function isValidUsername(name: string): boolean {
  return USERNAME.test(name.trim());
}

/** A new user name, trimmed; 400 validation-error on body.user when it breaks the rule. */
export function checkNewUsername(name: string): string {
  const username = name.trim();
  if (!USERNAME.test(username)) {
    throw invalidField('body.user', USERNAME_RULE);
  }
  return username;
}

const notFound = () => new HttpProblem(404, 'resource-not-found', 'no such user');

export function toUsuario(user: UserRow): Usuario {
  return {
    id: user.id,
    user: user.username,
    nombre: user.nombre,
    email: user.email,
    rol: user.rol,
    organizacion: user.organizacion,
    bloqueado: user.bloqueado === 1,
    otpState: user.otp_state,
    lastLoginAt: user.last_login_at,
  };
}

/**
 * The operator's command line in the audit log: no user (actor_id null), named 'cli' (a row with no
 * actor and no name is a user since deleted). AuditActor's id is a number, hence the one cast here.
 */
export const CLI_ACTOR = { id: null, nombre: 'cli' } as unknown as AuditActor;

/** The audit log's actor for a user id (null: the operator's command line; a user since deleted: none). */
export async function auditActor(db: Executor, actorId: number | null): Promise<AuditActor | null> {
  if (actorId === null) return CLI_ACTOR;
  const actor = await findUserById(db, actorId);
  return actor ? { id: actor.id, nombre: actor.username } : null;
}

export async function getMe(ctx: AccountsContext, userId: number): Promise<Me> {
  const user = await findUserById(ctx.db.kysely, userId);
  if (!user) throw new HttpProblem(401, 'invalid-access-token', 'the user no longer exists');
  return { id: user.id, user: user.username, nombre: user.nombre, email: user.email, role: user.rol, organizacion: user.organizacion };
}

export async function listUsuarios(ctx: AccountsContext): Promise<Usuario[]> {
  return (await listUsers(ctx.db.kysely)).map(toUsuario);
}

/** A user by name (the CLI names users); 404 when there is none. */
export async function findUserByName(ctx: AccountsContext, name: string): Promise<UserRow> {
  const user = await findUserByKey(ctx.db.kysely, usernameKey(name));
  if (!user) throw notFound();
  return user;
}

export interface UserChanges {
  rol?: Role;
  bloqueado?: boolean;
}

/**
 * Changes a user's role and/or blocked flag. Any change revokes their sessions (token_version).
 * Nobody demotes or blocks themself, and the last unblocked administrator stays one (409 conflict).
 * `actorId` is the administrator making the change (null: the operator's command line). Each change
 * (role, block/unblock) is recorded in the audit log in the same transaction; refused ones are not.
 */
export async function changeUser(ctx: AccountsContext, actorId: number | null, userId: number, changes: UserChanges): Promise<Usuario> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const activeAdmins = await lockActiveAdminIds(trx, ctx.db.dialect);
    const user = await findUserById(trx, userId);
    if (!user) throw notFound();
    const rol = changes.rol ?? user.rol;
    const bloqueado = changes.bloqueado ?? user.bloqueado === 1;
    if (rol === user.rol && bloqueado === (user.bloqueado === 1)) return toUsuario(user);

    if (rol !== 'admin' || bloqueado) {
      if (actorId === userId) throw new HttpProblem(409, 'conflict', 'an administrator cannot demote or block themself');
      if (activeAdmins.length === 1 && activeAdmins[0] === userId) {
        throw new HttpProblem(409, 'conflict', 'the last administrator cannot be demoted or blocked');
      }
    }
    const at = now();
    const updated = await updateUserRevokingSessions(trx, userId, { rol, bloqueado: bloqueado ? 1 : 0, updated_at: at });
    if (bloqueado) await deletePendingLoginsOfUser(trx, userId);
    const actor = await auditActor(trx, actorId);
    const subject = { actor, subjectType: 'user', subjectId: userId, detail: user.username, at } as const;
    if (rol !== user.rol) {
      await recordAudit(trx, { ...subject, action: 'user.role-changed', before: { rol: user.rol }, after: { rol } });
    }
    if (bloqueado !== (user.bloqueado === 1)) {
      await recordAudit(trx, { ...subject, action: bloqueado ? 'user.blocked' : 'user.unblocked', before: { bloqueado: !bloqueado }, after: { bloqueado } });
    }
    return toUsuario(updated!);
  });
}

/**
 * Makes the user enrol a new second factor at their next sign-in (lost phone): OTP_REQUIRED, the
 * secret and last step cleared, sign-ins in progress ended, sessions revoked. Recorded in the audit
 * log (`actorId` null: the operator's command line).
 */
export async function resetOtp(ctx: AccountsContext, userId: number, actorId: number | null = null): Promise<Usuario> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const user = await findUserById(trx, userId);
    if (!user) throw notFound();
    const at = now();
    const updated = await updateUserRevokingSessions(trx, userId, {
      otp_state: 'OTP_REQUIRED',
      otp_secret: null,
      otp_last_step: null,
      updated_at: at,
    });
    if (!updated) throw notFound();
    await deletePendingLoginsOfUser(trx, userId);
    await recordAudit(trx, {
      actor: await auditActor(trx, actorId),
      action: 'user.otp-reset',
      subjectType: 'user',
      subjectId: userId,
      before: { otpState: user.otp_state },
      after: { otpState: updated.otp_state },
      detail: user.username,
      at,
    });
    return toUsuario(updated);
  });
}
