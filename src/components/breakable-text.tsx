import { Fragment } from 'react';

/** Where a user name, an address or a file name may wrap: after a dot, underscore or hyphen, before an at sign. */
const JOINS = /(?<=[._-])(?=.)|(?=@)(?<=.)/;

/**
 * A text that wraps, when it must, where its parts join ('luis.' over 'martinez') instead of at any
 * letter ('luis.martine' over 'z'): a `<wbr>` at each join. What it reads and copies as is unchanged.
 */
export function BreakableText({ children }: { children: string }) {
  const parts = children.split(JOINS);
  // The parts of one fixed text, in order: their index is their key.
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
