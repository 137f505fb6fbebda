import { now } from '../../db/database.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { SecuritySchemes } from '../../plugins/security.ts';
import type { AccountsContext } from './accounts-context.ts';
import { findPendingLogin, findSessionUser } from './accounts.repository.ts';
import { bearerToken, verifyPendingToken, verifySessionToken } from './tokens.ts';

const invalidToken = () => new HttpProblem(401, 'invalid-access-token', 'the access token is not valid');

/** The `session` and `mfaPending` security schemes of openapi.yaml. */
export function accountsSecurity(ctx: AccountsContext): Pick<SecuritySchemes, 'session' | 'mfaPending'> {
  return {
    /**
     * A session token whose user still exists, is not blocked and has the token's version (blocking
     * or a role change revokes every older token at once), whose session was not ended (POST
     * /api/logout), with one of the required roles.
     */
    async session(request, roles) {
      const claims = await verifySessionToken(ctx.secrets.tokenKey, bearerToken(request));
      // read at every request: blocking a user, a role change or a logout applies to the very next one
      const user = await findSessionUser(ctx.db.kysely, claims.userId, claims.sessionId);
      if (!user || user.bloqueado === 1 || user.token_version !== claims.tv || user.sessionEnded) throw invalidToken();
      if (roles.length > 0 && !roles.includes(user.rol)) {
        throw new HttpProblem(403, 'unauthorized-role', `this operation needs the role ${roles.join(' or ')}`);
      }
      request.principal = { userId: user.id, user: user.username, role: user.rol, session: { id: claims.sessionId, expiresAt: claims.expiresAt } };
    },

    /** A pending token whose sign-in is still waiting for its second factor. */
    async mfaPending(request) {
      const claims = await verifyPendingToken(ctx.secrets.tokenKey, bearerToken(request));
      const pending = await findPendingLogin(ctx.db.kysely, claims.pendingId);
      if (!pending || pending.user_id !== claims.userId || pending.expires_at <= now()) throw invalidToken();
      request.pending = claims;
    },
  };
}
