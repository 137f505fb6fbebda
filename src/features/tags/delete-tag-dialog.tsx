import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import { tagAdminMessages } from '../../lib/messages.ts';
import type { deleteTagDialog } from './tags.actors.ts';
import { useDialog } from '../../lib/use-dialog.ts';

export interface DeleteTagDialogProps {
  /** The running delete dialog (`createTagAdminLogic(…).deleteLogic`). */
  actorRef: ActorRefFrom<typeof deleteTagDialog>;
  /** Its place in the tag dialogs' `Modal.Stack`. */
  stackId: string;
}

/**
 * 'Eliminar etiqueta': the question with the tag's name (it leaves every video), Eliminar (a loader
 * while the tag is deleted; then nothing can be pressed nor the dialog closed) and Cancelar.
 */
export function DeleteTagDialog({ actorRef, stackId }: DeleteTagDialogProps) {
  const { opened, busy, subject, close, submit } = useDialog(actorRef);
  return (
    <Modal
      stackId={stackId}
      opened={opened}
      onClose={close}
      title={tagAdminMessages.deleteTitle}
      centered
      closeOnClickOutside={!busy}
      withCloseButton={!busy}
    >
      <Stack gap="lg">
        <Text>{subject ? tagAdminMessages.deleteQuestion(subject.nombre) : null}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {tagAdminMessages.cancel}
          </Button>
          <Button color="red" loading={busy} onClick={() => submit(undefined)} data-autofocus>
            {tagAdminMessages.delete}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
