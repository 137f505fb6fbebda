import { useEffect, useState, type RefObject } from 'react';

/** How long the controls stay after the last sign of the person while the video plays. */
export const CONTROLS_IDLE_MS = 3000;

/**
 * R-VID-30: while the video plays, the control bar fades out after `CONTROLS_IDLE_MS` without a
 * pointer move, touch or key, and comes back with any of them. It never hides while paused, while
 * focus is inside the player (a keyboard user is using it), while one of its menus is open (they
 * open inside the frame) or while the pointer rests on the bar. The bar stays in the document all
 * along (nothing is replaced); a touch while it is hidden only brings it back, as on phone players.
 */
export function useIdleControls(frameRef: RefObject<HTMLElement | null>, playing: boolean, idleMs = CONTROLS_IDLE_MS): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame || !playing) {
      setIdle(false);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let hidden = false;
    let swallowClick = false;
    let onBar = false;
    /** The last input was a key rather than a pointer (what :focus-visible tells, which jsdom does not). */
    let byKeyboard = focusVisible(document.activeElement);
    const show = (value: boolean) => {
      hidden = value;
      setIdle(value);
    };
    const held = () => {
      const focused = document.activeElement;
      // Focus brought inside by the keyboard holds the bar; a button focused by a click (or the picture) does not.
      if (byKeyboard && focused !== null && focused !== frame && frame.contains(focused) && focused.tagName !== 'VIDEO') return true;
      // A menu of the bar (or the shortcuts overlay) is open: they are portalled into the frame.
      return onBar || frame.querySelector('[role="menu"], [role="dialog"]') !== null;
    };
    const onPointerOver = (event: PointerEvent) => {
      onBar = event.pointerType === 'mouse' && event.target instanceof Element && event.target.closest('[data-player-controls]') !== null;
    };
    const onPointerLeave = () => {
      onBar = false;
    };
    const wake = () => {
      show(false);
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!held()) show(true);
      }, idleMs);
    };
    const onKeyDown = () => {
      byKeyboard = true;
      wake();
    };
    const onPointerDown = (event: PointerEvent) => {
      byKeyboard = false;
      swallowClick = hidden && event.pointerType === 'touch';
      wake();
    };
    const onClick = (event: MouseEvent) => {
      if (!swallowClick) return;
      swallowClick = false;
      event.preventDefault();
      event.stopPropagation();
    };
    const events = ['pointermove', 'focusin', 'wheel'] as const;
    for (const name of events) frame.addEventListener(name, wake, { passive: true });
    frame.addEventListener('pointerdown', onPointerDown, { capture: true });
    frame.addEventListener('click', onClick, { capture: true });
    frame.addEventListener('pointerover', onPointerOver);
    frame.addEventListener('pointerleave', onPointerLeave);
    // The shortcuts work from the page's body too: any key shows the bar.
    document.addEventListener('keydown', onKeyDown);
    wake();
    return () => {
      clearTimeout(timer);
      for (const name of events) frame.removeEventListener(name, wake);
      frame.removeEventListener('pointerdown', onPointerDown, { capture: true });
      frame.removeEventListener('click', onClick, { capture: true });
      frame.removeEventListener('pointerover', onPointerOver);
      frame.removeEventListener('pointerleave', onPointerLeave);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [frameRef, playing, idleMs]);
  return idle;
}

/** Whether the focus ring shows on `element` (a key put focus there), as the browser says. */
function focusVisible(element: Element | null): boolean {
  try {
    return element?.matches(':focus-visible') ?? false;
  } catch {
    return false;
  }
}
