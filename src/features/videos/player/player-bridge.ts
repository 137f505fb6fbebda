/**
 * What the rest of a video's page shares with its player (R-VID-22 … R-VID-27): the position as it
 * plays, the cues of each loaded subtitle track, and a way to seek. One per page (made with the
 * page, never at module level); React reads it with useSyncExternalStore, so a timeupdate re-renders
 * only what shows the time (the transcript's highlighted cue, the chapters), not the whole page.
 */
import type { Cue } from '../transcript/cues.ts';

export interface PlayerBridge {
  /** The player: its media element, or null when it goes away. */
  attach(media: HTMLVideoElement | null): void;
  /** Moves the media to `seconds` (a transcript cue, a chapter, a description's timestamp). */
  seek(seconds: number): void;
  /** The player: where the media is now. */
  publishTime(seconds: number): void;
  /** The player: the cues of the track in `language`, once it has loaded. */
  publishCues(language: string, cues: Cue[]): void;
  getTime(): number;
  getCues(): Readonly<Record<string, Cue[]>>;
  subscribeTime(listener: () => void): () => void;
  subscribeCues(listener: () => void): () => void;
}

export function createPlayerBridge(): PlayerBridge {
  let media: HTMLVideoElement | null = null;
  let time = 0;
  let cues: Readonly<Record<string, Cue[]>> = {};
  const timeListeners = new Set<() => void>();
  const cueListeners = new Set<() => void>();
  const subscribe = (listeners: Set<() => void>) => (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  return {
    attach(element) {
      media = element;
    },
    seek(seconds) {
      if (!media) return;
      const end = Number.isFinite(media.duration) ? media.duration : Number.POSITIVE_INFINITY;
      media.currentTime = Math.min(end, Math.max(0, seconds));
    },
    publishTime(seconds) {
      if (seconds === time) return;
      time = seconds;
      for (const listener of timeListeners) listener();
    },
    publishCues(language, next) {
      cues = { ...cues, [language]: next };
      for (const listener of cueListeners) listener();
    },
    getTime: () => time,
    getCues: () => cues,
    subscribeTime: subscribe(timeListeners),
    subscribeCues: subscribe(cueListeners),
  };
}
