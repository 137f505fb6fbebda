import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { useActorRef } from '@xstate/react';
import type { ToastStore } from '../../../lib/toasts.ts';
import type { Video } from '../videos.queries.ts';
import { DeleteVideoDialog } from './delete-video-dialog.tsx';
import { EditVideoDialog } from './edit-video-dialog.tsx';
import { createVideoManagementLogic } from './manage.actors.ts';

/**
 * The administrators' edit and delete dialogs of a page that shows videos: one running dialog
 * machine each (with the app's writes and toasts), the cards' `onEdit` / `onDelete` that open them,
 * and the dialogs to render.
 */
export function useVideoManagement(queryClient: QueryClient, toasts: ToastStore) {
  const [logic] = useState(() => createVideoManagementLogic(queryClient, toasts));
  const editRef = useActorRef(logic.editLogic);
  const deleteRef = useActorRef(logic.deleteLogic);
  const [cardActions] = useState(() => ({
    onEdit: (video: Video) => editRef.send({ type: 'dialog.open', subject: video }),
    onDelete: (video: Video) => deleteRef.send({ type: 'dialog.open', subject: video }),
  }));
  return {
    cardActions,
    dialogs: (
      <>
        <EditVideoDialog actorRef={editRef} />
        <DeleteVideoDialog actorRef={deleteRef} />
      </>
    ),
  };
}
