import type { Kysely } from 'kysely';

/**
 * Issue 9: users gain `last_login_at` (the last sign-in that opened a session: second factor or
 * single sign-on), listed to administrators; invitations gain `replaced_at`, set when the address is
 * invited again: a replaced invitation is no longer listed and its link answers that it has expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('last_login_at', 'varchar(32)').execute();
  await db.schema.alterTable('invitations').addColumn('replaced_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invitations').dropColumn('replaced_at').execute();
  await db.schema.alterTable('users').dropColumn('last_login_at').execute();
}
