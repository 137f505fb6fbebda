import type { components } from '../../../contract/openapi.gen.ts';
import type { AppContext } from '../../context.ts';
import { invalidField } from '../../plugins/problems.ts';
import { listAudit as listAuditRows, type AuditRow } from './audit.repository.ts';

// What other modules use of the audit log: record a change in their own transaction, name the caller.
export { recordAudit, type AuditActor, type AuditChange } from './audit.repository.ts';
export { auditActorOf } from './actor.ts';

export type AuditEntryAnswer = components['schemas']['AuditEntry'];

/**
 * The instant a `since` means: a date alone is its start (UTC); an instant as given. Answers it as
 * stored (ISO-8601 with milliseconds, UTC), or null when it is not a real date.
 */
export function parseSince(since: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z)?$/.exec(since);
  if (!match) return null;
  const text = match[2] ? since : `${match[1]}T00:00:00.000Z`;
  const date = new Date(text);
  // Date accepts 2026-02-31 (rolling over to March): a real date reads back the same day.
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== match[1]) return null;
  return date.toISOString();
}

const parsed = (text: string | null): Record<string, unknown> | null => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

export function toAuditEntry(row: AuditRow): AuditEntryAnswer {
  return {
    id: row.id,
    at: row.at,
    actorId: row.actor_id,
    actorNombre: row.actor_nombre,
    action: row.action,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    before: parsed(row.before),
    after: parsed(row.after),
    detail: row.detail,
  };
}

/** One page of the audit log, newest first, from `since` on; with the number of matching changes. */
export async function listAudit(
  ctx: Pick<AppContext, 'db'>,
  query: { since?: string | undefined; limit?: number | undefined; offset?: number | undefined },
): Promise<{ entries: AuditEntryAnswer[]; total: number }> {
  let since: string | undefined;
  if (query.since !== undefined) {
    since = parseSince(query.since) ?? undefined;
    if (!since) throw invalidField('query.since', 'is not a real date');
  }
  const { rows, total } = await listAuditRows(ctx.db.kysely, { limit: query.limit ?? 100, offset: query.offset ?? 0, since });
  return { entries: rows.map(toAuditEntry), total };
}
