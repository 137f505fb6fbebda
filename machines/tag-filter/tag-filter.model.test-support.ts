/**
 * The QA model of the 'Etiqueta' filter popover (R-LIB-6): opening, typing, ticking and
 * unticking, applying, cancelling, dismissing, clearing, and the address changing elsewhere; the
 * chip with more than 3 tags, a text with no match and a selection of several tags must be shown.
 * Shared by tag-filter.machine.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { tagFilterMachine } from './tag-filter.machine.ts';
import type { Etiqueta, TagFilterEvent } from './tag-filter.types.ts';

export const TAGS: Etiqueta[] = [
  { id: 1, nombre: 'Animales' },
  { id: 2, nombre: 'Árboles' },
  { id: 3, nombre: 'Arte' },
  { id: 4, nombre: 'Música' },
  { id: 5, nombre: 'Deportes' },
  { id: 6, nombre: 'Ciencia' },
];
export const NAME = new Map(TAGS.map((tag) => [tag.id, tag.nombre]));
const ALL_NAMES = TAGS.map((tag) => tag.nombre);

/** What the list shows for each text of the model, written out (accents and case ignored). */
export const LISTED: Record<string, string[]> = { '': ALL_NAMES, AR: ['Árboles', 'Arte'], xyz: [] };

export type TagFilterSnapshot = SnapshotFrom<typeof tagFilterMachine>;
const FOUR = [1, 4, 5, 6];

const events: TagFilterEvent[] = [
  { type: 'tagFilter.open' },
  { type: 'tagFilter.type', text: 'AR' },
  { type: 'tagFilter.type', text: 'xyz' },
  { type: 'tagFilter.type', text: '' },
  ...[2, 3, 4].map((id) => ({ type: 'tagFilter.select' as const, id })),
  ...[2, 3, 4, 1, 5, 6].map((id) => ({ type: 'tagFilter.unselect' as const, id })),
  { type: 'tagFilter.apply' },
  { type: 'tagFilter.cancel' },
  { type: 'tagFilter.dismiss' },
  { type: 'tagFilter.clear' },
  { type: 'tagFilter.sync', applied: FOUR },
  { type: 'tagFilter.sync', applied: [] },
];

const names = (ids: number[]) => ids.map((id) => `'${NAME.get(id)!}'`).join(', ');

export const tagFilterModel = defineQaModel({
  name: 'tag-filter',
  title: "El filtro 'Etiqueta' de la lista de videos",
  machine: tagFilterMachine,
  events,
  input: {},
  // Which tags exactly does not matter to the machine's structure: how many does (0, some, more than 3).
  stateKey: (snapshot) => [
    snapshot.value,
    snapshot.context.text,
    Math.min(snapshot.context.applied.length, 4),
    Math.min(snapshot.context.selected.length, 2),
  ],
  // A user can only tick a listed, unticked tag, untick a ticked one, and retype another text.
  filterEvents: (snapshot, event) => {
    const { text, selected, applied } = snapshot.context;
    if (event.type === 'tagFilter.select') return (LISTED[text] ?? []).includes(NAME.get(event.id)!) && !selected.includes(event.id);
    if (event.type === 'tagFilter.unselect') return selected.includes(event.id);
    if (event.type === 'tagFilter.type') return event.text !== text;
    if (event.type === 'tagFilter.sync') return applied.join() !== event.applied.join();
    return true;
  },
  extraFeatures: (snapshot) => [
    ...(snapshot.matches('closed') && snapshot.context.applied.length > 3 ? ["chip with 'y N más'"] : []),
    ...(snapshot.matches('closed') && snapshot.context.applied.length > 0 ? ['chip with names'] : []),
    ...(snapshot.hasTag('open') ? [`list for '${snapshot.context.text}'`] : []),
    ...(snapshot.matches({ open: 'someSelected' }) && snapshot.context.selected.length > 1 ? ['several selected'] : []),
  ],
  eventDescriptions: {
    'tagFilter.open': "el usuario pulsa el chip 'Etiqueta'",
    'tagFilter.type': ({ text }) => (text ? `el usuario escribe '${text}' en 'Introduzca un tag'` : "el usuario borra 'Introduzca un tag'"),
    'tagFilter.select': ({ id }) => `el usuario marca la etiqueta '${NAME.get(id)!}'`,
    'tagFilter.unselect': ({ id }) => `el usuario quita '${NAME.get(id)!}' de las seleccionadas`,
    'tagFilter.apply': "el usuario pulsa 'Aplicar'",
    'tagFilter.cancel': "el usuario pulsa 'Cancelar'",
    'tagFilter.dismiss': 'el usuario pulsa fuera del filtro',
    'tagFilter.clear': 'el usuario quita el filtro de etiquetas desde el chip',
    'tagFilter.sync': ({ applied }) =>
      applied.length ? `la dirección cambia a otro filtro (${names(applied)})` : 'la dirección cambia a ningún filtro de etiquetas',
  } satisfies EventDescriptions<TagFilterEvent>,
});
