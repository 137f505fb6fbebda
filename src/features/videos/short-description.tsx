import { markupDescription } from '../../lib/format/description-markup.ts';
import { DescriptionBlock, type DescriptionTextProps } from './description-block.tsx';

/**
 * A card's short description: the marks' HTML, escaped by construction, without DOMPurify, so the
 * list's first load does not carry it (docs/decisions/0056-description-markup-and-sanitizing.md).
 */
export function ShortDescription({ text, ...props }: DescriptionTextProps) {
  return <DescriptionBlock html={markupDescription(text)} {...props} />;
}
