import type { FastifyRequest } from 'fastify';
import { HttpProblem } from '../../plugins/problems.ts';
import type { AuditActor } from './audit.repository.ts';

/** The signed-in caller as the audit log names them (id and user name). */
export function auditActorOf(request: FastifyRequest): AuditActor {
  if (!request.principal) throw new HttpProblem(401, 'invalid-access-token', 'no session');
  return { id: request.principal.userId, nombre: request.principal.user };
}
