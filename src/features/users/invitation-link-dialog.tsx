import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy, IconMailCheck } from '@tabler/icons-react';
import type { ActorRefFrom } from 'xstate';
import { userAdminMessages } from '../../lib/messages.ts';
import type { invitationLinkDialog } from './users.actors.ts';
import { formatDateTime } from './user-format.ts';
import { useDialog } from '../../lib/use-dialog.ts';

export interface InvitationLinkDialogProps {
  actorRef: ActorRefFrom<typeof invitationLinkDialog>;
  stackId: string;
}

/**
 * 'Enlace de invitación' (R-INV-1): the new invitation's link (read-only, selectable) with a
 * copy button ('Copiado' once copied), when it expires, and whether the server e-mailed it
 * ('Enviada por correo electrónico'; a failed send says to copy the link instead).
 */
export function InvitationLinkDialog({ actorRef, stackId }: InvitationLinkDialogProps) {
  const { opened, subject, close } = useDialog(actorRef);
  return (
    <Modal
      stackId={stackId}
      opened={opened}
      onClose={close}
      title={userAdminMessages.linkTitle}
      centered
    >
      {subject && (
        <Stack gap="md">
          {subject.emailDelivery === 'sent' && (
            <Alert color="teal" variant="light" icon={<IconMailCheck size={18} />}>
              {userAdminMessages.emailed}
            </Alert>
          )}
          {subject.emailDelivery === 'failed' && (
            <Alert color="orange" variant="light">
              {userAdminMessages.emailFailed}
            </Alert>
          )}
          <Text size="sm">{userAdminMessages.linkFor(subject.email)}</Text>
          <TextInput label={userAdminMessages.link} value={subject.link} readOnly onFocus={(event) => event.currentTarget.select()} />
          <Text size="sm" c="dimmed">
            {userAdminMessages.expires(formatDateTime(subject.expiresAt))}
          </Text>
          <Group justify="flex-end">
            <CopyButton value={subject.link}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'light' : 'filled'}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                >
                  {copied ? userAdminMessages.copied : userAdminMessages.copy}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
