import { useState } from 'react';
import { Modal } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { useActorRef } from '@xstate/react';
import type { ToastStore } from '../../lib/toasts.ts';
import { DeleteTagDialog } from './delete-tag-dialog.tsx';
import { TagFormDialog } from './tag-form-dialog.tsx';
import { TagListDialog } from './tag-list-dialog.tsx';
import { createTagAdminLogic, type TagCacheKeys } from './tags.actors.ts';

/**
 * 'Administrar etiquetas' for the header's menu (admin): one running dialog machine for the list,
 * one for 'Nueva etiqueta' / 'Editar etiqueta' and one for the deletion, stacked over the list
 * (`Modal.Stack`: Escape and the overlay belong to the top one). `open` is the menu entry's action.
 */
export function useTagAdmin(queryClient: QueryClient, toasts: ToastStore, keys: TagCacheKeys) {
  const [logic] = useState(() => createTagAdminLogic(queryClient, toasts, keys));
  const listRef = useActorRef(logic.listLogic);
  const formRef = useActorRef(logic.formLogic);
  const deleteRef = useActorRef(logic.deleteLogic);
  const [open] = useState(() => () => listRef.send({ type: 'dialog.open', subject: 'tags' }));
  return {
    open,
    dialogs: (
      <Modal.Stack>
        <TagListDialog
          actorRef={listRef}
          stackId="tag-list"
          tagsRead={logic.writes.tagsRead}
          load={logic.writes.loadTags}
          onLoadFailed={logic.loadFailed}
          onCreate={() => formRef.send({ type: 'dialog.open', subject: { tag: null } })}
          onEdit={(tag) => formRef.send({ type: 'dialog.open', subject: { tag } })}
          onDelete={(tag) => deleteRef.send({ type: 'dialog.open', subject: tag })}
        />
        <TagFormDialog actorRef={formRef} stackId="tag-form" />
        <DeleteTagDialog actorRef={deleteRef} stackId="tag-delete" />
      </Modal.Stack>
    ),
  };
}
