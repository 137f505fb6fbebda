import { formatDescription } from '../../lib/format/description.ts';
import { DescriptionBlock, type DescriptionTextProps } from './description-block.tsx';

/** A video's (long) description, sanitized with DOMPurify as R-GEN-3 asks (formatDescription). */
export function Description({ text, ...props }: DescriptionTextProps) {
  return <DescriptionBlock html={formatDescription(text)} {...props} />;
}
