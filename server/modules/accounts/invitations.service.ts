import crypto from 'node:crypto';
import type { components } from '../../../contract/openapi.gen.ts';
import type { Config } from '../../config.ts';
import { now } from '../../db/database.ts';
import { invitationMessage, type Mailer } from '../../mail/mailer.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { Role } from '../../plugins/security.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { AccountsContext } from './accounts-context.ts';
import {
  adminExists,
  deleteUnusedInvitation,
  findInvitationByHash,
  findInvitationById,
  findUserById,
  insertInvitation,
  listInvitations as listInvitationRows,
  replacePendingInvitations,
  type InvitationRow,
} from './accounts.repository.ts';
import { auditActor } from './users.service.ts';

type Invitation = components['schemas']['Invitation'];
type InvitationCreated = components['schemas']['InvitationCreated'];
type EmailDelivery = components['schemas']['EmailDelivery'];

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

/** How an invitation is e-mailed: the mailer (null: SMTP not configured) and where a failed send is logged. */
export interface InvitationDelivery {
  mailer: Mailer | null;
  log: { warn(details: object, message: string): void };
}

/**
 * Creates an invitation and, with SMTP configured, e-mails its link. Pending (unused) invitations to
 * the same address are replaced in the same transaction (no longer listed; their links answer 410
 * register-invitation-expired), which also records the creation in the audit log. The e-mail is sent
 * after the commit: a failed send is logged at warn and reported in `emailDelivery`, and the invitation
 * stays valid (its link is in the answer). Without `delivery` nothing is sent (the demo library).
 */
export async function createInvitation(ctx: AccountsContext, input: NewInvitation, delivery?: InvitationDelivery): Promise<InvitationCreated> {
  const token = newInvitationToken();
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + ctx.config.invitationTtlDays * 24 * 3600 * 1000).toISOString();
  const row = await ctx.db.kysely.transaction().execute(async (trx) => {
    const inviter = input.invitedBy === null ? undefined : await findUserById(trx, input.invitedBy);
    const replaced = await replacePendingInvitations(trx, input.email, createdAt.toISOString());
    const created = await insertInvitation(trx, {
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
    await recordAudit(trx, {
      actor: await auditActor(trx, input.invitedBy),
      action: 'invitation.created',
      subjectType: 'invitation',
      subjectId: created.id,
      after: { email: created.email, rol: created.rol, organizacion: created.organizacion, expiresAt },
      detail: replaced.length > 0 ? `replaces invitation ${replaced.join(', ')}` : null,
      at: createdAt.toISOString(),
    });
    return created;
  });
  const link = invitationLink(ctx.config, token);
  const emailDelivery = await sendInvitation(delivery, { to: input.email, link, expiresAt, rol: row.rol, organizacion: row.organizacion }, row.id);
  return { id: row.id, token, link, email: input.email, expiresAt, emailDelivery };
}

async function sendInvitation(delivery: InvitationDelivery | undefined, mail: Parameters<typeof invitationMessage>[0], id: number): Promise<EmailDelivery> {
  if (!delivery?.mailer) return 'not-configured';
  try {
    await delivery.mailer.send(invitationMessage(mail));
    return 'sent';
  } catch (error) {
    delivery.log.warn({ err: error, invitation: id, to: mail.to }, 'the invitation e-mail could not be sent; the invitation stays valid');
    return 'failed';
  }
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

/**
 * Revokes an unused invitation: 404 when unknown (or the first-administrator one, or replaced), 409
 * once used. Recorded in the audit log in the same transaction (`actorId` null: the command line).
 */
export async function deleteInvitation(ctx: AccountsContext, id: number, actorId: number | null = null): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const invitation = await findInvitationById(trx, id);
    if (!invitation || invitation.bootstrap === 1 || invitation.replaced_at !== null) {
      throw new HttpProblem(404, 'resource-not-found', 'no such invitation');
    }
    if (invitation.used_at !== null || !(await deleteUnusedInvitation(trx, id))) {
      throw new HttpProblem(409, 'conflict', 'the invitation has been used; it can no longer be revoked');
    }
    await recordAudit(trx, {
      actor: await auditActor(trx, actorId),
      action: 'invitation.revoked',
      subjectType: 'invitation',
      subjectId: id,
      before: { email: invitation.email, rol: invitation.rol, organizacion: invitation.organizacion, expiresAt: invitation.expires_at },
    });
  });
}

/**
 * The invitation a registration presents: 404 unknown, 410 used, 410 expired (also once replaced by a
 * newer invitation to the same address). The first-administrator invitation stops working once an
 * administrator exists.
 */
export async function invitationForRegistration(ctx: AccountsContext, token: string): Promise<InvitationRow> {
  const db = ctx.db.kysely;
  const invitation = await findInvitationByHash(db, hashInvitationToken(token));
  if (!invitation) throw new HttpProblem(404, 'resource-not-found', 'no such invitation');
  if (invitation.used_at !== null) throw new HttpProblem(410, 'register-invitation-was-used', 'the invitation has been used');
  const expired = invitation.replaced_at !== null || (invitation.expires_at !== null && invitation.expires_at <= now());
  if (expired || (invitation.bootstrap === 1 && (await adminExists(db)))) {
    throw new HttpProblem(410, 'register-invitation-expired', 'the invitation has expired');
  }
  return invitation;
}
