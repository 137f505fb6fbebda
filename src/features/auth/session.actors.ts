import { fromCallback } from 'xstate';
import type { SessionEvent } from '../../../machines/session/session.types.ts';
import { api } from '../../lib/api/client.ts';
import { getToken } from '../../lib/auth-token.ts';

/** SPEC.md §4: mouse, keyboard, scroll or touch activity keeps the session alive. */
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

/**
 * Asks the server to end the stored token's session (POST /api/logout) as the session is left
 * ('Cerrar sesión', the idle time-out): a copy of the token kept elsewhere is refused from then on.
 * The token is read now and sent explicitly, because the browser forgets it right after; the call
 * outlives a page reload (`keepalive`). Its answer changes nothing: the browser forgets the token
 * either way, and a session the server could not end still expires on its own.
 */
export function endServerSession(): void {
  const token = getToken();
  if (!token) return;
  api.POST('/api/logout', { headers: { Authorization: `Bearer ${token}` }, keepalive: true }).catch(() => undefined);
}
