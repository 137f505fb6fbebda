import type { Kysely } from 'kysely';

/**
 * Sign-in attempt counts are forgotten a day after their last attempt when no lock is running
 * (server/modules/accounts/login.service.ts, STALE_LOGIN_FAILURES_MS): names nobody has (every
 * guessed name gets a row) would otherwise pile up for ever. The purge finds them by `updated_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('login_failures_updated_idx').on('login_failures').column('updated_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('login_failures_updated_idx').execute();
}
