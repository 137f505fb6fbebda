import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { components } from '../../../../contract/openapi.gen.ts';
import { createDialogMachine } from '../../../../machines/dialog/dialog.machine.ts';
import type { DialogWorkInput } from '../../../../machines/dialog/dialog.types.ts';
import type { ToastInput } from '../../../../machines/toast/toast.types.ts';
import { isValidVideoForm, type VideoFormValues } from '../../../../machines/video-form/video-form.rules.ts';
import { api, unwrap } from '../../../lib/api/client.ts';
import { problemFromFailure, problemFromResponse } from '../../../lib/api/api-error.ts';
import { videoManagementMessages } from '../../../lib/messages.ts';
import type { ToastStore } from '../../../lib/toasts.ts';
import { videoKeys, videoListFilter, type Video, type VideoListData } from '../videos.queries.ts';
import { removeFromPages } from '../video.actors.ts';

type VideoPatchOperation = components['schemas']['VideoPatchOperation'];

/** What the edit dialog submits: the form, and the new thumbnail when one was chosen. */
export interface EditVideoPayload {
  values: VideoFormValues;
  thumbnail: File | null;
  /** The video's asset when its file was replaced in this dialog (R-ADM-20): the opened video's is gone. */
  idExterno?: string;
}

/** The edit dialog (R-ADM-1): opened on a video, submits the form, answers the saved video. */
export const editVideoDialog = createDialogMachine<Video, EditVideoPayload, Video>();
/** The delete confirmation (R-ADM-3): opened on a video, submits nothing. */
export const deleteVideoDialog = createDialogMachine<Video, undefined, void>();

export type EditVideoInput = DialogWorkInput<Video, EditVideoPayload>;
export type DeleteVideoInput = DialogWorkInput<Video, undefined>;

/** The form as the dialog opens: a copy of the video's fields (no long description is an empty one). */
export function formValuesOf(video: Video): VideoFormValues {
  return {
    titulo: video.titulo,
    descripcionCorta: video.descripcionCorta,
    descripcion: video.descripcion ?? '',
    tags: video.etiquetas.map((tag) => tag.id),
    isVisible: video.isVisible,
  };
}

const sameIds = (a: readonly number[], b: readonly number[]) => {
  const left = [...new Set(a)].sort((x, y) => x - y);
  const right = [...new Set(b)].sort((x, y) => x - y);
  return left.length === right.length && left.every((id, index) => id === right[index]);
};

/**
 * The JSON Patch of an edit: one replace per field that changed, nothing else (R-ADM-1). Texts
 * are sent without the spaces at either end (the rules count them so); a blank long description
 * is sent as '' (it removes it); tags are ids, compared ignoring their order.
 */
export function videoChanges(video: Video, values: VideoFormValues): VideoPatchOperation[] {
  const operations: VideoPatchOperation[] = [];
  const titulo = values.titulo.trim();
  const descripcionCorta = values.descripcionCorta.trim();
  const descripcion = values.descripcion.trim();
  if (titulo !== video.titulo) operations.push({ op: 'replace', path: '/titulo', value: titulo });
  if (descripcionCorta !== video.descripcionCorta) operations.push({ op: 'replace', path: '/shortDescription', value: descripcionCorta });
  if (descripcion !== (video.descripcion ?? '')) operations.push({ op: 'replace', path: '/descripcion', value: descripcion });
  if (!sameIds(values.tags, video.etiquetas.map((tag) => tag.id))) {
    operations.push({ op: 'replace', path: '/etiquetas', value: [...new Set(values.tags)] });
  }
  if (values.isVisible !== video.isVisible) operations.push({ op: 'replace', path: '/isVisible', value: values.isVisible });
  return operations;
}

/** The edit dialog's rules (its `validate` and `nothingToDo` guards): R-ADM-2, and an edit without changes just closes. */
export const editVideoGuards = {
  validate: (_: unknown, { payload }: EditVideoInput) => isValidVideoForm(payload.values),
  nothingToDo: (_: unknown, { subject, payload }: EditVideoInput) =>
    payload.thumbnail === null && videoChanges(subject, payload.values).length === 0,
};

