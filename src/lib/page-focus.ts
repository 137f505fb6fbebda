/**
 * Where focus goes when a page is shown (R-GEN-5, WCAG 2.4.3): the element the page marks with
 * `data-page-focus` (the sign-in form's first field), else its main heading (made focusable with
 * tabIndex -1, so that a screen reader announces the new page and Tab continues from there).
 */
export const PAGE_FOCUS_ATTRIBUTE = 'data-page-focus';

function pageFocusTarget(headingToo: boolean): HTMLElement | null {
  const field = document.querySelector<HTMLElement>(`[${PAGE_FOCUS_ATTRIBUTE}]`);
  if (field) return field;
  if (!headingToo) return null;
  return document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
}

function focusTarget(target: HTMLElement): void {
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

/**
 * Moves focus to the shown page's target as soon as it is in the document (a page's code or data may
 * still be loading). Gives up when the user acts first (a key, a pointer), after `timeoutMs`, or when
 * the returned function is called (the next navigation). `headingToo` is false on the first page of
 * a visit: the browser starts at the top then, and only a form's first field takes the focus.
 *
 * Until then it keeps watching: when the element it focused leaves the document before the user
 * acts (the page shown a moment longer, then replaced), focus would fall back to the document's body,
 * so it goes to the page's target again. Focus the page itself moved elsewhere (a dialog) is left alone.
 */
export function focusPageWhenShown({ headingToo, timeoutMs = 10_000 }: { headingToo: boolean; timeoutMs?: number }): () => void {
  let focused: HTMLElement | undefined;
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    window.removeEventListener('keydown', stop, true);
    window.removeEventListener('pointerdown', stop, true);
  };
  const attempt = () => {
    const active = document.activeElement;
    if (focused) {
      if (focused.isConnected && active === focused) return;
      // Moved by the page (or the user) to something else: theirs to keep.
      if (active !== null && active !== document.body && active !== focused) {
        stop();
        return;
      }
    }
    const target = pageFocusTarget(headingToo);
    if (!target) return;
    focusTarget(target);
    focused = target;
  };
  const observer = new MutationObserver(attempt);
  observer.observe(document.body, { childList: true, subtree: true });
  window.addEventListener('keydown', stop, true);
  window.addEventListener('pointerdown', stop, true);
  const timer = setTimeout(stop, timeoutMs);
  attempt();
  return stop;
}
