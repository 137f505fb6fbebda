import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { components } from '../../../contract/openapi.gen.ts';
import { createDialogMachine } from '../../../machines/dialog/dialog.machine.ts';
import type { DialogWorkInput } from '../../../machines/dialog/dialog.types.ts';
import { problemOf } from '../../../machines/shared/problem.ts';
import type { ToastInput } from '../../../machines/toast/toast.types.ts';
import { api, unwrap } from '../../lib/api/client.ts';
import { tagAdminMessages } from '../../lib/messages.ts';
import type { ToastStore } from '../../lib/toasts.ts';
import { validateTagNombre } from './tag-form.rules.ts';

export type Etiqueta = components['schemas']['Etiqueta'];

/** What the form dialog is opened on: a tag to rename, or null for 'Nueva etiqueta'. */
export interface TagFormSubject {
  tag: Etiqueta | null;
}
/** What the form dialog submits: the name as typed. */
export interface TagFormPayload {
  nombre: string;
}

/** 'Administrar etiquetas': opened from the header's menu, closed by the user; it hosts the others. */
export const tagListDialog = createDialogMachine<'tags', undefined, never>();
/** 'Nueva etiqueta' / 'Editar etiqueta': opened on a tag or none, submits the name, answers the saved tag. */
export const tagFormDialog = createDialogMachine<TagFormSubject, TagFormPayload, Etiqueta>();
/** 'Eliminar etiqueta': opened on a tag, submits nothing. */
export const deleteTagDialog = createDialogMachine<Etiqueta, undefined, void>();

export type TagFormInput = DialogWorkInput<TagFormSubject, TagFormPayload>;
export type DeleteTagInput = DialogWorkInput<Etiqueta, undefined>;

/** The form dialog's rules: R-TAG-2, and a rename to the same name just closes. */
export const tagFormGuards = {
  validate: (_: unknown, { payload }: TagFormInput) => validateTagNombre(payload.nombre) === null,
  nothingToDo: (_: unknown, { subject, payload }: TagFormInput) => subject.tag !== null && payload.nombre.trim() === subject.tag.nombre,
};

/** The server refused the name because another tag has it (whatever its case and accents). */
export const isDuplicateName = (error: unknown) => problemOf(error).status === 409;

const spanish = new Intl.Collator('es', { sensitivity: 'base' });
const byName = (a: Etiqueta, b: Etiqueta) => spanish.compare(a.nombre, b.nombre) || a.id - b.id;

/** Where the tag writes leave their marks in the query cache: the app's keys (the routes know them). */
export interface TagCacheKeys {
  /** The cached list of every tag (GET /api/etiquetas), read by the filter popover and the video form. */
  tags: QueryKey;
  /** Cached reads that show tag names (the video lists and details: the cards' tags). */
  showingTags: readonly QueryKey[];
}

/**
 * The administrators' tag reads and writes (R-TAG-1 `/api/etiquetas`), each keeping the cached
 * copies right: the list the dialog loads replaces the cached tags; a created, renamed or deleted
 * tag shows in the cached tags at once (the filter popover), which are then asked for again; a
 * rename or deletion also refreshes what shows tag names (the cards).
 */
