import { useEffect, useRef } from 'react';
import { cuesOfTrack, type Cue } from '../transcript/cues.ts';
import type { Subtitulo } from '../videos.queries.ts';

/** HTMLTrackElement.readyState once its cues are parsed. */
const LOADED = 2;

export interface SubtitleTrackProps {
  subtitle: Subtitulo;
  mode: TextTrackMode;
  /**
   * How much of the picture's height, from the bottom (0 to 1), the control bar covers: cues placed
   * by the browser (line 'auto') are lifted above it.
   */
  bottomInset: number;
  /** Its cues, as plain text, each time the file has been parsed. */
  onCues: (language: string, cues: Cue[]) => void;
}

/** Whether cues can be placed by their bottom edge (VTTCue.lineAlign: Firefox; not Blink or WebKit). */
const liftsCues = () => typeof VTTCue !== 'undefined' && 'lineAlign' in VTTCue.prototype;

/** Cues this component moved (the file's own positions are left as written). */
type LiftedCue = VTTCue & { liftedByPlayer?: true };

/**
 * R-VID-20: one language's `<track>`, a child of the player's one `<video>` (played through hls.js
 * or natively alike: docs/decisions/0121-captions-as-track-elements.md). React renders the element;
 * the browser fetches and parses the WebVTT when its mode is not 'disabled'.
 */
export function SubtitleTrack({ subtitle, mode, bottomInset, onCues }: SubtitleTrackProps) {
  const ref = useRef<HTMLTrackElement>(null);
  const onCuesRef = useRef(onCues);
  useEffect(() => {
    onCuesRef.current = onCues;
  });

  useEffect(() => {
    const track = ref.current?.track;
    if (track && track.mode !== mode) track.mode = mode;
  }, [mode]);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const publish = () => onCuesRef.current(subtitle.idioma, cuesOfTrack(element.track));
    element.addEventListener('load', publish);
    if (element.readyState === LOADED) publish();
    return () => element.removeEventListener('load', publish);
  }, [subtitle.idioma, subtitle.url]);

  useEffect(() => {
    const element = ref.current;
    // Blink and WebKit have no lineAlign: their caption box is lifted by CSS instead (captions.css).
    if (!element || !liftsCues()) return;
    const lift = () => {
      const cues = element.track?.cues;
      if (!cues) return;
      for (let index = 0; index < cues.length; index += 1) {
        const cue = cues[index] as LiftedCue;
        if (!('line' in cue) || (cue.line !== 'auto' && !cue.liftedByPlayer)) continue;
        // The cue box's bottom edge (lineAlign 'end') just above the bar, as a share of the height.
        cue.snapToLines = false;
        cue.lineAlign = 'end';
        cue.line = Math.max(50, Math.round((1 - bottomInset) * 100 - 2));
        cue.liftedByPlayer = true;
      }
    };
    element.addEventListener('load', lift);
    if (element.readyState === LOADED) lift();
    return () => element.removeEventListener('load', lift);
  }, [bottomInset, subtitle.url]);

  return <track ref={ref} kind="subtitles" srcLang={subtitle.idioma} label={subtitle.etiqueta} src={subtitle.url} />;
}
