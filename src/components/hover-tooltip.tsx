import { useEffect, useRef, useState, type PointerEvent, type ReactElement, type ReactNode } from 'react';
import { Tooltip } from '@mantine/core';

/** How long the pointer rests on the control before its tooltip shows (Mantine's `openDelay`). */
export const TOOLTIP_OPEN_DELAY_MS = 400;

export interface HoverTooltipProps {
  /** What the tooltip says. */
  label: ReactNode;
  /**
   * The control. Its accessible name must say what the tooltip says (the tooltip is for the eyes of
   * a mouse user; it is not the control's description).
   */
  children: ReactElement;
  /**
   * A click puts the tooltip away until the pointer leaves (the control opens a dialog, and a
   * tooltip left over the page would float outside it).
   */
  hideOnClick?: boolean;
  /** Where the tooltip attaches (a selector or an element; the page's body when not given). */
  portalTarget?: string | HTMLElement;
}

/**
 * A tooltip under the mouse pointer (touch screens have none, as with Mantine's default events),
 * whose Mantine part (floating positioning, its portal, the transition) is only mounted once the
 * pointer first comes over the control. The list shows three of them on every card: mounted with
 * each card they were about a tenth of the list's first render on a phone
 * (docs/decisions/0063-first-render-in-slices.md). The control is wrapped in an inline-flex span, which the tooltip is
 * placed against, so mounting the tooltip never re-creates the control under the pointer.
 */
export function HoverTooltip({ label, children, hideOnClick = false, portalTarget }: HoverTooltipProps) {
  const anchor = useRef<HTMLSpanElement>(null);
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const enter = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') return;
    setMounted(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpened(true), TOOLTIP_OPEN_DELAY_MS);
  };
  const leave = () => {
    clearTimeout(timer.current);
    setOpened(false);
  };

  return (
    <>
      <span
        ref={anchor}
        style={{ display: 'inline-flex' }}
        onPointerEnter={enter}
        onPointerLeave={leave}
        onClickCapture={hideOnClick ? leave : undefined}
      >
        {children}
      </span>
      {mounted && (
        // Fixed inside a given target: the player's frame clips what overflows it.
        <Tooltip label={label} withArrow opened={opened} target={anchor} portalProps={{ target: portalTarget }} floatingStrategy={portalTarget ? 'fixed' : 'absolute'} />
      )}
    </>
  );
}
