import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { components } from '../../../../contract/openapi.gen.ts';
import { videoSelectionMachine } from '../../../../machines/video-selection/video-selection.machine.ts';
import type {
  BatchOutcome,
  SelectionAction,
  SelectionApplyInput,
  SelectionDone,
  SelectionFailure,
} from '../../../../machines/video-selection/video-selection.types.ts';
import type { ToastInput } from '../../../../machines/toast/toast.types.ts';
import { api, unwrap } from '../../../lib/api/client.ts';
import { bulkMessages } from '../../../lib/messages.ts';
import type { ToastStore } from '../../../lib/toasts.ts';
import { removeFromPages } from '../video.actors.ts';
import { videoKeys, videoListFilter, type VideoListData } from '../videos.queries.ts';

type BatchOperation = components['schemas']['VideosBatchOperation'];

/** The JSON Patch of a batch (docs/decisions/0127-batch-video-operations.md): tags by id, or the visibility. */
export function batchOperations(action: Exclude<SelectionAction, { kind: 'delete' }>): BatchOperation[] {
  if (action.kind === 'visibility') return [{ op: 'replace', path: '/isVisible', value: action.visible }];
  return action.tagIds.map((id) =>
    action.mode === 'add' ? { op: 'add' as const, path: '/etiquetas/-' as const, value: id } : { op: 'remove' as const, path: `/etiquetas/${id}` },
  );
}

/**
 * The batch writes (R-ADM-16, R-ADM-17), each keeping the cached reads right: PATCH or DELETE
 * /api/videos for the ids, then every cached list is refreshed (a tag or the visibility may change
 * which lists a video belongs to); deleted and missing videos leave the cached lists at once, and
 * the details of the videos touched are dropped.
 */
export function createVideoSelectionWrites(queryClient: QueryClient) {
  const refresh = (ids: readonly number[], outcomes: readonly BatchOutcome[]) => {
    for (const outcome of outcomes) {
      if (outcome.status !== 200) queryClient.setQueriesData<VideoListData>(videoListFilter(), (data) => removeFromPages(data, outcome.id));
    }
    for (const id of ids) queryClient.removeQueries({ queryKey: videoKeys.detail(id), exact: true });
    void queryClient.invalidateQueries(videoListFilter());
  };
  return {
    async apply({ ids, action }: SelectionApplyInput): Promise<BatchOutcome[]> {
      const { resultados } =
        action.kind === 'delete'
          ? unwrap(await api.DELETE('/api/videos', { params: { query: { ids: ids.join(',') } } }))
          : unwrap(await api.PATCH('/api/videos', { body: { ids, operaciones: batchOperations(action) } }));
      refresh(ids, resultados);
      return resultados;
    },
  };
}

/** One sentence for the whole batch: how many changed (or were deleted), and how many were gone already. */
export function outcomeMessage({ action, outcomes }: Pick<SelectionDone, 'action' | 'outcomes'>): ToastInput {
  const missing = outcomes.filter((outcome) => outcome.status === 404).length;
  const done = outcomes.length - missing;
  const parts = [
    ...(done > 0 ? [action.kind === 'delete' ? bulkMessages.deleted(done) : bulkMessages.modified(done)] : []),
    ...(missing > 0 ? [bulkMessages.missing(missing)] : []),
  ];
  return { kind: done > 0 ? 'success' : 'error', message: parts.join('; ') };
}

const problemOf = (error: unknown) => (typeof error === 'object' && error !== null ? (error as { type?: unknown; detail?: unknown }) : {});

/** A refused batch in Spanish: what failed and, when the problem says it, why. */
export function failureMessage({ action, error }: Pick<SelectionFailure, 'action' | 'error'>): string {
  const { type, detail } = problemOf(error);
  const what = action.kind === 'delete' ? bulkMessages.deleteFailed : bulkMessages.modifyFailed;
  let key = typeof type === 'string' ? type : 'network-error';
  // The server's details are English; the two a batch of tags can meet have their own sentence.
  if (key === 'validation-error' && typeof detail === 'string') {
    if (/would carry \d+ tags/.test(detail)) key = 'too-many-tags';
    else if (/no tag with id/.test(detail)) key = 'unknown-tag';
  }
  return bulkMessages.failed(what, bulkMessages.reasons[key]);
}

/** The selection machine as the app runs it: the batch writes and their toasts. */
export function createVideoSelectionLogic(queryClient: QueryClient, toasts: ToastStore) {
  const writes = createVideoSelectionWrites(queryClient);
  // The toast's actor is created just after the machine's step (as video.actors.ts does).
  const show = (toast: ToastInput) => queueMicrotask(() => void toasts.show(toast));
  return videoSelectionMachine.provide({
    actors: { apply: fromPromise<BatchOutcome[], SelectionApplyInput>(({ input }) => writes.apply(input)) },
    actions: {
      notifyDone: (_, done) => show(outcomeMessage(done)),
      notifyFailure: (_, failure) => show({ kind: 'error', message: failureMessage(failure) }),
    },
  });
}

export type VideoSelectionLogic = ReturnType<typeof createVideoSelectionLogic>;
