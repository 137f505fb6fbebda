import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import { userAdminMessages } from '../../lib/messages.ts';
import { inviteFailure, type inviteUserDialog } from './users.actors.ts';
import { useDialog } from '../../lib/use-dialog.ts';

export interface InviteUserDialogProps {
  actorRef: ActorRefFrom<typeof inviteUserDialog>;
  stackId: string;
}

/**
 * 'Nuevo usuario' (R-INV-1 "create user (takes an e-mail)"): the address (no validation shown
 * before sending, R-INV-1; the server's refusal shows under the field), Crear invitación (a loader while
 * it is created) and Cancelar. Success opens the invitation link dialog.
 */
export function InviteUserDialog({ actorRef, stackId }: InviteUserDialogProps) {
  const dialog = useDialog(actorRef);
  return (
    <Modal
      stackId={stackId}
      opened={dialog.opened}
      onClose={dialog.close}
      title={userAdminMessages.inviteTitle}
      centered
      closeOnEscape={!dialog.busy}
      closeOnClickOutside={!dialog.busy}
      withCloseButton={!dialog.busy}
    >
      <InviteForm
        key={dialog.opening}
        busy={dialog.busy}
        error={dialog.failed ? inviteFailure(dialog.error) : null}
        onCancel={dialog.close}
        onSubmit={dialog.submit}
      />
    </Modal>
  );
}

interface InviteFormProps {
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onSubmit: (email: string) => void;
}

function InviteForm({ busy, error, onCancel, onSubmit }: InviteFormProps) {
  const [email, setEmail] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(email);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Text size="sm">{userAdminMessages.inviteHelp}</Text>
        <TextInput
          label={userAdminMessages.email}
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          disabled={busy}
          error={error}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {userAdminMessages.cancel}
          </Button>
          <Button type="submit" loading={busy}>
            {userAdminMessages.invite}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
