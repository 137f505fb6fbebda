import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * PostgreSQL: each cue also keeps the 2-, 3- and 4-letter prefixes of its words as lexemes `pre*`
 * (a `*` is never part of a word), the way SQLite's cues_fts indexes prefixes, and one GIN index
 * holds both the words and the prefixes. A search's last word is a prefix; as `pre:*` GIN gathered
 * the postings of every word it starts, in full, before intersecting with the other words (tens of
 * ms per statement at 10,000 videos); `pre*` is one exact lexeme, intersected within the scan.
 * `prefixes` is a stored generated column (the writers need not know about it): in the index
 * alone, as an expression, every lossy bitmap page made PostgreSQL compute it again for each cue
 * on the page, minutes for a common prefix searched alone. The queries are in
 * server/modules/videos/search.ts (docs/decisions/0139-cue-prefix-terms-on-postgresql.md).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  // plpgsql: about half the cost of the same in one SQL statement, paid once per cue written
  await sql`create function cue_prefixes(document tsvector) returns tsvector
    language plpgsql immutable strict parallel safe as $$
    declare
      prefixes text[] := '{}';
      lexeme text;
    begin
      foreach lexeme in array tsvector_to_array(document) loop
        if length(lexeme) >= 2 then prefixes := prefixes || (left(lexeme, 2) || '*'); end if;
        if length(lexeme) >= 3 then prefixes := prefixes || (left(lexeme, 3) || '*'); end if;
        if length(lexeme) >= 4 then prefixes := prefixes || (left(lexeme, 4) || '*'); end if;
      end loop;
      return array_to_tsvector(prefixes);
    end
  $$`.execute(db);
  await sql`drop index video_cues_document_idx`.execute(db);
  await sql`alter table video_cues add column prefixes tsvector generated always as (cue_prefixes(document)) stored`.execute(db);
  await sql`set local maintenance_work_mem = '256MB'`.execute(db);
  await sql`create index video_cues_terms_idx on video_cues using gin (document, prefixes)`.execute(db);
  await sql`analyze video_cues`.execute(db);
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`drop index video_cues_terms_idx`.execute(db);
  await sql`alter table video_cues drop column prefixes`.execute(db);
  await sql`drop function cue_prefixes(tsvector)`.execute(db);
  await sql`create index video_cues_document_idx on video_cues using gin (document)`.execute(db);
}
