import DOMPurify from 'dompurify';
import { DESCRIPTION_TAGS, markupDescription } from './description-markup.ts';

export interface DescriptionOptions {
  /**
   * R-VID-29: timestamps (`m:ss`, `mm:ss`, `h:mm:ss`) at or before this second become buttons
   * `<button type="button" data-seek="754">12:34</button>` (the detail page seeks with them).
   */
  timestampsUpTo?: number;
}

/**
 * A timestamp standing alone (not inside a longer number, a ratio or a decimal, nor followed by a
 * letter as in `10:30h`): `h:mm:ss`, or `m:ss` / `mm:ss`.
 */
const TIMESTAMP = /(?<![\p{L}\p{N}:.,])(?:(\d{1,2}):([0-5]\d)|([0-5]?\d)):([0-5]\d)(?![\p{L}\p{N}:]|[.,]\d)/gu;

/** The seconds of each timestamp the text holds, as `linkTimestamps` finds them. */
export function timestampSeconds(hours: string | undefined, minutes: string, seconds: string): number {
  return Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/**
 * The markup's timestamps as buttons. Runs on markupDescription's HTML, whose only tags are br,
 * strong, em and u and whose text has every `<`, `>`, `&` and quote escaped: a match is always text.
 */
function linkTimestamps(html: string, upTo: number): string {
  return html.replace(TIMESTAMP, (match: string, hours: string | undefined, longMinutes: string | undefined, shortMinutes: string | undefined, seconds: string) => {
    const at = timestampSeconds(hours, longMinutes ?? shortMinutes ?? '0', seconds);
    return at <= upTo ? `<button type="button" class="description-timestamp" data-seek="${at}">${match}</button>` : match;
  });
}

/**
 * R-GEN-3: "The long description is sanitized as HTML before display." The marks' HTML
 * (markupDescription: every character that means something in HTML escaped first, so
 * `<img onerror=…>`, `<script>` or a `javascript:` link are shown as the text the author typed,
 * then `<br>`, `<strong>`, `<em>` and `<u>`), and DOMPurify keeps only those four elements, without
 * attributes, as a second line of defence — and, with `timestampsUpTo`, the timestamps' buttons
 * (type, class and data-seek only).
 */
export function formatDescription(text: string | null | undefined, options: DescriptionOptions = {}): string {
  if (!text) return '';
  const upTo = options.timestampsUpTo;
  if (upTo === undefined) return DOMPurify.sanitize(markupDescription(text), { ALLOWED_TAGS: [...DESCRIPTION_TAGS], ALLOWED_ATTR: [] });
  return DOMPurify.sanitize(linkTimestamps(markupDescription(text), upTo), {
    ALLOWED_TAGS: [...DESCRIPTION_TAGS, 'button'],
    ALLOWED_ATTR: ['type', 'class', 'data-seek'],
  });
}
