import type { MouseEvent } from 'react';
import { formatDescription } from '../../lib/format/description.ts';
import { DescriptionBlock, type DescriptionTextProps } from './description-block.tsx';
import './description-timestamps.css';

export interface DescriptionProps extends DescriptionTextProps {
  /** R-VID-29: the video's duration; with `onSeek`, its timestamps up to it become buttons that seek. */
  duration?: number;
  onSeek?: (seconds: number) => void;
}

/** A video's (long) description, sanitized with DOMPurify as R-GEN-3 asks (formatDescription). */
export function Description({ text, duration, onSeek, ...props }: DescriptionProps) {
  const linked = onSeek !== undefined && duration !== undefined;
  // One listener for every timestamp's button (they come with the sanitized HTML); a button's own
  // Enter and Space click it.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-seek]') : null;
    const seconds = Number(button?.dataset.seek);
    if (button && Number.isFinite(seconds)) onSeek?.(seconds);
  };
  return <DescriptionBlock html={formatDescription(text, linked ? { timestampsUpTo: duration } : {})} onClick={linked ? onClick : undefined} {...props} />;
}
