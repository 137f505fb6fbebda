import type { Kysely } from 'kysely';

/**
 * Issue 13 (several instances): the processing of an uploaded video is leased. An instance claims a
 * row in `processing` with one conditional update (`claimed_by` its id, `claimed_until` an instant a
 * minute ahead) only while nobody holds an unexpired lease, renews the lease while it works, and
 * clears both with the outcome. A lease that ran out (its instance died) is claimed by another.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('claimed_by', 'varchar(100)').execute();
  await db.schema.alterTable('uploads').addColumn('claimed_until', 'varchar(32)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('claimed_until').execute();
  await db.schema.alterTable('uploads').dropColumn('claimed_by').execute();
}
