import DOMPurify from 'dompurify';

/**
 * SPEC.md §1 "Description text formatting": line breaks become breaks; *text* is bold; _text_ is
 * italic; ~text~ is underlined; the text is sanitized as HTML before display.
 *
 * The text is never trusted as HTML: every character that means something in HTML is escaped
 * first (so `<img onerror=…>`, `<script>` or a `javascript:` link are shown as the text the author
 * typed), then the four marks are turned into `<br>`, `<strong>`, `<em>` and `<u>`, and DOMPurify
 * keeps only those four elements, without attributes, as a second line of defence.
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

/** Safe HTML for a description (card or detail page), to be set as inner HTML. */
export function formatDescription(text: string | null | undefined): string {
  if (!text) return '';
  let html = escapeHtml(text.replace(/\r\n?/g, '\n'));
  for (const [pattern, tag] of PATTERNS) {
    html = html.replace(pattern, (_match, before: string, content: string) => `${before}<${tag}>${content}</${tag}>`);
  }
  html = html.replace(/\n/g, '<br>');
  return DOMPurify.sanitize(html, { ALLOWED_TAGS: [...DESCRIPTION_TAGS], ALLOWED_ATTR: [] });
}
