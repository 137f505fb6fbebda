import { queryOptions } from '@tanstack/react-query';
import type { components } from '../../../contract/openapi.gen.ts';
import { api, unwrap } from '../../lib/api/client.ts';

/**
 * The reads of 'Administrar usuarios' (R-USR-1): the users and the invitations, fetched only
 * while the dialog is open (`enabled`). Their failure is the dialog's to report (a toast, and the
 * dialog closes), not the app's 'Error obteniendo datos': `meta.reportsOwnErrors`. Each opening reads
 * them afresh (`staleTime: 0`): people register and sign in between two openings, and an
 * administrator must see them.
 *
 * Keys: `['usuarios']` (every user), `['register-invitations']` (every invitation).
 */

export type Usuario = components['schemas']['Usuario'];
export type Role = components['schemas']['Role'];
export type Invitation = components['schemas']['Invitation'];
export type InvitationCreated = components['schemas']['InvitationCreated'];

export const userKeys = {
  list: ['usuarios'] as const,
  invitations: ['register-invitations'] as const,
};

/** The query cache leaves these reads' failures to their screen (src/lib/query-client.ts). */
const ownErrors = { reportsOwnErrors: true } as const;

/** GET /api/usuarios, while `enabled`. */
export function usersQuery(enabled: boolean) {
  return queryOptions({
    queryKey: userKeys.list,
    queryFn: async ({ signal }): Promise<Usuario[]> => unwrap(await api.GET('/api/usuarios', { signal })),
    enabled,
    staleTime: 0,
    meta: ownErrors,
  });
}

/** GET /api/register-invitations, while `enabled`. */
export function invitationsQuery(enabled: boolean) {
  return queryOptions({
    queryKey: userKeys.invitations,
    queryFn: async ({ signal }): Promise<Invitation[]> => unwrap(await api.GET('/api/register-invitations', { signal })),
    enabled,
    staleTime: 0,
    meta: ownErrors,
  });
}

/** An invitation nobody has used yet and that has not expired at `now`. */
export function isPending(invitation: Invitation, now: number = Date.now()): boolean {
  return invitation.usedAt === null && (invitation.expiresAt === null || Date.parse(invitation.expiresAt) > now);
}
