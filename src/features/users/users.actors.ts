import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { createDialogMachine } from '../../../machines/dialog/dialog.machine.ts';
import type { DialogWorkInput } from '../../../machines/dialog/dialog.types.ts';
import type { ToastInput } from '../../../machines/toast/toast.types.ts';
import { api, unwrap } from '../../lib/api/client.ts';
import { isApiError } from '../../lib/api/api-error.ts';
import { userAdminMessages } from '../../lib/messages.ts';
import type { ToastStore } from '../../lib/toasts.ts';
import { userKeys, type Invitation, type InvitationCreated, type Role, type Usuario } from './users.queries.ts';

/**
 * 'Administrar usuarios' (R-USR-1, R-USR-2): every dialog runs on the dialog
 * lifecycle machine (machines/dialog/).
 *
 * - the user list (opened from the header; its lists are read while it is open; a failed read
 *   closes it with 'Error al recuperar la lista de usuarios');
 * - the role change confirmation (promote to admin / downgrade to user: PATCH replace /rol; on
 *   success every cached query is refreshed);
 * - 'Nuevo usuario' (takes an e-mail: POST /api/register-invitations), which opens
 * - the invitation link (the link with a copy button; whether it was e-mailed);
 * - the revoke confirmation of a pending invitation (DELETE /api/register-invitations/{id}).
 */
export const userListDialog = createDialogMachine<'usuarios', undefined, void>();
export const changeRoleDialog = createDialogMachine<Usuario, undefined, Usuario>();
export const inviteUserDialog = createDialogMachine<'invitacion', string, InvitationCreated>();
export const invitationLinkDialog = createDialogMachine<InvitationCreated, undefined, void>();
export const revokeInvitationDialog = createDialogMachine<Invitation, undefined, void>();

export type ChangeRoleInput = DialogWorkInput<Usuario, undefined>;
export type InviteInput = DialogWorkInput<'invitacion', string>;
export type RevokeInput = DialogWorkInput<Invitation, undefined>;

/** The role a user gets from the change offered to them: admins are downgraded, users promoted. */
export const nextRole = (user: Usuario): Role => (user.rol === 'admin' ? 'user' : 'admin');

/**
 * Why a role change was refused, in Spanish: the server refuses (409 `conflict`) an
 * administrator's own demotion and the last administrator's; anything else is a failed change.
 */
export function roleChangeFailure(error: unknown, user: Usuario, currentUser: string | null): string {
  if (isApiError(error) && error.status === 409) {
    return user.user === currentUser ? userAdminMessages.selfDemotion : userAdminMessages.lastAdmin;
  }
  return userAdminMessages.roleChangeFailed;
}

/** Why an invitation was not created: an address the server refuses (400), or a failure. */
export function inviteFailure(error: unknown): string {
  if (isApiError(error) && error.status === 400) return userAdminMessages.invalidEmail;
  return userAdminMessages.inviteFailed;
}

/**
 * The administrators' writes on users and invitations, each keeping the cache right (R-USR-1):
 * a role change refreshes every cached query (the user's role shows in lists, menus and
 * statistics); an invitation created or revoked refreshes the invitation list.
 */
export function createUserAdminWrites(queryClient: QueryClient) {
  return {
    /** PATCH /api/usuarios/{id}: one replace of /rol with the other role. */
    async changeRole({ subject }: ChangeRoleInput): Promise<Usuario> {
      const user = unwrap(
        await api.PATCH('/api/usuarios/{id}', {
          params: { path: { id: subject.id } },
          body: [{ op: 'replace', path: '/rol', value: nextRole(subject) }],
        }),
      );
      void queryClient.invalidateQueries();
      return user;
    },

    /** POST /api/register-invitations with the address (without spaces at either end). */
    async invite({ payload }: InviteInput): Promise<InvitationCreated> {
      const created = unwrap(await api.POST('/api/register-invitations', { body: { email: payload.trim() } }));
      void queryClient.invalidateQueries({ queryKey: userKeys.invitations });
      return created;
    },

    /** DELETE /api/register-invitations/{id}; the invitation leaves the cached list at once. */
    async revoke({ subject }: RevokeInput): Promise<void> {
      unwrap(await api.DELETE('/api/register-invitations/{id}', { params: { path: { id: subject.id } } }));
      queryClient.setQueryData<Invitation[]>(userKeys.invitations, (list) => list?.filter((entry) => entry.id !== subject.id));
      void queryClient.invalidateQueries({ queryKey: userKeys.invitations });
    },
  };
}

export interface UserAdminOptions {
  queryClient: QueryClient;
  toasts: ToastStore;
  /** The signed-in administrator's user name (a refused self-demotion says so). */
  currentUser: () => string | null;
}

/**
 * The dialogs as the app runs them: the writes above and their toasts. The invitation dialog's
 * success (opening the link dialog) is supplied by its host, which holds the link dialog.
 */
export function createUserAdminLogic({ queryClient, toasts, currentUser }: UserAdminOptions) {
  const writes = createUserAdminWrites(queryClient);
  // The toast's actor is created just after the machine's step (as the video dialogs do).
  const show = (toast: ToastInput) => queueMicrotask(() => void toasts.show(toast));
  const nothing = () => {};
  return {
    listLogic: userListDialog.provide({ actions: { notifySuccess: nothing, notifyFailure: nothing } }),
    roleLogic: changeRoleDialog.provide({
      actors: { work: fromPromise<Usuario, ChangeRoleInput>(({ input }) => writes.changeRole(input)) },
      actions: {
        notifySuccess: (_, { output }) => show({ kind: 'success', message: userAdminMessages.roleChanged(output.nombre) }),
        notifyFailure: (_, { subject, error }) =>
          show({ kind: 'error', message: roleChangeFailure(error, subject, currentUser()) }),
      },
    }),
    inviteLogic: inviteUserDialog.provide({
      actors: { work: fromPromise<InvitationCreated, InviteInput>(({ input }) => writes.invite(input)) },
      actions: {
        notifySuccess: nothing,
        notifyFailure: (_, { error }) => show({ kind: 'error', message: inviteFailure(error) }),
      },
    }),
    linkLogic: invitationLinkDialog.provide({ actions: { notifySuccess: nothing, notifyFailure: nothing } }),
    revokeLogic: revokeInvitationDialog.provide({
      actors: { work: fromPromise<void, RevokeInput>(({ input }) => writes.revoke(input)) },
      actions: {
        notifySuccess: () => show({ kind: 'success', message: userAdminMessages.revoked }),
        notifyFailure: () => show({ kind: 'error', message: userAdminMessages.revokeFailed }),
      },
    }),
  };
}

export type UserAdminLogic = ReturnType<typeof createUserAdminLogic>;

/** Shows the load failure of the user list (R-USR-1: the toast, and the dialog closes). */
export function showLoadFailure(toasts: ToastStore) {
  queueMicrotask(() => void toasts.show({ kind: 'error', message: userAdminMessages.loadFailed }));
}
