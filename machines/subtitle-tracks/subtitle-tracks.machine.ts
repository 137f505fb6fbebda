import { assign, fromPromise, setup } from 'xstate';
import { problemOf } from '../shared/problem.ts';
import type {
  DeleteTrackInput,
  PutTrackInput,
  Subtitulo,
  SubtitleTracksContext,
  SubtitleTracksEvent,
  SubtitleTracksInput,
  SubtitleTracksTag,
} from './subtitle-tracks.types.ts';

/** The tracks with `track` in its language (added or replaced), sorted by language as the server sorts them. */
export function withTrack(tracks: readonly Subtitulo[], track: Subtitulo): Subtitulo[] {
  return [...tracks.filter((entry) => entry.idioma !== track.idioma), track].sort((a, b) => a.idioma.localeCompare(b.idioma));
}

const detailOf = (error: unknown): string | null =>
  typeof error === 'object' && error !== null && typeof (error as { detail?: unknown }).detail === 'string' ? (error as { detail: string }).detail : null;

/**
 * The edit dialog's 'Subtítulos' (R-ADM-7…9): the video's tracks (GET), each change sent at once —
 * a file for a language (PUT, a new track or a replacement), a track removed after a question
 * (DELETE) — and its outcome said under the list. A refusal keeps the tracks as they were. The
 * side effects come from the app with `.provide()`.
 */
export const subtitleTracksMachine = setup({
  types: {} as {
    context: SubtitleTracksContext;
    events: SubtitleTracksEvent;
    input: SubtitleTracksInput;
    tags: SubtitleTracksTag;
  },
  actors: {
    listTracks: fromPromise<Subtitulo[], { videoId: number }>(async () => {
      throw new Error('listTracks is supplied by the app with .provide()');
    }),
    putTrack: fromPromise<Subtitulo, PutTrackInput>(async () => {
      throw new Error('putTrack is supplied by the app with .provide()');
    }),
    deleteTrack: fromPromise<void, DeleteTrackInput>(async () => {
      throw new Error('deleteTrack is supplied by the app with .provide()');
    }),
  },
}).createMachine({
  id: 'subtitleTracks',
  description: "The Subtítulos section of 'Editar video': the tracks, each change saved at once.",
  context: ({ input }) => ({ videoId: input.videoId, tracks: [], pending: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'GET /api/videos/{id}/subtitulos (a loader).',
      meta: { qa: 'Cargando los subtítulos' },
      invoke: {
        id: 'listTracks',
        src: 'listTracks',
        input: ({ context }) => ({ videoId: context.videoId }),
        onDone: { target: 'ready', actions: assign({ tracks: ({ event }) => event.output }) },
        onError: { target: 'loadFailed' },
      },
    },
    loadFailed: {
      description: "'No se han podido cargar los subtítulos' and 'Reintentar'.",
      meta: { qa: 'No se han podido cargar los subtítulos' },
      on: { 'tracks.retry': { target: 'loading' } },
    },
    ready: {
      description: "Each track by its name with 'Sustituir' and 'Quitar', 'Añadir subtítulos', and the last change's outcome.",
      meta: { qa: 'Subtítulos del video' },
      on: {
        'tracks.put': {
          target: 'saving',
          actions: assign(({ event }) => ({ pending: { idioma: event.idioma, fileName: event.file.name }, notice: null })),
        },
        'tracks.remove': {
          target: 'confirmingRemoval',
          actions: assign(({ event }) => ({ pending: { idioma: event.idioma, fileName: null }, notice: null })),
        },
      },
    },
    confirmingRemoval: {
      description: "'¿Quitar los subtítulos en …?' with 'Quitar' and 'Cancelar' beside the track.",
      meta: { qa: 'Preguntando si quitar los subtítulos' },
      on: {
        'tracks.confirmRemoval': { target: 'removing' },
        'tracks.cancelRemoval': { target: 'ready', actions: assign({ pending: null }) },
      },
    },
    saving: {
      description: 'PUT /api/videos/{id}/subtitulos/{idioma} of the chosen file; the controls wait.',
      meta: { qa: 'Guardando los subtítulos' },
      tags: ['busy'],
      invoke: {
        id: 'putTrack',
        src: 'putTrack',
        input: ({ context, event }) => ({
          videoId: context.videoId,
          idioma: context.pending!.idioma,
          file: (event as Extract<SubtitleTracksEvent, { type: 'tracks.put' }>).file,
        }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            tracks: withTrack(context.tracks, event.output),
            notice: { kind: 'saved' as const, idioma: event.output.idioma },
            pending: null,
          })),
        },
        onError: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            const { status = 0, type = 'network-error' } = problemOf(event.error);
            return {
              notice: { kind: 'putFailed' as const, idioma: context.pending!.idioma, fileName: context.pending!.fileName ?? '', status, type, detail: detailOf(event.error) },
              pending: null,
            };
          }),
        },
      },
    },
    removing: {
      description: 'DELETE /api/videos/{id}/subtitulos/{idioma}; the controls wait.',
      meta: { qa: 'Quitando los subtítulos' },
      tags: ['busy'],
      invoke: {
        id: 'deleteTrack',
        src: 'deleteTrack',
        input: ({ context }) => ({ videoId: context.videoId, idioma: context.pending!.idioma }),
        onDone: {
          target: 'ready',
          actions: assign(({ context }) => ({
            tracks: context.tracks.filter((track) => track.idioma !== context.pending!.idioma),
            notice: { kind: 'removed' as const, idioma: context.pending!.idioma },
            pending: null,
          })),
        },
        onError: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            const { status = 0, type = 'network-error' } = problemOf(event.error);
            return { notice: { kind: 'removeFailed' as const, idioma: context.pending!.idioma, status, type }, pending: null };
          }),
        },
      },
    },
  },
});
