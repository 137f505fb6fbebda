import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Loader, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import type { ActorRefFrom } from 'xstate';
import { tagAdminMessages } from '../../lib/messages.ts';
import type { Etiqueta, tagListDialog } from './tags.actors.ts';
import { useDialog } from '../../lib/use-dialog.ts';

export interface TagListDialogProps {
  /** The running list dialog (`createTagAdminLogic(…).listLogic`). */
  actorRef: ActorRefFrom<typeof tagListDialog>;
  /** Its place in the tag dialogs' `Modal.Stack`. */
  stackId: string;
  /** The cached tags: the list shows what the cache holds (`load` and the writes keep it right). */
  tagsRead: { queryKey: QueryKey; queryFn: (context: { signal: AbortSignal }) => Promise<Etiqueta[]> };
  /** Reads the tags into the cache (rejects when the read has failed after its retries). */
  load: () => Promise<unknown>;
  /** The read failed: tell the user ('Error al recuperar la lista de etiquetas'). */
  onLoadFailed: () => void;
  onCreate: () => void;
  onEdit: (tag: Etiqueta) => void;
  onDelete: (tag: Etiqueta) => void;
}

type LoadState = 'loading' | 'loaded' | 'failed';

/**
 * 'Administrar etiquetas': every tag, read from the server at each opening, with its Editar and
 * Eliminar buttons, and 'Nueva etiqueta'. A failed read shows 'Error al recuperar la lista de
 * etiquetas' (a toast) and Reintentar in the dialog.
 */
export function TagListDialog({ actorRef, stackId, tagsRead, load, onLoadFailed, onCreate, onEdit, onDelete }: TagListDialogProps) {
  const { opened, opening, close } = useDialog(actorRef);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoadState>('loading');
  // Never fetches by itself (`load` does, at each opening), but keeps the query's own function:
  // a retry of `load` runs whatever function the query holds at that moment.
  const tags = useQuery({ ...tagsRead, enabled: false });

  useEffect(() => {
    if (!opened) return;
    // A read that ends after the dialog closed (or opened again) is not this opening's.
    let current = true;
    setState('loading');
    load().then(
      () => current && setState('loaded'),
      () => {
        if (!current) return;
        setState('failed');
        onLoadFailed();
      },
    );
    return () => {
      current = false;
    };
    // A read at each opening and at each Reintentar (`load` and `onLoadFailed` may be new functions each render).
  }, [opened, opening, attempt]);

  const list = tags.data ?? [];
  return (
    <Modal
      stackId={stackId}
      opened={opened}
      onClose={close}
      title={tagAdminMessages.listTitle}
      centered
      size="md"
    >
      <Stack gap="md">
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} />} onClick={onCreate} disabled={state !== 'loaded'}>
            {tagAdminMessages.create}
          </Button>
        </Group>
        {state === 'loading' && (
          <Group justify="center" py="md">
            <Loader size="sm" aria-label={tagAdminMessages.loading} />
          </Group>
        )}
        {state === 'failed' && (
          <Stack align="center" gap="sm" py="md">
            <Text c="dimmed">{tagAdminMessages.listLoadFailed}</Text>
            <Button variant="default" onClick={() => setAttempt((count) => count + 1)}>
              {tagAdminMessages.retry}
            </Button>
          </Stack>
        )}
        {state === 'loaded' && list.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            {tagAdminMessages.empty}
          </Text>
        )}
        {state === 'loaded' && list.length > 0 && (
          <ScrollArea.Autosize mah="60vh">
            <Table verticalSpacing="xs" aria-label={tagAdminMessages.listTitle}>
              <Table.Tbody>
                {list.map((tag) => (
                  <Table.Tr key={tag.id}>
                    <Table.Td>{tag.nombre}</Table.Td>
                    <Table.Td w={1}>
                      <Group gap={4} wrap="nowrap">
                        <ActionIcon variant="subtle" aria-label={tagAdminMessages.editOf(tag.nombre)} onClick={() => onEdit(tag)}>
                          <IconPencil size={18} />
                        </ActionIcon>
                        <ActionIcon variant="subtle" color="red" aria-label={tagAdminMessages.deleteOf(tag.nombre)} onClick={() => onDelete(tag)}>
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Modal>
  );
}
