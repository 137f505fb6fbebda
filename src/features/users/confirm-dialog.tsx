import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import type { DialogMachine } from '../../../machines/dialog/dialog.machine.ts';
import { userAdminMessages } from '../../lib/messages.ts';
import { useDialog } from '../../lib/use-dialog.ts';

export interface ConfirmDialogProps<TSubject, TOutput> {
  actorRef: ActorRefFrom<DialogMachine<TSubject, undefined, TOutput>>;
  /** Its place in the users dialogs' Modal.Stack (only the top one is shown and closes on Escape). */
  stackId: string;
  title: (subject: TSubject) => string;
  question: (subject: TSubject) => string;
  confirm: string;
  color?: string;
  /** What the dialog says when the work failed (it stays open). */
  failure: (subject: TSubject, error: unknown) => string;
}

/**
 * A confirmation on the dialog machine (the role change, the revocation): the question, the
 * confirm button (a loader while working; then nothing can be pressed nor the dialog closed) and
 * Cancelar; a refusal stays open and says why.
 */
export function ConfirmDialog<TSubject, TOutput>({ actorRef, stackId, title, question, confirm, color, failure }: ConfirmDialogProps<TSubject, TOutput>) {
  const { opened, busy, failed, error, subject, close, submit } = useDialog(actorRef);
  return (
    <Modal
      stackId={stackId}
      opened={opened}
      onClose={close}
      title={subject ? title(subject) : ''}
      centered
      closeOnEscape={!busy}
      closeOnClickOutside={!busy}
      withCloseButton={!busy}
    >
      <Stack gap="lg">
        <Text>{subject ? question(subject) : null}</Text>
        {failed && subject && (
          <Alert color="red" role="alert" variant="light">
            {failure(subject, error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {userAdminMessages.cancel}
          </Button>
          <Button color={color} loading={busy} onClick={() => submit(undefined)} data-autofocus>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
