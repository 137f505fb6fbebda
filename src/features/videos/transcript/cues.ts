/**
 * R-VID-22 … R-VID-25: a subtitle track's cues as the transcript shows them — plain text read from
 * the browser's own parse of the WebVTT (`TextTrack.cues`), never its markup — and what the panel
 * does with them (the cue at a time, accent-free search, the `.txt` download).
 */
import { clockTime } from '../player/player-controls.tsx';

export interface Cue {
  start: number;
  end: number;
  /** The cue's words, without WebVTT tags, entities decoded, lines joined by a space. */
  text: string;
}

/** The WebVTT entities a cue may carry (the format has only these). */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f' };

/**
 * A cue's text without markup: `VTTCue.text` keeps the file's tags (`<v Ana>`, `<b>`, `<c.x>`,
 * `<00:01.000>`) and entities, so the tags are dropped and the entities decoded. The result is only
 * ever rendered as a React text node.
 */
export function plainCueText(raw: string): string {
  const withoutTags = raw.replace(/<[^>]*>/g, '');
  const decoded = withoutTags.replace(/&(amp|lt|gt|nbsp|lrm|rlm);/g, (_match, name: string) => ENTITIES[name]!);
  return decoded.replace(/\s*\n\s*/g, ' ').trim();
}

/** The cues of a loaded TextTrack, in time order (empty while it has none). */
export function cuesOfTrack(track: Pick<TextTrack, 'cues'> | null | undefined): Cue[] {
  const list = track?.cues;
  if (!list) return [];
  const cues: Cue[] = [];
  for (let index = 0; index < list.length; index += 1) {
    const cue = list[index] as (TextTrackCue & { text?: string }) | undefined;
    if (!cue) continue;
    cues.push({ start: cue.startTime, end: cue.endTime, text: plainCueText(cue.text ?? '') });
  }
  return cues.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The cue playing at `seconds` (the last one started and not ended), or -1 between cues. */
export function activeCueIndex(cues: readonly Cue[], seconds: number): number {
  let found = -1;
  for (let index = 0; index < cues.length; index += 1) {
    const cue = cues[index]!;
    if (cue.start > seconds) break;
    if (seconds < cue.end) found = index;
  }
  return found;
}

/** Lower case without diacritics (NFD, combining marks dropped): «Canción» and «cancion» compare equal. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('es');
}

/** The indexes of the cues whose text holds every word of the query, accents and case ignored. */
export function matchingCues(cues: readonly Cue[], query: string): number[] {
  const words = foldForSearch(query).split(/\s+/).filter(Boolean);
  const indexes: number[] = [];
  cues.forEach((cue, index) => {
    const text = foldForSearch(cue.text);
    if (words.every((word) => text.includes(word))) indexes.push(index);
  });
  return indexes;
}

/** The `.txt` download: one cue per line, `[0:01 - 0:04] words`. */
export function transcriptText(cues: readonly Cue[]): string {
  return cues.map((cue) => `[${clockTime(cue.start)} - ${clockTime(cue.end)}] ${cue.text}`).join('\n') + (cues.length > 0 ? '\n' : '');
}
