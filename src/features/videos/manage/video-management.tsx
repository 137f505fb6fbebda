import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { useActorRef } from '@xstate/react';
import { lazyWithPreload } from '../../../lib/lazy-with-preload.tsx';
import type { ToastStore } from '../../../lib/toasts.ts';
import type { Video } from '../videos.queries.ts';
import { createVideoManagementLogic } from './manage.actors.ts';

// The dialogs' code (the video form, its switch and fields, Mantine's Modal) is not the list's: each is
// fetched at its first opening, so the list's page does not wait for it (docs/decisions/0052-first-screen-budget-and-code-splitting.md).
const EditVideoDialog = lazyWithPreload(() => import('./managed-edit-video-dialog.tsx').then((module) => module.ManagedEditVideoDialog));
const DeleteVideoDialog = lazyWithPreload(() => import('./delete-video-dialog.tsx').then((module) => module.DeleteVideoDialog));

/**
 * The administrators' edit and delete dialogs of a page that shows videos: one running dialog
 * machine each (with the app's writes and toasts), the cards' `onEdit` / `onDelete` that open them,
 * and the dialogs to render (each mounted from its first opening on).
 */
export function useVideoManagement(queryClient: QueryClient, toasts: ToastStore) {
  const [logic] = useState(() => createVideoManagementLogic(queryClient, toasts));
  const editRef = useActorRef(logic.editLogic);
  const deleteRef = useActorRef(logic.deleteLogic);
  const [opened, setOpened] = useState({ edit: false, delete: false });
  const [cardActions] = useState(() => ({
    onEdit: (video: Video) => {
      setOpened((was) => (was.edit ? was : { ...was, edit: true }));
      editRef.send({ type: 'dialog.open', subject: video });
    },
    onDelete: (video: Video) => {
      setOpened((was) => (was.delete ? was : { ...was, delete: true }));
      deleteRef.send({ type: 'dialog.open', subject: video });
    },
  }));
  return {
    cardActions,
    dialogs: (
      <>
        {opened.edit && <EditVideoDialog actorRef={editRef} queryClient={queryClient} toasts={toasts} />}
        {opened.delete && <DeleteVideoDialog actorRef={deleteRef} />}
      </>
    ),
  };
}
