/**
 * The QA model of the list's selection mode (R-ADM-15 … R-ADM-19): three videos (1, 2, 3); the
 * user ticks 1 and 2 one by one or selects all, clears, opens the tag picker either way, hides or
 * shows, asks to delete and confirms or cancels; the server applies, reports a video gone, deletes
 * all, or refuses (400, no network). Shared by video-selection.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, failureSentence, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { videoSelectionMachine } from './video-selection.machine.ts';
import type { BatchOutcome, VideoSelectionEvent } from './video-selection.types.ts';

/** The videos of the model by id, and the tag the picker chooses. */
export const TITLES: Record<number, string> = { 1: 'Bienvenida al equipo', 2: 'Cierre del trimestre', 3: 'Plan de formación' };
export const TAG = { id: 5, nombre: 'Ventas' };

export const MODIFIED_ONE: BatchOutcome[] = [{ id: 1, status: 200 }];
export const MODIFIED_ONE_GONE: BatchOutcome[] = [
  { id: 1, status: 200 },
  { id: 2, status: 200 },
  { id: 3, status: 404, type: 'resource-not-found' },
];
export const DELETED_ALL: BatchOutcome[] = [
  { id: 1, status: 204 },
  { id: 2, status: 204 },
  { id: 3, status: 204 },
];
export const INVALID = { status: 400, type: 'validation-error', detail: 'body.operaciones: video 1 would carry 51 tags (at most 50)' };
export const OFFLINE = { status: 0, type: 'network-error' };

export type VideoSelectionSnapshot = SnapshotFrom<typeof videoSelectionMachine>;
export type VideoSelectionModelEvent = VideoSelectionEvent | DoneEvent<'apply', BatchOutcome[]> | ErrorEvent<'apply'>;

const events: VideoSelectionModelEvent[] = [
  { type: 'selection.start' },
  { type: 'selection.cancel' },
  { type: 'selection.toggle', id: 1 },
  { type: 'selection.toggle', id: 2 },
  { type: 'selection.selectAll', ids: [1, 2, 3] },
  { type: 'selection.clear' },
  { type: 'selection.tags', mode: 'add' },
  { type: 'selection.tags', mode: 'remove' },
  { type: 'selection.tags.submit', tagIds: [TAG.id] },
  { type: 'selection.visibility', visible: false },
  { type: 'selection.visibility', visible: true },
  { type: 'selection.delete' },
  { type: 'selection.confirm' },
  { type: 'selection.dismiss' },
  { type: 'xstate.done.actor.apply', output: MODIFIED_ONE },
  { type: 'xstate.done.actor.apply', output: MODIFIED_ONE_GONE },
  { type: 'xstate.done.actor.apply', output: DELETED_ALL },
  { type: 'xstate.error.actor.apply', error: INVALID },
  { type: 'xstate.error.actor.apply', error: OFFLINE },
];

const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b).join();

export const videoSelectionModel = defineQaModel({
  name: 'video-selection',
  title: 'La selección de videos de la lista (administradores)',
  machine: videoSelectionMachine,
  events,
  filterEvents: (snapshot, event) => {
    const { selected, action } = snapshot.context;
    // The walks tick videos 1 and 2 one by one, and take video 3 only with 'Seleccionar todos'.
    if (event.type === 'selection.toggle') return !selected.includes(3);
    // 'Seleccionar todos' is disabled once every video is selected.
    if (event.type === 'selection.selectAll') return sorted(selected) !== sorted(event.ids);
    // The server answers for the ids sent, 204 only to a delete.
    if (event.type === 'xstate.done.actor.apply') {
      const deleting = action?.kind === 'delete';
      return sorted(event.output.map((outcome) => outcome.id)) === sorted(selected) && event.output.every((outcome) => (outcome.status === 204) === deleting || outcome.status === 404);
    }
    return true;
  },
  extraFeatures: (snapshot) => [
    ...(snapshot.matches({ on: 'some' }) && snapshot.context.selected.length > 1 ? ['several selected'] : []),
  ],
  eventDescriptions: {
    'selection.start': "el administrador pulsa 'Seleccionar'",
    'selection.cancel': "el administrador sale de la selección (Cancelar o Escape)",
    'selection.toggle': ({ id }) => `el administrador marca o desmarca «${TITLES[id]!}»`,
    'selection.selectAll': "el administrador pulsa 'Seleccionar todos'",
    'selection.clear': "el administrador pulsa 'Quitar selección'",
    'selection.tags': ({ mode }) => (mode === 'add' ? "el administrador pulsa 'Añadir etiquetas'" : "el administrador pulsa 'Quitar etiquetas'"),
    'selection.tags.submit': `el administrador elige '${TAG.nombre}' y confirma`,
    'selection.visibility': ({ visible }) => `el administrador elige 'Visibilidad' → '${visible ? 'Visible' : 'Oculto'}'`,
    'selection.delete': "el administrador pulsa 'Eliminar' en la barra",
    'selection.confirm': "el administrador confirma 'Eliminar'",
    'selection.dismiss': "el administrador cancela el diálogo",
    'xstate.done.actor.apply': ({ output }) => {
      const missing = output.filter((outcome) => outcome.status === 404).length;
      const verb = output.some((outcome) => outcome.status === 204) ? 'elimina' : 'modifica';
      return `el servidor ${verb} ${output.length - missing} video(s)${missing ? ` y dice que ${missing} ya no existía` : ''}`;
    },
    'xstate.error.actor.apply': ({ error }) => `al aplicar el cambio, ${failureSentence(error)}`,
  } satisfies EventDescriptions<VideoSelectionModelEvent>,
});
