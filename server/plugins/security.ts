import type { FastifyRequest } from 'fastify';
import type { components } from '../../contract/openapi.gen.ts';
import type { SecurityRequirement } from '../openapi/contract.ts';
import { HttpProblem } from './problems.ts';

export type Role = components['schemas']['Role'];

/** Who is calling, once the session token is verified. */
export interface SessionPrincipal {
  userId: number;
  user: string;
  role: Role;
  /** the session token's id (none in tokens issued before ids) and expiry (s), for ending it (POST /api/logout) */
  session: { id?: string; expiresAt: number };
}

/** A sign-in waiting for its second factor (the pending token of login/register). */
export interface PendingPrincipal {
  pendingId: string;
  userId: number;
  user: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: SessionPrincipal | null;
    pending: PendingPrincipal | null;
  }
}

/**
 * The security schemes of openapi.yaml. Each verifies its credential and sets the principal,
 * or throws an HttpProblem. `roles` are the scheme's roles in openapi.yaml (e.g. `session: [admin]`).
 */
export interface SecuritySchemes {
  session(request: FastifyRequest, roles: string[]): Promise<void>;
  mfaPending(request: FastifyRequest, roles: string[]): Promise<void>;
  xsrf(request: FastifyRequest, roles: string[]): Promise<void>;
}

/**
 * Checks an operation's security: the requirements are alternatives (OR), the schemes inside one
 * requirement all apply (AND). An operation with no requirement (or an empty one) is public.
 */
export async function enforceSecurity(
  request: FastifyRequest,
  requirements: SecurityRequirement[],
  schemes: SecuritySchemes,
): Promise<void> {
  if (requirements.length === 0) return;
  let firstFailure: unknown;
  for (const requirement of requirements) {
    try {
      for (const [name, roles] of Object.entries(requirement)) {
        const scheme = schemes[name as keyof SecuritySchemes];
        if (!scheme) throw new HttpProblem(500, 'internal-server-error', `security scheme ${name} has no implementation`);
        await scheme(request, roles);
      }
      return;
    } catch (error) {
      firstFailure ??= error;
      request.principal = null;
      request.pending = null;
    }
  }
  throw firstFailure;
}
