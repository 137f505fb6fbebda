import type { TransitionOverride } from '@mantine/core';

/** SPEC.md §4/§9: a popover opens in 400 ms and closes in 200 ms. */
export const POPOVER_OPEN_MS = 400;
export const POPOVER_CLOSE_MS = 200;

/** `transitionProps` of every popover of the list (tag, score and upload-date filters). */
export const popoverTransition: TransitionOverride = {
  transition: 'pop-top-left',
  duration: POPOVER_OPEN_MS,
  exitDuration: POPOVER_CLOSE_MS,
};
