import type { MouseEventHandler } from 'react';
import { Text, type TextProps } from '@mantine/core';

export interface DescriptionBlockProps extends TextProps {
  /** The description's HTML: only br, strong, em and u, without attributes (src/lib/format/description-markup.ts). */
  html: string;
  /** Lines shown before an ellipsis (cards); all when not given (detail page). */
  lineClamp?: number;
  /** The detail page's timestamps: one listener for the buttons inside the HTML. */
  onClick?: MouseEventHandler<HTMLDivElement>;
}

/** What Description and ShortDescription take: the description's text instead of its HTML. */
export interface DescriptionTextProps extends Omit<DescriptionBlockProps, 'html'> {
  /** The description with the marks of R-GEN-3 (*bold*, _italic_, ~underlined~, line breaks). */
  text: string | null | undefined;
}

/** A description's formatted text (R-GEN-3 marks), as the card and the detail page show it. */
export function DescriptionBlock({ html, lineClamp, ...textProps }: DescriptionBlockProps) {
  return (
    <Text
      component="div"
      size="sm"
      lineClamp={lineClamp}
      {...textProps}
      // Safe: the callers give markupDescription's or formatDescription's HTML (the text escaped, then only the four marks' elements).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
