/** The queue's rules that need no machine: the batch's limit, the transfers at a time, a file's default title. */
import { TITULO_MAX } from '../video-form/video-form.rules.ts';

/** At most this many files in one batch (R-UPL-12): the rest of a drop is left out, with a message. */
export const MAX_FILES = 50;

/** This many files transfer at a time (R-UPL-14); the others wait 'En cola'. */
export const MAX_TRANSFERS = 2;

/**
 * A file's default title (R-UPL-15): its name without the extension, separators (`_`, `-`, `.`, `+`)
 * as spaces, runs of spaces collapsed, the first letter upper-case, cut to the title's maximum
 * length: `reunion_anual-2024.mp4` → 'Reunion anual 2024'.
 */
export function titleFromFileName(name: string): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const words = stem.replace(/[_\-.+]+/g, ' ').replace(/\s+/g, ' ').trim();
  const title = words.charAt(0).toLocaleUpperCase('es') + words.slice(1);
  return [...title].slice(0, TITULO_MAX).join('').trimEnd();
}
