import { assertEvent, assign, emit, setup } from 'xstate';
import type { Etiqueta, TagFilterContext, TagFilterEmitted, TagFilterEvent, TagFilterInput, TagFilterTag } from './tag-filter.types.ts';

/** Lower case without accents or other combining marks: 'Árbol' and 'arbol' read the same. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('es');
}

/**
 * R-LIB-6: the tags whose names start with the typed text, ignoring case — and accents, so
 * 'arb' finds 'Árboles' (a Spanish keyboard user may or may not type the accent). Spaces around
 * the typed text are ignored; no text lists every tag. The order of `tags` is kept.
 */
export function tagsStartingWith<T extends Pick<Etiqueta, 'nombre'>>(tags: readonly T[], text: string): T[] {
  const prefix = foldForSearch(text.trim());
  return prefix === '' ? [...tags] : tags.filter((tag) => foldForSearch(tag.nombre).startsWith(prefix));
}

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * The 'Etiqueta' chip and its popover 'Filtrar por etiquetas' (R-LIB-6).
 *
 * - Opening shows the filter in effect as selected: tags selected earlier in the session are
 *   remembered because the filter lives in the address and in session storage (R-LIB-12), and the
 *   host keeps `applied` current with 'tagFilter.sync'.
 * - 'Aplicar' is only possible with something selected: the `hasSelection` guard, and the
 *   'canApply' tag the button reads.
 * - 'Cancelar' and a click outside close without applying: the selection made meanwhile is
 *   dropped, the next opening starts again from the filter in effect.
 * - The chip's clear control removes the filter.
 * - Applying and clearing are announced with emitted events ('tagFilter.applied' with the ids,
 *   'tagFilter.cleared'): the host writes them into the address. The machine has no side effect.
 * - The 400 ms / 200 ms animations are the popover's transition, not machine delays: nothing
 *   waits for them (the machine is closed as soon as the user asks).
 */
export const tagFilterMachine = setup({
  types: {} as {
    context: TagFilterContext;
    input: TagFilterInput;
    events: TagFilterEvent;
    emitted: TagFilterEmitted;
    tags: TagFilterTag;
  },
  guards: {
    hasApplied: ({ context }) => context.applied.length > 0,
    hasSelection: ({ context }) => context.selected.length > 0,
    isLastSelected: ({ context, event }) => {
      assertEvent(event, 'tagFilter.unselect');
      return context.selected.length === 1 && context.selected[0] === event.id;
    },
  },
  actions: {
    startFromApplied: assign({ selected: ({ context }) => [...context.applied], text: '' }),
    setText: assign({
      text: ({ event }) => {
        assertEvent(event, 'tagFilter.type');
        return event.text;
      },
    }),
    select: assign({
      selected: ({ context, event }) => {
        assertEvent(event, 'tagFilter.select');
        return context.selected.includes(event.id) ? context.selected : [...context.selected, event.id];
      },
    }),
    unselect: assign({
      selected: ({ context, event }) => {
        assertEvent(event, 'tagFilter.unselect');
        return context.selected.filter((id) => id !== event.id);
      },
    }),
    applySelection: assign({ applied: ({ context }) => [...context.selected] }),
    announceApplied: emit(({ context }) => ({ type: 'tagFilter.applied' as const, ids: [...context.applied] })),
    clearFilter: assign({ applied: () => [], selected: () => [], text: '' }),
    announceCleared: emit({ type: 'tagFilter.cleared' as const }),
    syncApplied: assign({
      applied: ({ context, event }) => {
        assertEvent(event, 'tagFilter.sync');
        return sameIds(context.applied, event.applied) ? context.applied : [...event.applied];
      },
    }),
  },
}).createMachine({
  id: 'tagFilter',
  description: "The 'Etiqueta' chip (its label: up to 3 applied tag names, then 'y N más') and its popover 'Filtrar por etiquetas'.",
  context: ({ input }) => ({ applied: [...(input.applied ?? [])], selected: [], text: '' }),
  initial: 'closed',
  on: {
    'tagFilter.sync': { actions: 'syncApplied' },
  },
  states: {
    closed: {
      description: "Only the chip shows: 'Etiqueta', or the applied tags with a clear control next to it.",
      meta: { qa: 'Filtro «Etiqueta» cerrado' },
      on: {
        'tagFilter.open': [
          { guard: 'hasApplied', target: 'open.someSelected', actions: 'startFromApplied' },
          { target: 'open.noneSelected', actions: 'startFromApplied' },
        ],
        'tagFilter.clear': { guard: 'hasApplied', actions: ['clearFilter', 'announceCleared'] },
      },
    },
    open: {
      description:
        "The popover 'Filtrar por etiquetas': the 'Introduzca un tag' input, the tags starting with the text, the selected ones, Cancelar and Aplicar.",
      meta: { qa: 'Desplegable «Filtrar por etiquetas»' },
      tags: ['open'],
      initial: 'noneSelected',
      on: {
        'tagFilter.type': { actions: 'setText' },
        'tagFilter.select': { target: '.someSelected', actions: 'select' },
        'tagFilter.unselect': [
          { guard: 'isLastSelected', target: '.noneSelected', actions: 'unselect' },
          { target: '.someSelected', actions: 'unselect' },
        ],
        'tagFilter.apply': { guard: 'hasSelection', target: 'closed', actions: ['applySelection', 'announceApplied'] },
        'tagFilter.cancel': { target: 'closed' },
        'tagFilter.dismiss': { target: 'closed' },
      },
      states: {
        noneSelected: {
          description: "'No hay etiquetas seleccionadas'; 'Aplicar' is disabled.",
          meta: { qa: 'Desplegable sin etiquetas seleccionadas' },
        },
        someSelected: {
          description: "'Etiquetas seleccionadas' lists the selection, each with a control to remove it; 'Aplicar' is enabled.",
          meta: { qa: 'Desplegable con etiquetas seleccionadas' },
          tags: ['canApply'],
        },
      },
    },
  },
});
