import type { FastifyRequest } from 'fastify';
import type { AppContext, ServerModule } from '../../context.ts';
import { createMailer } from '../../mail/mailer.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { PendingPrincipal, SessionPrincipal } from '../../plugins/security.ts';
import { createInvitation, deleteInvitation, listInvitations } from './invitations.service.ts';
import { completeMfa, logout, passwordLogin, register, ssoLogin } from './login.service.ts';
import { accountsSecurity } from './security.ts';
import { makeSsoVerifier } from './sso.ts';
import { changeUser, getMe, listUsuarios, type UserChanges } from './users.service.ts';

function principalOf(request: FastifyRequest): SessionPrincipal {
  if (!request.principal) throw new HttpProblem(401, 'invalid-access-token', 'no session');
  return request.principal;
}

function pendingOf(request: FastifyRequest): PendingPrincipal {
  if (!request.pending) throw new HttpProblem(401, 'invalid-access-token', 'no pending sign-in');
  return request.pending;
}

/** The accounts module: sign-in (password + TOTP, single sign-on), registration, users, invitations. */
export function accountsModule(ctx: AppContext): ServerModule {
  const sso = makeSsoVerifier(ctx.config.sso);
  const delivery = { mailer: createMailer(ctx.config), log: ctx.log };
  return {
    name: 'accounts',
    security: accountsSecurity(ctx),
    handlers: {
      login: async (request) => {
        const body = request.body;
        return 'taoToken' in body ? ssoLogin(ctx, sso, body.taoToken) : passwordLogin(ctx, body.user, body.password);
      },
      mfa: async (request) => completeMfa(ctx, pendingOf(request), request.body),
      register: async (request) => register(ctx, request.body),
      getMe: async (request) => getMe(ctx, principalOf(request).userId),
      logout: async (request, reply) => {
        await logout(ctx, principalOf(request));
        reply.code(204).send();
      },

      listUsuarios: async () => listUsuarios(ctx),
      patchUsuario: async (request) => {
        const changes: UserChanges = {};
        for (const operation of request.body) {
          if (operation.path === '/rol') changes.rol = operation.value;
          else changes.bloqueado = operation.value;
        }
        return changeUser(ctx, principalOf(request).userId, request.params.id, changes);
      },

      listInvitations: async () => listInvitations(ctx),
      createInvitation: async (request, reply) => {
        const { email, rol, organizacion } = request.body;
        const created = await createInvitation(ctx, { email, rol, organizacion, invitedBy: principalOf(request).userId }, delivery);
        reply.code(201);
        return created;
      },
      deleteInvitation: async (request, reply) => {
        await deleteInvitation(ctx, request.params.id, principalOf(request).userId);
        reply.code(204).send();
      },
    },
  };
}
