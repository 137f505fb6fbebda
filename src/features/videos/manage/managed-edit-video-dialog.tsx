import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { ToastStore } from '../../../lib/toasts.ts';
import { EditVideoDialog, type EditVideoDialogProps } from './edit-video-dialog.tsx';
import { createReplaceFileLogic } from './replace-file.actors.ts';
import { createSubtitleTracksLogic } from './subtitle-tracks.actors.ts';

/**
 * The edit dialog with the app's machines for its Subtítulos and Reemplazar archivo sections, made
 * here, in the dialog's own chunk: their upload code is fetched at the first opening, not with every
 * page that shows videos (docs/decisions/0052-first-screen-budget-and-code-splitting.md).
 */
export function ManagedEditVideoDialog({ actorRef, queryClient, toasts }: Pick<EditVideoDialogProps, 'actorRef'> & { queryClient: QueryClient; toasts: ToastStore }) {
  const [subtitlesLogic] = useState(() => createSubtitleTracksLogic(queryClient));
  const [replaceLogic] = useState(() => createReplaceFileLogic({ queryClient, toasts }));
  return <EditVideoDialog actorRef={actorRef} subtitlesLogic={subtitlesLogic} replaceLogic={replaceLogic} />;
}
