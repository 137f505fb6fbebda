import { markupDescription } from '../../lib/format/description-markup.ts';
import { DescriptionBlock } from './description-block.tsx';
import type { DescriptionProps } from './description.tsx';

/**
 * A card's short description: the marks' HTML, escaped by construction, without DOMPurify, so the
 * list's first load does not carry it (docs/DECISIONS.md, "The cards' short descriptions without DOMPurify").
 */
export function ShortDescription({ text, ...props }: DescriptionProps) {
  return <DescriptionBlock html={markupDescription(text)} {...props} />;
}
