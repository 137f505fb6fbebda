import { startTransition, useEffect, useState } from 'react';

/**
 * False for a component's first render, true right after it, in a transition: what it guards (a
 * page's parts below its largest element) is then rendered in short slices the browser can
 * interleave with input and painting, not inside the first render's one long task
 * (docs/decisions/0063-first-render-in-slices.md).
 */
export function useAfterFirstRender(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => startTransition(() => setAfter(true)), []);
  return after;
}
