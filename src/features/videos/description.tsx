import { formatDescription } from '../../lib/format/description.ts';
import { DescriptionBlock, type DescriptionBlockProps } from './description-block.tsx';

export interface DescriptionProps extends Omit<DescriptionBlockProps, 'html'> {
  /** The description with the marks of SPEC §1 (*bold*, _italic_, ~underlined~, line breaks). */
  text: string | null | undefined;
}

/** A video's (long) description, sanitized with DOMPurify as SPEC §1 asks (formatDescription). */
export function Description({ text, ...props }: DescriptionProps) {
  return <DescriptionBlock html={formatDescription(text)} {...props} />;
}
