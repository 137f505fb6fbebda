import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/**
 * PostgreSQL: the cues' GIN index also holds the 2-, 3- and 4-letter prefixes of every word, as
 * lexemes `pre*` (a `*` is never part of a word), the way SQLite's cues_fts indexes prefixes. A
 * search's last word is a prefix; as `pre:*` GIN gathered the postings of every word it starts, in
 * full, before intersecting with the other words (tens of ms per statement at 10,000 videos). The
 * prefixes are made by `cue_search_terms` from the stored tsvector, in the index only (the table
 * does not grow); the queries name the same expression (server/modules/videos/search.ts). The
 * plain index on `document` goes: every cue query now uses this one
 * (docs/decisions/0139-cue-prefix-terms-on-postgresql.md).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  // plpgsql: about half the cost of the same in one SQL statement, paid once per cue written
  await sql`create function cue_search_terms(document tsvector) returns tsvector
    language plpgsql immutable strict parallel safe cost 500 as $$
    declare
      prefixes text[] := '{}';
      lexeme text;
    begin
      foreach lexeme in array tsvector_to_array(document) loop
        if length(lexeme) >= 2 then prefixes := prefixes || (left(lexeme, 2) || '*'); end if;
        if length(lexeme) >= 3 then prefixes := prefixes || (left(lexeme, 3) || '*'); end if;
        if length(lexeme) >= 4 then prefixes := prefixes || (left(lexeme, 4) || '*'); end if;
      end loop;
      return document || array_to_tsvector(prefixes);
    end
  $$`.execute(db);
  await sql`set local maintenance_work_mem = '256MB'`.execute(db);
  await sql`create index video_cues_terms_idx on video_cues using gin (cue_search_terms(document))`.execute(db);
  await sql`drop index video_cues_document_idx`.execute(db);
  // statistics of the indexed expression, so the planner estimates its matches from the start
  await sql`analyze video_cues`.execute(db);
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create index video_cues_document_idx on video_cues using gin (document)`.execute(db);
  await sql`drop index video_cues_terms_idx`.execute(db);
  await sql`drop function cue_search_terms(tsvector)`.execute(db);
}
