import type { Kysely } from 'kysely';

/**
 * Sessions ended before their token expired ('Cerrar sesión', the idle time-out: POST /api/logout).
 * A session token carries its id (`jti`); the server refuses a token whose id is here. A row is
 * needed only until the token would have expired (`expires_at`); older rows are deleted as others
 * are added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ended_sessions')
    .addColumn('session_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ended_sessions_expires_idx').on('ended_sessions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ended_sessions').ifExists().execute();
}
