/**
 * The subtitle files an administrator adds to a video (R-UPL-9, R-UPL-10, R-ADM-7): which files
 * are taken, the language a file's name gives, the languages offered, and the type each is sent as.
 */

/** The languages offered in the language select, Spanish first (the library's own). */
export const SUBTITLE_LANGUAGES = ['es', 'en', 'ca', 'eu', 'gl', 'fr', 'pt', 'de', 'it'] as const;
export type SubtitleLanguage = string;

/** The default language of a file whose name says none. */
export const DEFAULT_SUBTITLE_LANGUAGE = 'es';

/** What the file picker offers. */
export const SUBTITLE_ACCEPT = '.vtt,.srt,text/vtt,application/x-subrip';

/** The server's limit (openapi.yaml putSubtitles): 2 MB. */
export const MAX_SUBTITLE_BYTES = 2 * 1024 * 1024;

/** A file chosen for a language, not yet sent (the wizard sends them after Confirmar). */
export interface SubtitleChoice {
  idioma: SubtitleLanguage;
  file: File;
}

const displayNames = new Intl.DisplayNames(['es'], { type: 'language' });

/** A language's name in Spanish, capitalised as the server's `etiqueta` is (Inglés, Catalán, Euskera…). */
export function languageName(idioma: string): string {
  let name: string | undefined;
  try {
    name = displayNames.of(idioma);
  } catch {
    name = undefined;
  }
  if (!name || name === idioma) return idioma;
  return name.charAt(0).toLocaleUpperCase('es') + name.slice(1);
}

/** The select's options: the common languages by their Spanish names. */
export const languageOptions = (): Array<{ value: string; label: string }> =>
  SUBTITLE_LANGUAGES.map((idioma) => ({ value: idioma, label: languageName(idioma) }));

/** Whether the name ends in .vtt or .srt (the only files offered and sent). */
export function isSubtitleFileName(name: string): boolean {
  return /\.(vtt|srt)$/i.test(name);
}

/**
 * The language a file's name gives: the part before the extension when it is one of the offered
 * languages (`charla.en.srt` → en, `charla.pt-BR.vtt` → pt), else Spanish.
 */
export function guessSubtitleLanguage(name: string): SubtitleLanguage {
  return languageInName(name) ?? DEFAULT_SUBTITLE_LANGUAGE;
}

/** The offered language a file's name carries before its extension, or null. */
export function languageInName(name: string): SubtitleLanguage | null {
  const match = /\.([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{2,4})?\.(?:vtt|srt)$/i.exec(name);
  const tag = match?.[1]?.toLowerCase();
  return tag && (SUBTITLE_LANGUAGES as readonly string[]).includes(tag) ? tag : null;
}

/** The content type a file is sent with, from its extension (browsers give .srt no type). */
export function subtitleContentType(name: string): 'text/vtt' | 'application/x-subrip' {
  return /\.srt$/i.test(name) ? 'application/x-subrip' : 'text/vtt';
}

/**
 * A file added to the list: one file per language, so it takes the place of the one in its
 * language (the name's language, or `idioma` when the user chose one).
 */
export function withSubtitle(list: readonly SubtitleChoice[], choice: SubtitleChoice): SubtitleChoice[] {
  const at = list.findIndex((entry) => entry.idioma === choice.idioma);
  if (at < 0) return [...list, choice];
  return list.map((entry, index) => (index === at ? choice : entry));
}

/** The first offered language no file has yet (for a second file whose name says a taken one). */
export function freeLanguage(list: readonly SubtitleChoice[], wanted: SubtitleLanguage): SubtitleLanguage | null {
  if (!list.some((entry) => entry.idioma === wanted)) return wanted;
  return SUBTITLE_LANGUAGES.find((idioma) => !list.some((entry) => entry.idioma === idioma)) ?? null;
}
