import type { ColumnType, Generated } from 'kysely';

/**
 * Table types of the database (not API types: those are generated from openapi.yaml).
 * Both dialects store booleans as 0/1 integers and instants as ISO-8601 UTC text,
 * so one set of queries serves SQLite and PostgreSQL alike.
 */
export type Flag = 0 | 1;
/** ISO-8601 UTC instant, e.g. 2026-11-21T10:00:00.000Z. */
export type Instant = string;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** lower-cased username: unique, used for look-ups. */
  username_key: string;
  nombre: string;
  email: string | null;
  rol: 'admin' | 'user';
  organizacion: string | null;
  bloqueado: ColumnType<Flag, Flag | undefined, Flag>;
  /** null for accounts provisioned by single sign-on (they never sign in with a password). */
  password_hash: string | null;
  otp_state: 'OTP_DISABLED' | 'OTP_REQUIRED' | 'OTP_ACTIVED';
  otp_secret: string | null;
  /** last accepted TOTP time step: a code is accepted once. */
  otp_last_step: number | null;
  /** bumped when the user is blocked or their role changes: older session tokens stop working. */
  token_version: ColumnType<number, number | undefined, number>;
  created_at: Instant;
  updated_at: Instant;
}

export interface InvitationsTable {
  id: Generated<number>;
  token_hash: string;
  email: string | null;
  rol: 'admin' | 'user';
  organizacion: string | null;
  created_by: number | null;
  created_at: Instant;
  /** null: never expires (the first-administrator invitation). */
  expires_at: Instant | null;
  used_at: Instant | null;
  used_by: number | null;
  bootstrap: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface LoginFailuresTable {
  /** any name tried, known or not (so a lock reveals nothing) */
  username_key: string;
  /** consecutive sign-in attempts without a right password (counted before the check) */
  failures: number;
  locked_until: Instant | null;
  updated_at: Instant;
}

export interface PendingLoginsTable {
  id: string;
  user_id: number;
  /** the secret being enrolled (OTP_DISABLED / OTP_REQUIRED); null when the user's own secret applies. */
  otp_secret: string | null;
  /** codes tried on this sign-in (counted before the check; the fifth refused one ends it) */
  failures: number;
  expires_at: Instant;
  created_at: Instant;
}

export interface Database {
  users: UsersTable;
  invitations: InvitationsTable;
  login_failures: LoginFailuresTable;
  pending_logins: PendingLoginsTable;
}