export function createTagWrites(queryClient: QueryClient, keys: TagCacheKeys) {
  const readTags = async ({ signal }: { signal: AbortSignal }) => unwrap(await api.GET('/api/etiquetas', { signal }));
  const setTags = (update: (tags: Etiqueta[]) => Etiqueta[]) =>
    queryClient.setQueryData<Etiqueta[]>(keys.tags, (tags) => (tags ? update(tags).sort(byName) : tags));
  const refresh = (showingTags: boolean) => {
    void queryClient.invalidateQueries({ queryKey: keys.tags });
    if (showingTags) for (const queryKey of keys.showingTags) void queryClient.invalidateQueries({ queryKey });
  };
  return {
    /** GET /api/etiquetas under the cached tags' key: what the list dialog shows (it never fetches by itself). */
    tagsRead: { queryKey: keys.tags, queryFn: readTags },

    /**
     * GET /api/etiquetas for the open dialog, with the reads' retries, asked again whatever the
     * cache holds; the answer becomes the cached tags. Its failure is the dialog's ('Error al
     * recuperar la lista de etiquetas'), not the page's 'Error obteniendo datos': the read runs
     * under a key of its own (the cached tags' key has the library's observers, whose options
     * would replace `meta` while it retries).
     */
    async loadTags(): Promise<Etiqueta[]> {
      const tags = await queryClient.fetchQuery({
        queryKey: [...keys.tags, 'administration'],
        queryFn: readTags,
        staleTime: 0,
        meta: { reportsOwnErrors: true },
      });
      queryClient.setQueryData<Etiqueta[]>(keys.tags, tags);
      return tags;
    },

    /** POST /api/etiquetas, or PATCH /api/etiquetas/{id} of `/nombre`; the name is sent trimmed. */
    async saveTag({ subject, payload }: TagFormInput): Promise<Etiqueta> {
      const nombre = payload.nombre.trim();
      const saved = subject.tag
        ? unwrap(
            await api.PATCH('/api/etiquetas/{id}', {
              params: { path: { id: subject.tag.id } },
              body: [{ op: 'replace', path: '/nombre', value: nombre }],
            }),
          )
        : unwrap(await api.POST('/api/etiquetas', { body: { nombre } }));
      setTags((tags) => [...tags.filter((tag) => tag.id !== saved.id), saved]);
      refresh(subject.tag !== null);
      return saved;
    },

    /** DELETE /api/etiquetas/{id}: the tag leaves every video (R-TAG-1). */
    async deleteTag({ subject }: DeleteTagInput): Promise<void> {
      unwrap(await api.DELETE('/api/etiquetas/{id}', { params: { path: { id: subject.id } } }));
      setTags((tags) => tags.filter((tag) => tag.id !== subject.id));
      refresh(true);
    },
  };
}

export type TagWrites = ReturnType<typeof createTagWrites>;

/** The tag dialogs as the app runs them: the writes above and their toasts. */
export function createTagAdminLogic(queryClient: QueryClient, toasts: ToastStore, keys: TagCacheKeys) {
  const writes = createTagWrites(queryClient, keys);
  // The toast's actor is created just after the machine's step (as the video dialogs do).
  const show = (toast: ToastInput) => queueMicrotask(() => void toasts.show(toast));
  return {
    writes,
    /** The list's load failed (the dialog stays open with Reintentar). */
    loadFailed: () => show({ kind: 'error', message: tagAdminMessages.listLoadFailed }),
    listLogic: tagListDialog.provide({
      actions: {
        // Nothing to work on: the list has no confirm button.
        notifySuccess: () => undefined,
        notifyFailure: () => undefined,
      },
    }),
    formLogic: tagFormDialog.provide({
      actors: { work: fromPromise<Etiqueta, TagFormInput>(({ input }) => writes.saveTag(input)) },
      guards: tagFormGuards,
      actions: {
        notifySuccess: (_, { subject }) =>
          show({ kind: 'success', message: subject.tag ? tagAdminMessages.modified : tagAdminMessages.created }),
        // A taken name is shown under the field; anything else is a toast.
        notifyFailure: (_, { error }) => {
          if (!isDuplicateName(error)) show({ kind: 'error', message: tagAdminMessages.saveFailed });
        },
      },
    }),
    deleteLogic: deleteTagDialog.provide({
      actors: { work: fromPromise<void, DeleteTagInput>(({ input }) => writes.deleteTag(input)) },
      actions: {
        notifySuccess: () => show({ kind: 'success', message: tagAdminMessages.deleted }),
        notifyFailure: () => show({ kind: 'error', message: tagAdminMessages.deleteFailed }),
      },
    }),
  };
}

export type TagAdminLogic = ReturnType<typeof createTagAdminLogic>;
