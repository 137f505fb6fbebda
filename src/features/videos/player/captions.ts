/**
 * R-VID-20, R-VID-21: which subtitle track shows over the picture and which one the transcript reads
 * (docs/decisions/0123-default-caption-language.md). Page state, not the playback machine's: it
 * neither waits on the media nor is saved.
 */
import { useState } from 'react';

/** The page's language: its captions show by default. */
export const PAGE_LANGUAGE = 'es';

/** The page's language (es, or a regional es-…) when the video has it, else null: no captions shown. */
export function defaultCaptionLanguage(languages: readonly string[]): string | null {
  return languages.find((tag) => tag === PAGE_LANGUAGE) ?? languages.find((tag) => tag.startsWith(`${PAGE_LANGUAGE}-`)) ?? null;
}

/**
 * A track's mode: 'showing' for the captions, 'hidden' for every other (the browser loads and parses
 * its cues without drawing them: the transcript reads them). Never 'disabled': Chromium's automatic
 * track selection turns on a track the page never set once captions have been shown and are turned
 * off (docs/decisions/0121-captions-as-track-elements.md).
 */
export function trackMode(language: string, captions: string | null): TextTrackMode {
  return language === captions ? 'showing' : 'hidden';
}

export interface CaptionChoice {
  /** The language shown over the picture, null for 'Desactivados'. */
  captions: string | null;
  /** The language the transcript reads (null when the video has no tracks). */
  transcript: string | null;
  /** The 'Subtítulos' menu: a language, or null. The transcript follows a chosen language. */
  choose: (language: string | null) => void;
  /** The transcript's own language switch. */
  chooseTranscript: (language: string) => void;
  /** `c`: off, or back on in the last language shown (the default, else the first). */
  toggle: () => void;
}

export function useCaptionChoice(languages: readonly string[]): CaptionChoice {
  const initial = defaultCaptionLanguage(languages);
  const [captions, setCaptions] = useState<string | null>(initial);
  const [lastShown, setLastShown] = useState<string | null>(initial);
  const [transcriptChoice, setTranscript] = useState<string | null>(initial);
  // A language the video no longer has (a track removed meanwhile) falls back like a first opening.
  const has = (language: string | null): language is string => language !== null && languages.includes(language);
  const shown = has(captions) ? captions : null;
  const transcript = has(transcriptChoice) ? transcriptChoice : (shown ?? languages[0] ?? null);
  const choose = (language: string | null) => {
    setCaptions(language);
    if (language !== null) {
      setLastShown(language);
      setTranscript(language);
    }
  };
  return {
    captions: shown,
    transcript,
    choose,
    chooseTranscript: setTranscript,
    toggle: () => choose(shown !== null ? null : has(lastShown) ? lastShown : (defaultCaptionLanguage(languages) ?? languages[0] ?? null)),
  };
}
