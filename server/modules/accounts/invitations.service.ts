import crypto from 'node:crypto';
import type { components } from '../../../contract/openapi.gen.ts';
import type { Config } from '../../config.ts';
import { now } from '../../db/database.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { Role } from '../../plugins/security.ts';
import type { AccountsContext } from './accounts-context.ts';
import {
  adminExists,
  deleteUnusedInvitation,
  findInvitationByHash,
  findInvitationById,
  findUserById,
  insertInvitation,
  listInvitations as listInvitationRows,
  type InvitationRow,
} from './accounts.repository.ts';

type Invitation = components['schemas']['Invitation'];
type InvitationCreated = components['schemas']['InvitationCreated'];

/** An invitation token: 32 random bytes, base64url. Only its hash is stored. */
export function newInvitationToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashInvitationToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The registration address the invited person opens. */
export function invitationLink(config: Config, token: string): string {
  return `${config.publicUrl}/register?invitation=${encodeURIComponent(token)}`;
}

export interface NewInvitation {
  email: string;
  rol?: Role | undefined;
  /** default: the inviter's organisation */
  organizacion?: string | undefined;
  /** the administrator inviting (null: the operator's command line) */
  invitedBy: number | null;
}

export async function createInvitation(ctx: AccountsContext, input: NewInvitation): Promise<InvitationCreated> {
  const db = ctx.db.kysely;
  const inviter = input.invitedBy === null ? undefined : await findUserById(db, input.invitedBy);
  const token = newInvitationToken();
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + ctx.config.invitationTtlDays * 24 * 3600 * 1000).toISOString();
  const row = await insertInvitation(db, {
    token_hash: hashInvitationToken(token),
    email: input.email,
    rol: input.rol ?? 'user',
    organizacion: input.organizacion ?? inviter?.organizacion ?? null,
    created_by: inviter?.id ?? null,
    created_at: createdAt.toISOString(),
    expires_at: expiresAt,
    used_at: null,
    used_by: null,
  });
  return { id: row.id, token, link: invitationLink(ctx.config, token), email: input.email, expiresAt };
}

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    rol: row.rol,
    organizacion: row.organizacion,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
  };
}

export async function listInvitations(ctx: AccountsContext): Promise<Invitation[]> {
  return (await listInvitationRows(ctx.db.kysely)).map(toInvitation);
}

/** Revokes an unused invitation: 404 when unknown (or the first-administrator one), 409 once used. */
export async function deleteInvitation(ctx: AccountsContext, id: number): Promise<void> {
  const db = ctx.db.kysely;
  const invitation = await findInvitationById(db, id);
  if (!invitation || invitation.bootstrap === 1) throw new HttpProblem(404, 'resource-not-found', 'no such invitation');
  if (invitation.used_at !== null || !(await deleteUnusedInvitation(db, id))) {
    throw new HttpProblem(409, 'conflict', 'the invitation has been used; it can no longer be revoked');
  }
}

/**
 * The invitation a registration presents: 404 unknown, 410 used, 410 expired. The first-administrator
 * invitation stops working once an administrator exists.
 */
export async function invitationForRegistration(ctx: AccountsContext, token: string): Promise<InvitationRow> {
  const db = ctx.db.kysely;
  const invitation = await findInvitationByHash(db, hashInvitationToken(token));
  if (!invitation) throw new HttpProblem(404, 'resource-not-found', 'no such invitation');
  if (invitation.used_at !== null) throw new HttpProblem(410, 'register-invitation-was-used', 'the invitation has been used');
  const expired = invitation.expires_at !== null && invitation.expires_at <= now();
  if (expired || (invitation.bootstrap === 1 && (await adminExists(db)))) {
    throw new HttpProblem(410, 'register-invitation-expired', 'the invitation has expired');
  }
  return invitation;
}
