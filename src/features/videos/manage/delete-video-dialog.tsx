import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import { videoDialogMessages } from '../../../lib/messages.ts';
import type { deleteVideoDialog } from './manage.actors.ts';
import { useDialog } from '../../../lib/use-dialog.ts';

export interface DeleteVideoDialogProps {
  /** The running delete dialog (`createVideoManagementLogic(…).deleteLogic`). */
  actorRef: ActorRefFrom<typeof deleteVideoDialog>;
}

/**
 * 'Eliminar video' (R-ADM-3): the question with the video's title, Eliminar (a loader
 * while the video is deleted; then nothing can be pressed nor the dialog closed) and Cancelar.
 */
export function DeleteVideoDialog({ actorRef }: DeleteVideoDialogProps) {
  const { opened, busy, subject, close, submit } = useDialog(actorRef);
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={videoDialogMessages.deleteTitle}
      centered
      closeOnEscape={!busy}
      closeOnClickOutside={!busy}
      withCloseButton={!busy}
    >
      <Stack gap="lg">
        <Text>{subject ? videoDialogMessages.deleteQuestion(subject.titulo) : null}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {videoDialogMessages.cancel}
          </Button>
          <Button color="red" loading={busy} onClick={() => submit(undefined)} data-autofocus>
            {videoDialogMessages.delete}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
