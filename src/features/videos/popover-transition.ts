import type { PopoverProps, TransitionOverride } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** R-GEN-8: a popover opens in 400 ms and closes in 200 ms. */
export const POPOVER_OPEN_MS = 400;
export const POPOVER_CLOSE_MS = 200;

/** `transitionProps` of every popover of the list (tag, score and upload-date filters). */
export const popoverTransition: TransitionOverride = {
  transition: 'pop-top-left',
  duration: POPOVER_OPEN_MS,
  exitDuration: POPOVER_CLOSE_MS,
};

/**
 * On a phone (up to 639 px, R-GEN-9) a filter popover covers much of the screen: it dims the page
 * under it, and a tap outside only closes it. Without the overlay the popover half-covered the
 * cards' buttons, leaving slivers too small to tap that a tap meant to close it could hit (WCAG 2.5.8,
 * found by axe; R-A11Y-1).
 */
export function usePopoverOverlay(): Pick<PopoverProps, 'withOverlay' | 'overlayProps'> {
  const phone = useMediaQuery('(max-width: 639px)', false, { getInitialValueInEffect: false });
  // Mantine's Overlay and Popover stylesheets both set the layer's position (absolute, fixed) with the
  // same weight, so which wins followed the order the page happened to load them in. Said here, it
  // no longer does: absolute, laid over the page from its top, as axe checks it (a fixed layer is not
  // seen by axe's target-size rule as covering the cards' buttons).
  return { withOverlay: phone, overlayProps: { style: { position: 'absolute' } } };
}
