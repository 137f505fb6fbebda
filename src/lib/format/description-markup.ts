/**
 * R-GEN-3: line breaks become breaks; *text* is bold; _text_ is
 * italic; ~text~ is underlined. This module makes that HTML; description.ts sanitizes it as the
 * spec asks for the long description (docs/decisions/0056-description-markup-and-sanitizing.md).
 *
 * The text is never trusted as HTML: every character that means something in HTML is escaped
 * first (so `<img onerror=…>`, `<script>` or a `javascript:` link are shown as the text the author
 * typed), then the four marks are turned into `<br>`, `<strong>`, `<em>` and `<u>`, without
 * attributes.
 *
 * A mark pair works as in chat apps: it opens at the start of the text or after a character that
 * is not a letter or digit, its content neither starts nor ends with a space, it does not cross a
 * line break, and it closes before a non-letter/digit. So `snake_case_name`, `2*3*4` or
 * `~/carpeta/` stay as typed. Marks may nest (`*_ambas_*`).
 */
export const DESCRIPTION_TAGS = ['br', 'strong', 'em', 'u'] as const;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

const MARKS: ReadonlyArray<readonly [mark: string, tag: (typeof DESCRIPTION_TAGS)[number]]> = [
  ['*', 'strong'],
  ['_', 'em'],
  ['~', 'u'],
];

function markPattern(mark: string): RegExp {
  // Only `*` is a regex syntax character; `\_` and `\~` are invalid escapes under the u flag.
  const m = mark.replace(/[*]/g, '\\$&');
  // (before)(mark)(content: no mark, no line break, not starting/ending with a space)(mark)(after)
  return new RegExp(`(^|[^\\p{L}\\p{N}${m}])${m}(?=\\S)([^${m}\\n]*?[^\\s${m}])${m}(?![\\p{L}\\p{N}${m}])`, 'gu');
}

const PATTERNS = MARKS.map(([mark, tag]) => [markPattern(mark), tag] as const);

/**
 * The HTML of a description's marks: the text escaped, then the marks as `<br>`, `<strong>`, `<em>`
 * and `<u>` without attributes. Safe by construction (no character of the text can open a tag or an
 * attribute); the cards show the short description with it, without DOMPurify's code (about 9 KB compressed) in the list's first load.
 */
export function markupDescription(text: string | null | undefined): string {
  if (!text) return '';
  let html = escapeHtml(text.replace(/\r\n?/g, '\n'));
  for (const [pattern, tag] of PATTERNS) {
    html = html.replace(pattern, (_match, before: string, content: string) => `${before}<${tag}>${content}</${tag}>`);
  }
  return html.replace(/\n/g, '<br>');
}
