import type { components } from '../../../contract/openapi.gen.ts';

type Capitulo = components['schemas']['Capitulo'];

// `m:ss`, `mm:ss` or `h:mm:ss` at the start of a line, then an optional dash and the title.
const CHAPTER_LINE = /^\s*(?:(\d{1,2}):)?(\d{1,3}):([0-5]\d)(?:\s*[-–—:|]\s*|\s+)(\S.*)$/u;

/** Seconds of a `[h:]m:ss` stamp, or null when the minutes of `h:mm:ss` pass 59. */
function secondsOf(hours: string | undefined, minutes: string, seconds: string): number | null {
  if (hours !== undefined && (minutes.length !== 2 || Number(minutes) > 59)) return null;
  return Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/**
 * The chapters of a long description (R-VID-19), by YouTube's rule: the lines that begin with a time
 * and a title, when there are at least three, the first at 0:00, each later than the one before and
 * before the video's end (`duration` 0: unknown, not checked). Otherwise none: a description that
 * only mentions a few moments has no chapters (its times still link, on the page).
 */
export function chaptersOf(description: string | null, duration: number): Capitulo[] {
  if (!description) return [];
  const chapters: Capitulo[] = [];
  for (const line of description.split(/\r\n|\r|\n/)) {
    const match = CHAPTER_LINE.exec(line);
    if (!match) continue;
    const inicio = secondsOf(match[1], match[2]!, match[3]!);
    const titulo = match[4]!.trim();
    if (inicio === null || titulo === '') return [];
    chapters.push({ inicio, titulo });
  }
  if (chapters.length < 3 || chapters[0]!.inicio !== 0) return [];
  for (let i = 1; i < chapters.length; i++) if (chapters[i]!.inicio <= chapters[i - 1]!.inicio) return [];
  if (duration > 0 && chapters[chapters.length - 1]!.inicio >= duration) return [];
  return chapters;
}
