import { api } from '../../lib/api/client.ts';
import { getToken } from '../../lib/auth-token.ts';

/**
 * The session machine's `endSession` (given to the session by the signed-in area: src/routes/_auth.tsx,
 * `auth.setServerSessionEnd`; the API client is not part of the sign-in page's code).
 *
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
