import { fromCallback } from 'xstate';
import type { SessionEvent } from '../../../machines/session/session.types.ts';

/** R-SES-5: mouse, keyboard, scroll or touch activity keeps the session alive. */
export const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'wheel', 'touchstart'] as const;

/** Sends 'session.activity' on any activity on the window (capture phase: scrolls of inner elements count too). */
export const listenForActivity = fromCallback<SessionEvent>(({ sendBack }) => {
  const onActivity = () => sendBack({ type: 'session.activity' });
  const options = { capture: true, passive: true } as const;
  for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, options);
  return () => {
    for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, options);
  };
});

