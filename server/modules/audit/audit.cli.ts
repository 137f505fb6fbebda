import type { AppContext } from '../../context.ts';
import { auditSince, type AuditRow } from './audit.repository.ts';
import { parseSince } from './audit.service.ts';

/** A refused `since` (the command line shows the usage). */
export class AuditSinceError extends Error {}

const show = (value: unknown) => JSON.stringify(value);

/** The change of a row in one line: `field: before → after` for each field (creations and deletions show one side). */
export function describeChange(row: Pick<AuditRow, 'before' | 'after'>): string {
  const before = row.before === null ? null : (JSON.parse(row.before) as Record<string, unknown>);
  const after = row.after === null ? null : (JSON.parse(row.after) as Record<string, unknown>);
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields
    .map((field) => {
      if (!before || !(field in before)) return `${field}: ${show(after![field])}`;
      if (!after || !(field in after)) return `${field}: ${show(before[field])} → (gone)`;
      return `${field}: ${show(before[field])} → ${show(after[field])}`;
    })
    .join('; ');
}

/**
 * `npm run cli -- audit [--since DATE]`: every recorded change from DATE on (a date or a UTC instant;
 * default all), oldest first, one line each: when, who (`(cli)` for the command line), what, on which
 * subject, and the fields before → after.
 */
export async function formatAuditLog(ctx: Pick<AppContext, 'db'>, options: { since?: string | undefined } = {}): Promise<string> {
  let since: string | undefined;
  if (options.since !== undefined) {
    since = parseSince(options.since) ?? undefined;
    if (!since) throw new AuditSinceError('--since must be a date (2026-11-22) or a UTC instant (2026-11-22T10:00:00Z)');
  }
  const rows = await auditSince(ctx.db.kysely, since);
  if (rows.length === 0) return since ? `No changes recorded since ${since}.` : 'No changes recorded yet.';
  const header = ['at', 'actor', 'action', 'subject', 'change'];
  const cells = rows.map((r) => [
    r.at,
    r.actor_nombre ?? (r.actor_id === null ? '(cli)' : `#${r.actor_id}`),
    r.action,
    `${r.subject_type}${r.subject_id === null ? '' : ` ${r.subject_id}`}`,
    [describeChange(r), r.detail].filter(Boolean).join(' — '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
