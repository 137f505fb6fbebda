import { Text, type TextProps } from '@mantine/core';
import { formatDescription } from '../../lib/format/description.ts';

export interface DescriptionProps extends TextProps {
  /** The description with the marks of SPEC §1 (*bold*, _italic_, ~underlined~, line breaks). */
  text: string | null | undefined;
  /** Lines shown before an ellipsis (cards); all when not given (detail page). */
  lineClamp?: number;
}

/** A description as safe HTML: only br, strong, em and u, without attributes (see formatDescription). */
export function Description({ text, lineClamp, ...textProps }: DescriptionProps) {
  return (
    <Text
      component="div"
      size="sm"
      lineClamp={lineClamp}
      {...textProps}
      // Safe: formatDescription escapes the text and DOMPurify keeps only br/strong/em/u.
      dangerouslySetInnerHTML={{ __html: formatDescription(text) }}
    />
  );
}
