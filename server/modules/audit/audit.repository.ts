import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '../../db/schema.ts';

/** The Kysely queries of the audit log. Every function takes the database or a transaction. */
export type Executor = Kysely<Database>;
export type AuditRow = Selectable<AuditLogTable>;

/**
 * Who made a change: a signed-in user (id and name); the operator's command line is either a null
 * actor or an actor without an id that names itself (e.g. `{ id: null, nombre: 'cli' }`).
 */
export interface AuditActor {
  id: number | null;
  /** the name shown in the log (the user name at the time of the change) */
  nombre: string;
}

/** One administrative change, as a module reports it. */
export interface AuditChange {
  actor: AuditActor | null;
  /** `<subject>.<verb>`: 'tag.created', 'tag.renamed', 'tag.deleted', 'user.role-changed', 'user.blocked',
   * 'user.unblocked', 'user.otp-reset', 'invitation.created', 'invitation.revoked', 'video.created',
   * 'video.edited', 'video.deleted' */
  action: string;
  /** 'tag', 'user', 'invitation', 'video' */
  subjectType: string;
  subjectId: number | string | null;
  /** the changed fields before the change (omitted or null: nothing before, e.g. a creation) */
  before?: Record<string, unknown> | null;
  /** the changed fields after it (omitted or null: nothing after, e.g. a deletion) */
  after?: Record<string, unknown> | null;
  /** a short free text (e.g. "e-mail not sent: …") */
  detail?: string | null;
  /** ISO-8601 instant; default now */
  at?: string;
}

const json = (value: Record<string, unknown> | null | undefined): string | null => (value == null ? null : JSON.stringify(value));

/**
 * Records one administrative change. Call it with the transaction of the change itself, so the row
 * exists exactly when the change does (a refused or rolled-back change leaves none).
 */
export async function recordAudit(trx: Executor, entry: AuditChange): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      at: entry.at ?? new Date().toISOString(),
      actor_id: entry.actor?.id ?? null,
      actor_nombre: entry.actor?.nombre ?? null,
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId == null ? null : String(entry.subjectId),
      before: json(entry.before),
      after: json(entry.after),
      detail: entry.detail ?? null,
    })
    .execute();
}

/** A page of the log, newest first, optionally from an instant on; with the total of the filter. */
export async function listAudit(db: Executor, options: { limit: number; offset: number; since?: string | undefined }): Promise<{ rows: AuditRow[]; total: number }> {
  let query = db.selectFrom('audit_log');
  if (options.since) query = query.where('at', '>=', options.since);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(options.limit).offset(options.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Every change from an instant on (or all), oldest first: what the command line prints. */
export function auditSince(db: Executor, since?: string): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (since) query = query.where('at', '>=', since);
  return query.orderBy('at').orderBy('id').execute();
}
