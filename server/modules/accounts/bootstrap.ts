import crypto from 'node:crypto';
import { sql } from 'kysely';
import { now } from '../../db/database.ts';
import type { AccountsContext } from './accounts-context.ts';
import {
  adminExists,
  deleteUnusedBootstrapInvitations,
  findUnusedBootstrapInvitation,
  insertInvitation,
  setInvitationTokenHash,
  type Executor,
} from './accounts.repository.ts';
import { hashInvitationToken, invitationLink } from './invitations.service.ts';

/**
 * The first-administrator invitation's token is derived from the URL key and its id, never stored
 * (only its hash is), so the same link can be printed on every start until it is used.
 */
function bootstrapToken(ctx: AccountsContext, invitationId: number): string {
  return crypto.createHmac('sha256', ctx.secrets.urlKey).update(`bootstrap-admin:${invitationId}`).digest('base64url');
}

/** The PostgreSQL advisory lock key of the first-administrator invitation (any bigint of our own). */
const BOOTSTRAP_LOCK = 7_613_204_551;

/**
 * The registration link of the first administrator, while no administrator exists (null after).
 * Reuses the unused first-administrator invitation (rol admin, no expiry) or creates it. In one
 * transaction, on PostgreSQL under an advisory lock: instances starting at once on one database
 * make one invitation and print the same link.
 */
export async function firstAdministratorLink(ctx: AccountsContext): Promise<string | null> {
  return ctx.db.kysely.transaction().execute(async (db) => {
    if (ctx.db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`.execute(db);
    return bootstrapLink(ctx, db);
  });
}

async function bootstrapLink(ctx: AccountsContext, db: Executor): Promise<string | null> {
  if (await adminExists(db)) {
    await deleteUnusedBootstrapInvitations(db);
    return null;
  }
  const invitation =
    (await findUnusedBootstrapInvitation(db)) ??
    (await insertInvitation(db, {
      // replaced below by the hash of the derived token, which needs the id
      token_hash: `bootstrap:${crypto.randomBytes(16).toString('hex')}`,
      email: null,
      rol: 'admin',
      organizacion: null,
      created_by: null,
      created_at: now(),
      expires_at: null,
      used_at: null,
      used_by: null,
      bootstrap: 1,
    }));
  const token = bootstrapToken(ctx, invitation.id);
  const tokenHash = hashInvitationToken(token);
  // (also when the URL key has changed since the invitation was made)
  if (invitation.token_hash !== tokenHash) await setInvitationTokenHash(db, invitation.id, tokenHash);
  return invitationLink(ctx.config, token);
}
