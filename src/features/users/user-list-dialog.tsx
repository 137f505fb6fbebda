import { useEffect } from 'react';
import { Badge, Box, Button, Group, Loader, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActorRefFrom } from 'xstate';
import { userAdminMessages } from '../../lib/messages.ts';
import type { ToastStore } from '../../lib/toasts.ts';
import { showLoadFailure, type userListDialog } from './users.actors.ts';
import { invitationsQuery, isPending, userKeys, usersQuery, type Invitation, type Usuario } from './users.queries.ts';
import { formatDateTime } from './user-format.ts';
import { useDialog } from '../../lib/use-dialog.ts';

export interface UserListDialogProps {
  actorRef: ActorRefFrom<typeof userListDialog>;
  stackId: string;
  toasts: ToastStore;
  /** The signed-in administrator's user name (marked '(usted)'). */
  currentUser: string | null;
  onChangeRole: (user: Usuario) => void;
  onInvite: () => void;
  onRevoke: (invitation: Invitation) => void;
}

/**
 * 'Administrar usuarios' (R-USR-1, R-USR-2): every user with their role, organisation,
 * blocked flag, second-factor state and last sign-in, and the button that promotes them to
 * administrator or downgrades them to user; 'Nuevo usuario'; the pending invitations, each with
 * Revocar. Both lists are read only while the dialog is open; a failed read of the users shows
 * 'Error al recuperar la lista de usuarios' and closes the dialog.
 */
export function UserListDialog({ actorRef, stackId, toasts, currentUser, onChangeRole, onInvite, onRevoke }: UserListDialogProps) {
  const { opened, close } = useDialog(actorRef);
  const queryClient = useQueryClient();
  const users = useQuery(usersQuery(opened));
  const invitations = useQuery(invitationsQuery(opened));

  const usersFailed = opened && users.isError;
  useEffect(() => {
    if (!usersFailed) return;
    showLoadFailure(toasts);
    close();
    // The next opening asks again rather than showing this failure.
    queryClient.removeQueries({ queryKey: userKeys.list, exact: true });
    queryClient.removeQueries({ queryKey: userKeys.invitations, exact: true });
  }, [usersFailed, toasts, close, queryClient]);

  const pending = invitations.data?.filter((invitation) => isPending(invitation)) ?? [];

  return (
    <Modal
      stackId={stackId}
      opened={opened}
      onClose={close}
      title={userAdminMessages.title}
      centered
      size="lg"
    >
      <Stack gap="lg">
        {/* On a 320 px phone the button goes under the heading rather than cut its label short. */}
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            {userAdminMessages.usersHeading}
          </Title>
          <Button size="sm" leftSection={<IconUserPlus size={16} />} onClick={onInvite} style={{ flexShrink: 0 }}>
            {userAdminMessages.newUser}
          </Button>
        </Group>
        {users.data === undefined ? (
          <Group justify="center" py="md">
            <Loader size="sm" aria-label={userAdminMessages.loading} />
          </Group>
        ) : users.data.length === 0 ? (
          <Text c="dimmed">{userAdminMessages.noUsers}</Text>
        ) : (
          <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={userAdminMessages.usersHeading}>
            {users.data.map((user) => (
              <UserRow key={user.id} user={user} isYou={user.user === currentUser} onChangeRole={onChangeRole} />
            ))}
          </Stack>
        )}

        <Title order={2} size="h4">
          {userAdminMessages.invitationsHeading}
        </Title>
        {invitations.isError ? (
          <Text c="red">{userAdminMessages.invitationsFailed}</Text>
        ) : invitations.data === undefined ? null : pending.length === 0 ? (
          <Text c="dimmed">{userAdminMessages.noInvitations}</Text>
        ) : (
          <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={userAdminMessages.invitationsHeading}>
            {pending.map((invitation) => (
              <InvitationRow key={invitation.id} invitation={invitation} onRevoke={onRevoke} />
            ))}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}

// Dark shades: their text on white reads at 4.5:1 or more (WCAG AA; Mantine's teal 6 is 2.6:1).
const SECOND_FACTOR_COLOR: Record<string, string> = { OTP_ACTIVED: 'teal.9', OTP_REQUIRED: 'blue.9' };

function UserRow({ user, isYou, onChangeRole }: { user: Usuario; isYou: boolean; onChangeRole: (user: Usuario) => void }) {
  const admin = user.rol === 'admin';
  return (
    <Paper component="li" withBorder p="sm" aria-label={user.nombre}>
      <Group justify="space-between" align="flex-start" gap="xs">
        <Box miw={0} style={{ flex: '1 1 200px' }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {user.nombre} {isYou && <Text span c="dimmed" size="sm">{userAdminMessages.you}</Text>}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {user.user}
            {user.email ? ` · ${user.email}` : ''}
          </Text>
          <Group gap={6} mt={6}>
            <Badge variant={admin ? 'filled' : 'light'} color={admin ? 'tao' : 'gray'}>
              {admin ? userAdminMessages.roleAdmin : userAdminMessages.roleUser}
            </Badge>
            {user.bloqueado && <Badge color="red">{userAdminMessages.blocked}</Badge>}
            <Badge variant="outline" color={SECOND_FACTOR_COLOR[user.otpState] ?? 'gray.7'} tt="none">
              {userAdminMessages.secondFactor(user.otpState)}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" mt={6}>
            {userAdminMessages.organisation(user.organizacion)}
            {' · '}
            {userAdminMessages.lastLogin(user.lastLoginAt ? formatDateTime(user.lastLoginAt) : null)}
          </Text>
        </Box>
        <Button
          size="xs"
          variant="light"
          // Red rather than orange: no orange reads at 4.5:1 on its light background. The colour without
          // a shade: Mantine 9's light variant paints a shade ('red.9') as the background and its label in
          // red 9 too, which made this label vanish (tests/e2e/axe.ts, unreadableLabels).
          color={admin ? 'red' : 'blue'}
          onClick={() => onChangeRole(user)}
          aria-label={admin ? userAdminMessages.downgradeOf(user.nombre) : userAdminMessages.promoteOf(user.nombre)}
        >
          {admin ? userAdminMessages.downgrade : userAdminMessages.promote}
        </Button>
      </Group>
    </Paper>
  );
}

function InvitationRow({ invitation, onRevoke }: { invitation: Invitation; onRevoke: (invitation: Invitation) => void }) {
  const email = invitation.email ?? '';
  return (
    <Paper component="li" withBorder p="sm" aria-label={email}>
      <Group justify="space-between" gap="xs">
        <Box miw={0} style={{ flex: '1 1 200px' }}>
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {email}
          </Text>
          <Text size="xs" c="dimmed">
            {userAdminMessages.invitationRole(invitation.rol)}
            {invitation.expiresAt ? ` · ${userAdminMessages.expires(formatDateTime(invitation.expiresAt))}` : ''}
          </Text>
        </Box>
        <Button size="xs" variant="light" color="red" onClick={() => onRevoke(invitation)} aria-label={userAdminMessages.revokeOf(email)}>
          {userAdminMessages.revoke}
        </Button>
      </Group>
    </Paper>
  );
}