/**
 * PUT of a picture to a signed upload location (the signature is the credential: no session
 * headers), with its content type. A refusal becomes the server's problem.
 */
async function putThumbnail(uploadUrl: string, file: File): Promise<void> {
  let response: Response;
  try {
    // The picture's bytes (at most 20 MB) rather than the File itself: any fetch takes an ArrayBuffer.
    const body = await file.arrayBuffer();
    response = await globalThis.fetch(new URL(uploadUrl, globalThis.location.origin), {
      method: 'PUT',
      headers: { 'Content-Type': file.type },
      body,
    });
  } catch (error) {
    throw problemFromFailure(error, 0, 'PUT');
  }
  if (!response.ok) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Not a problem document: the status says it all.
    }
    throw problemFromResponse(response.status, body, response.statusText, 'PUT');
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
 * The administrators' writes of a video (R-ADM-1, R-ADM-3), each keeping the cached
 * copies right: an edit replaces the cached detail with the saved video, shows it in every cached
 * list at once and refreshes the lists (its title, tags or visibility may change which lists it
 * belongs to); a deletion takes the video out of every cached list and drops its detail.
 */
export function createVideoManagementWrites(queryClient: QueryClient) {
  return {
    /**
     * PATCH of the changed fields; with a new thumbnail, first GET /api/uploads/{idExterno} for a
     * fresh thumbnail location, PUT the picture there, and add `/thumbnail` to the PATCH.
     */
    async editVideo({ subject, payload }: EditVideoInput): Promise<Video> {
      const operations = videoChanges(subject, payload.values);
      if (payload.thumbnail) {
        const upload = unwrap(await api.GET('/api/uploads/{id}', { params: { path: { id: payload.idExterno ?? subject.idExterno } } }));
        await putThumbnail(upload.thumbnail.uploadUrl, payload.thumbnail);
        operations.push({ op: 'replace', path: '/thumbnail', value: true });
      }
      const video = unwrap(await api.PATCH('/api/videos/{id}', { params: { path: { id: subject.id } }, body: operations }));
      queryClient.setQueryData(videoKeys.detail(video.id), video);
      queryClient.setQueriesData<VideoListData>(videoListFilter(), (data) => replaceInPages(data, video));
      void queryClient.invalidateQueries(videoListFilter());
      return video;
    },

    /** DELETE /api/videos/{id}. */
    async deleteVideo({ subject }: DeleteVideoInput): Promise<void> {
      unwrap(await api.DELETE('/api/videos/{id}', { params: { path: { id: subject.id } } }));
      queryClient.setQueriesData<VideoListData>(videoListFilter(), (data) => removeFromPages(data, subject.id));
      queryClient.removeQueries({ queryKey: videoKeys.detail(subject.id), exact: true });
    },
  };
}

/** The two dialogs as the app runs them: the writes above and the R-ADM-1 toasts. */
export function createVideoManagementLogic(queryClient: QueryClient, toasts: ToastStore) {
  const writes = createVideoManagementWrites(queryClient);
  // The toast's actor is created just after the machine's step (as video.actors.ts does).
  const show = (toast: ToastInput) => queueMicrotask(() => void toasts.show(toast));
  return {
    editLogic: editVideoDialog.provide({
      actors: { work: fromPromise<Video, EditVideoInput>(({ input }) => writes.editVideo(input)) },
      guards: editVideoGuards,
      actions: {
        notifySuccess: () => show({ kind: 'success', message: videoManagementMessages.modified }),
        notifyFailure: () => show({ kind: 'error', message: videoManagementMessages.createFailed }),
      },
    }),
    deleteLogic: deleteVideoDialog.provide({
      actors: { work: fromPromise<void, DeleteVideoInput>(({ input }) => writes.deleteVideo(input)) },
      actions: {
        notifySuccess: () => show({ kind: 'success', message: videoManagementMessages.deleted }),
        notifyFailure: () => show({ kind: 'error', message: videoManagementMessages.deleteFailed }),
      },
    }),
  };
}

export type VideoManagementLogic = ReturnType<typeof createVideoManagementLogic>;
