import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../db/database.ts';

/**
 * Free-text search of the video list: one index per dialect, the same rules on both.
 * - SQLite: the FTS5 table `videos_fts` (tokenizer `unicode61 remove_diacritics 2` folds case and
 *   diacritics on both the documents and the query), ranked by bm25 with column weights.
 * - PostgreSQL: `video_search.document`, a tsvector built with the `simple` configuration from text
 *   folded here in JS (lower case, no diacritics), weighted A title, B short description and tags,
 *   C long description; GIN index; ranked by ts_rank.
 * Every word of the query must match; the last one also as a prefix (the user may still be typing).
 * The query never reaches either engine as syntax: it is cut into words of letters, digits and marks,
 * each quoted (FTS5) or joined with `&` (tsquery), so quotes, `*`, `-`, `:`, `&`, `|`, `!` and
 * parentheses only separate words.
 */

/** Lower case, without diacritics (NFD, marks removed): `Camión` → `camion`, `REUNIÓN` → `reunion`. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().normalize('NFC');
}

/** The text a video is found by, as PostgreSQL indexes it: folded words separated by spaces. */
export function foldedWords(text: string | null | undefined): string {
  return (foldText(text ?? '').match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

const MAX_WORDS = 32;

/** The words of a query (at most 32), as each dialect wants them; empty: the query has no words. */
export function queryWords(q: string, dialect: DialectName): string[] {
  const words =
    dialect === 'postgres'
      ? (foldText(q).match(/[\p{L}\p{N}]+/gu) ?? [])
      : // FTS5 folds case and Latin diacritics itself; marks stay so other scripts tokenise as indexed.
        (q.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? []);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/** FTS5 MATCH expression: `"w1" "w2" "last"*` (implicit AND; the words hold no quotes). */
export function ftsMatchExpression(words: string[]): string {
  return words.map((w, i) => `"${w.replace(/"/g, '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/** to_tsquery text: `w1 & w2 & last:*` (the words are letters and digits only). */
export function tsQueryText(words: string[]): string {
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
}

/** The lengths of the prefixes PostgreSQL keeps as lexemes `pre*` in `video_cues.prefixes` (migration 2026-12-03T1300). */
const CUE_PREFIXES = { shortest: 2, longest: 4 };

/**
 * PostgreSQL: the condition that cue `k` matches the words, on the GIN index of (document,
 * prefixes) (docs/decisions/0139-cue-prefix-terms-on-postgresql.md). A `:*` in an index condition
 * makes GIN gather every posting of every word it starts before it intersects, so the index is
 * asked only for exact lexemes: the whole words in `document`, the last word's prefix lexeme
 * (`pre*`) in `prefixes`. A last word longer than the kept prefixes is asked as its first 4
 * letters, and the cues found are then tested with the real query; a 1-letter one is left to that
 * test. Alone, such a word is asked as `w:*`: gathering its postings costs what reading its matches does.
 */
export function cueCondition(words: string[], alias: string): RawBuilder<unknown> {
  const document = sql.id(alias, 'document');
  const exact = words.slice(0, -1);
  const last = words[words.length - 1]!;
  const letters = [...last];
  const conditions: RawBuilder<unknown>[] = [];
  if (exact.length > 0) conditions.push(sql`${document} @@ to_tsquery('simple', ${exact.join(' & ')})`);
  else if (letters.length < CUE_PREFIXES.shortest || letters.length > CUE_PREFIXES.longest) return sql`${document} @@ to_tsquery('simple', ${tsQueryText(words)})`;
  if (letters.length >= CUE_PREFIXES.shortest) {
    conditions.push(sql`${sql.id(alias, 'prefixes')} @@ ${`'${letters.slice(0, CUE_PREFIXES.longest).join('')}*'`}::tsquery`);
  }
  // ts_match_vq is @@ as a function, which no index answers: the real query tests the cues found
  // and is never asked of the index, where `:*` would cost the expansion again
  if (letters.length < CUE_PREFIXES.shortest || letters.length > CUE_PREFIXES.longest) {
    conditions.push(sql`ts_match_vq(${document}, to_tsquery('simple', ${tsQueryText(words)}))`);
  }
  return sql`(${sql.join(conditions, sql` and `)})`;
}

/** bm25 weights of videos_fts's columns: titulo, descripcion_corta, etiquetas, descripcion. */
export const FTS_WEIGHTS = sql.raw('10.0, 4.0, 4.0, 1.0');

/** The text of one video for the index. */
export interface SearchDocument {
  titulo: string;
  descripcionCorta: string;
  descripcion: string | null;
  etiquetas: string[];
}

/** The PostgreSQL tsvector expression of a document. */
export function tsVectorOf(doc: SearchDocument): RawBuilder<unknown> {
  const part = (text: string, weight: 'A' | 'B' | 'C') => sql`setweight(to_tsvector('simple', ${text}), ${sql.lit(weight)})`;
  return sql`${part(foldedWords(doc.titulo), 'A')} || ${part(foldedWords(doc.descripcionCorta), 'B')} || ${part(
    foldedWords(doc.etiquetas.join(' ')),
    'B',
  )} || ${part(foldedWords(doc.descripcion), 'C')}`;
}

/** A matched word of a cue: UTF-16 offsets into its text, `hasta` excluded. */
export interface Marca {
  desde: number;
  hasta: number;
}

/**
 * The words of `text` the query matched (R-LIB-20): each word of the original text folded as the
 * query is and compared with the query's folded words, whole for all but the last, as a prefix for
 * the last (the same rule as the engines'). Offsets are String indices, so UTF-16 code units.
 */
export function matchedWords(text: string, q: string): Marca[] {
  const words = foldText(q).match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return [];
  const whole = new Set(words.slice(0, -1));
  const prefix = words[words.length - 1]!;
  const marcas: Marca[] = [];
  // marks belong to their word (an NFD "é" is one word, as the engines read it)
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu)) {
    const folded = foldText(match[0]);
    if (whole.has(folded) || folded.startsWith(prefix)) marcas.push({ desde: match.index, hasta: match.index + match[0].length });
  }
  return marcas;
}
