import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { idColumn } from './helpers.ts';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await idColumn(db.schema.createTable('users'), dialect)
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('username_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('nombre', 'varchar(200)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('rol', 'varchar(16)', (c) => c.notNull().check(sqlIn('rol', ['admin', 'user'])))
    .addColumn('organizacion', 'varchar(100)')
    .addColumn('bloqueado', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('otp_state', 'varchar(16)', (c) => c.notNull().defaultTo('OTP_DISABLED'))
    .addColumn('otp_secret', 'varchar(128)')
    .addColumn('otp_last_step', 'bigint')
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await idColumn(db.schema.createTable('invitations'), dialect)
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(254)')
    .addColumn('rol', 'varchar(16)', (c) => c.notNull())
    .addColumn('organizacion', 'varchar(100)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('used_at', 'varchar(32)')
    .addColumn('used_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('bootstrap', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('username_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('pending_logins')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('otp_secret', 'varchar(128)')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pending_logins_user_idx').on('pending_logins').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['pending_logins', 'login_failures', 'invitations', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

function sqlIn(column: string, values: string[]) {
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}
