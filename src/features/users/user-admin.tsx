import { useCallback, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Modal } from '@mantine/core';
import { useActorRef } from '@xstate/react';
import { userAdminMessages } from '../../lib/messages.ts';
import type { ToastStore } from '../../lib/toasts.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { InvitationLinkDialog } from './invitation-link-dialog.tsx';
import { InviteUserDialog } from './invite-user-dialog.tsx';
import { UserListDialog } from './user-list-dialog.tsx';
import { createUserAdminLogic, roleChangeFailure } from './users.actors.ts';
import type { Invitation, Usuario } from './users.queries.ts';

export interface UserAdminOptions {
  queryClient: QueryClient;
  toasts: ToastStore;
  /** The signed-in user's name (from the session token). */
  currentUser: () => string | null;
}

/**
 * 'Administrar usuarios' as the authenticated layout hosts it: one running dialog machine per
 * dialog, `open` for the header's menu entry, and the dialogs to render.
 */
export function useUserAdmin({ queryClient, toasts, currentUser }: UserAdminOptions) {
  const [logic] = useState(() => createUserAdminLogic({ queryClient, toasts, currentUser }));
  const listRef = useActorRef(logic.listLogic);
  const roleRef = useActorRef(logic.roleLogic);
  const linkRef = useActorRef(logic.linkLogic);
  // A created invitation opens the link dialog.
  const inviteRef = useActorRef(
    logic.inviteLogic.provide({
      actions: { notifySuccess: (_, { output }) => linkRef.send({ type: 'dialog.open', subject: output }) },
    }),
  );
  const revokeRef = useActorRef(logic.revokeLogic);
  const open = useCallback(() => listRef.send({ type: 'dialog.open', subject: 'usuarios' }), [listRef]);
  const me = currentUser();

  return {
    open,
    dialogs: (
      // One stack: the list stays under its confirmations and forms, only the top dialog shows on a
      // phone's screen and closes on Escape.
      <Modal.Stack>
        <UserListDialog
          actorRef={listRef}
          stackId="users-list"
          toasts={toasts}
          currentUser={me}
          onChangeRole={(user: Usuario) => roleRef.send({ type: 'dialog.open', subject: user })}
          onInvite={() => inviteRef.send({ type: 'dialog.open', subject: 'invitacion' })}
          onRevoke={(invitation: Invitation) => revokeRef.send({ type: 'dialog.open', subject: invitation })}
        />
        <ConfirmDialog
          actorRef={roleRef}
          stackId="users-role"
          title={(user) => (user.rol === 'admin' ? userAdminMessages.downgradeTitle : userAdminMessages.promoteTitle)}
          question={(user) =>
            user.rol === 'admin' ? userAdminMessages.downgradeQuestion(user.nombre) : userAdminMessages.promoteQuestion(user.nombre)
          }
          confirm={userAdminMessages.confirm}
          failure={(user, error) => roleChangeFailure(error, user, me)}
        />
        <InviteUserDialog actorRef={inviteRef} stackId="users-invite" />
        <InvitationLinkDialog actorRef={linkRef} stackId="users-link" />
        <ConfirmDialog
          actorRef={revokeRef}
          stackId="users-revoke"
          title={() => userAdminMessages.revokeTitle}
          question={(invitation) => userAdminMessages.revokeQuestion(invitation.email ?? '')}
          confirm={userAdminMessages.revoke}
          color="red"
          failure={() => userAdminMessages.revokeFailed}
        />
      </Modal.Stack>
    ),
  };
}
