import DOMPurify from 'dompurify';
import { DESCRIPTION_TAGS, markupDescription } from './description-markup.ts';

/**
 * R-GEN-3: "The long description is sanitized as HTML before display." The marks' HTML
 * (markupDescription: every character that means something in HTML escaped first, so
 * `<img onerror=…>`, `<script>` or a `javascript:` link are shown as the text the author typed,
 * then `<br>`, `<strong>`, `<em>` and `<u>`), and DOMPurify keeps only those four elements, without
 * attributes, as a second line of defence.
 */
export function formatDescription(text: string | null | undefined): string {
  if (!text) return '';
  return DOMPurify.sanitize(markupDescription(text), { ALLOWED_TAGS: [...DESCRIPTION_TAGS], ALLOWED_ATTR: [] });
}
