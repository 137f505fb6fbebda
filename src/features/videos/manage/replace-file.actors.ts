import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { uploadFileMachine } from '../../../../machines/upload-queue/upload-file.machine.ts';
import type {
  SaveVideoInput,
  SendSubtitlesInput,
  SendSubtitlesOutput,
  UploadSession,
  UploadSessionRequest,
  UploadStatus,
  UploadThumbnailInput,
} from '../../../../machines/upload-queue/upload-file.types.ts';
import { problemOf } from '../../../../machines/shared/problem.ts';
import { api, unwrap } from '../../../lib/api/client.ts';
import { replaceFileMessages } from '../../../lib/messages.ts';
import type { ToastStore } from '../../../lib/toasts.ts';
import { createSendFile, getUpload, requestUploadSession, type SendFileOptions } from '../upload/upload.actors.ts';
import { videoKeys, videoListFilter, type Video, type VideoListData } from '../videos.queries.ts';

/** PUT /api/videos/{id}/archivo (R-ADM-13): the video takes the processed upload's file. */
export async function replaceVideoFile(videoId: number, idExterno: string): Promise<Video> {
  return unwrap(await api.PUT('/api/videos/{id}/archivo', { params: { path: { id: videoId } }, body: { idExterno } }));
}

/** Why the replacement was refused, in Spanish (R-ADM-22): the server's 409, 422 and 404, or a failure to retry. */
export function replaceRefusalMessage(error: unknown): string {
  switch (problemOf(error).status) {
    case 409:
      return replaceFileMessages.conflict;
    case 422:
      return replaceFileMessages.invalidMedia;
    case 404:
      return replaceFileMessages.gone;
    default:
      return replaceFileMessages.failed;
  }
}

function replaceInPages(data: VideoListData | undefined, video: Video): VideoListData | undefined {
  if (!data?.pages.some((page) => page.videos.some((listed) => listed.id === video.id))) return undefined;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, videos: page.videos.map((listed) => (listed.id === video.id ? video : listed)) })),
  };
}

/**
 * The cached copies after a replacement (R-ADM-21): the detail becomes the answered video (its page
 * plays the new file without asking again, which would count a view), the lists show it at once and
 * are asked again, and the subtitle tracks are asked again (their locations are the new asset's).
 */
export function refreshAfterReplacement(queryClient: QueryClient, video: Video): void {
  queryClient.setQueryData(videoKeys.detail(video.id), video);
  queryClient.setQueriesData<VideoListData>(videoListFilter(), (data) => replaceInPages(data, video));
  void queryClient.invalidateQueries(videoListFilter());
  void queryClient.invalidateQueries({ queryKey: ['videos', 'subtitles', video.id] });
}

export interface ReplaceFileDeps {
  queryClient: QueryClient;
  toasts: ToastStore;
  /** The transfer's seams (tests). */
  sendFile?: SendFileOptions;
}

/**
 * DELETE /api/uploads/{id}: an upload given up is no longer wanted. Fire and forget, as the wizard
 * does: if it fails, the server removes the upload a day after its locations expire.
 */
export function discardUpload(assetId: string): void {
  void api.DELETE('/api/uploads/{id}', { params: { path: { id: assetId } } }).catch(() => {});
}

/**
 * One file's upload machine (machines/upload-queue/upload-file.machine.ts) alone, as 'Reemplazar
 * archivo' runs it for one video: the wizard's session, resumable transfer and processing, and a
 * `saveVideo` that is PUT /api/videos/{id}/archivo (R-ADM-20…23).
 */
export function createReplaceFileLogic({ queryClient, toasts, sendFile }: ReplaceFileDeps) {
  // The toast's actor is created after the machine's step (as the wizard does).
  const show = (kind: 'success' | 'error', message: string) => queueMicrotask(() => void toasts.show({ kind, message }));
  /** The machine for one video; `onRefused` hears the Spanish message of a refused swap (the machine keeps only that it failed). */
  return (videoId: number, onRefused: (message: string) => void = () => {}) =>
    uploadFileMachine.provide({
      actors: {
        requestUploadSession: fromPromise<UploadSession, UploadSessionRequest>(({ input, signal }) => requestUploadSession(input, signal)),
        // The queue's resumable transfer (upload.actors.ts).
        sendFile: createSendFile(sendFile),
        pollUpload: fromPromise<UploadStatus, { assetId: string }>(({ input, signal }) => getUpload(input.assetId, signal)),
        // A replacement confirms with no thumbnail (the new file's own frame is taken): never reached.
        uploadThumbnail: fromPromise<void, UploadThumbnailInput>(async () => {
          throw new Error('A file replacement sends no thumbnail');
        }),
        /**
         * Not tied to the dialog's lifetime (no AbortSignal): once sent, the swap happens on the
         * server, and the caches and the toast still follow if the dialog was closed meanwhile.
         */
        saveVideo: fromPromise<Video, SaveVideoInput>(async ({ input }) => {
          try {
            const video = await replaceVideoFile(videoId, input.assetId);
            refreshAfterReplacement(queryClient, video);
            show('success', replaceFileMessages.replaced);
            return video;
          } catch (error) {
            onRefused(replaceRefusalMessage(error));
            throw error;
          }
        }),
        // A replacement keeps the video's subtitle tracks and sends none: never reached (nothing to send).
        sendSubtitles: fromPromise<SendSubtitlesOutput, SendSubtitlesInput>(async () => ({ saved: [], failures: [] })),
      },
      actions: {
        discardUpload: (_, { assetId }) => discardUpload(assetId),
      },
    });
}

export type ReplaceFileLogic = ReturnType<typeof createReplaceFileLogic>;
export type ReplaceFileMachine = ReturnType<ReplaceFileLogic>;
