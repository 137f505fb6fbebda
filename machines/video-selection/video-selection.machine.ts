import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type {
  BatchOutcome,
  SelectionApplyInput,
  SelectionDone,
  SelectionFailure,
  VideoSelectionContext,
  VideoSelectionEvent,
  VideoSelectionTag,
} from './video-selection.types.ts';

/** The ids an answer says are gone: deleted (204) or no longer there (404). */
const goneIds = (outcomes: readonly BatchOutcome[]) => new Set(outcomes.filter((outcome) => outcome.status !== 200).map((outcome) => outcome.id));

/**
 * The administrators' selection mode of the list (R-ADM-15 … R-ADM-19):
 *
 *   off ─start→ on.none ─toggle/selectAll→ on.some ─tags→ on.tags ─submit→ on.working ─done→ on.some | on.none
 *                 ↑ cancel                    │ └─delete→ on.confirmDelete ─confirm→ ┘    └─error→ on.some
 *                 └──────────────────────────┴─visibility→ on.working
 *
 * - `on.none` / `on.some`: checkboxes on the cards and the bar; the actions need something selected.
 * - `on.tags` (the picker) and `on.confirmDelete` (the question) are dialogs over the bar; dismissing
 *   them goes back to the selection as it was.
 * - `on.working` (tag 'busy'): the `apply` actor sends the batch for the selected ids. Nothing can be
 *   changed or left meanwhile: the batch is not taken back, and its outcome is told by `notifyDone`
 *   (the count changed, deleted and no longer there). Ids deleted or missing leave the selection.
 *   A refused batch (`notifyFailure`) keeps the selection whole, so nothing has to be picked again.
 *
 * The selected ids live here, so the count, the pruning and the guards are one place's. The app
 * supplies `apply` and the notifications with `.provide()`; their defaults throw.
 */
export const videoSelectionMachine = setup({
  types: {} as {
    context: VideoSelectionContext;
    events: VideoSelectionEvent;
    tags: VideoSelectionTag;
  },
  actors: {
    apply: fromPromise<BatchOutcome[], SelectionApplyInput>(async () => {
      throw new Error('apply is supplied by the app with .provide()');
    }),
  },
  guards: {
    isLastSelected: ({ context, event }) => {
      assertEvent(event, 'selection.toggle');
      return context.selected.length === 1 && context.selected[0] === event.id;
    },
    addsSome: ({ event }) => {
      assertEvent(event, 'selection.selectAll');
      return event.ids.length > 0;
    },
    hasTags: ({ event }) => {
      assertEvent(event, 'selection.tags.submit');
      return event.tagIds.length > 0;
    },
    leavesNone: ({ context, event }) => {
      const gone = goneIds((event as unknown as { output: BatchOutcome[] }).output);
      return context.selected.every((id) => gone.has(id));
    },
  },
  actions: {
    notifyDone: (_, _done: SelectionDone) => {
      throw new Error('notifyDone is supplied by the app with .provide()');
    },
    notifyFailure: (_, _failure: SelectionFailure) => {
      throw new Error('notifyFailure is supplied by the app with .provide()');
    },
    reset: assign({ selected: () => [], tagMode: null, action: null }),
    toggle: assign({
      selected: ({ context, event }) => {
        assertEvent(event, 'selection.toggle');
        return context.selected.includes(event.id) ? context.selected.filter((id) => id !== event.id) : [...context.selected, event.id];
      },
    }),
    selectAll: assign({
      selected: ({ context, event }) => {
        assertEvent(event, 'selection.selectAll');
        return [...context.selected, ...event.ids.filter((id) => !context.selected.includes(id))];
      },
    }),
    clear: assign({ selected: () => [] }),
    setTagMode: assign({
      tagMode: ({ event }) => {
        assertEvent(event, 'selection.tags');
        return event.mode;
      },
    }),
    dropTagMode: assign({ tagMode: null }),
    runTags: assign({
      action: ({ context, event }) => {
        assertEvent(event, 'selection.tags.submit');
        return { kind: 'tags' as const, mode: context.tagMode ?? 'add', tagIds: [...event.tagIds] };
      },
    }),
    runVisibility: assign({
      action: ({ event }) => {
        assertEvent(event, 'selection.visibility');
        return { kind: 'visibility' as const, visible: event.visible };
      },
    }),
    runDelete: assign({ action: () => ({ kind: 'delete' as const }) }),
    pruneGone: assign({
      selected: ({ context, event }) => {
        const gone = goneIds((event as unknown as { output: BatchOutcome[] }).output);
        return context.selected.filter((id) => !gone.has(id));
      },
    }),
  },
}).createMachine({
  id: 'videoSelection',
  description: 'Selection mode of the video list: checkboxes on the cards, a bar with the count and the batch actions.',
  context: { selected: [], tagMode: null, action: null },
  initial: 'off',
  states: {
    off: {
      description: "No selection: the cards as always, and the administrator's 'Seleccionar' button.",
      meta: { qa: 'Sin modo de selección' },
      entry: 'reset',
      on: { 'selection.start': { target: 'on' } },
    },
    on: {
      description: 'Selection mode: a checkbox on each card and the selection bar.',
      meta: { qa: 'Modo de selección' },
      tags: ['selecting'],
      initial: 'none',
      states: {
        none: {
          description: "Nothing selected: '0 videos seleccionados', the actions disabled.",
          meta: { qa: 'Ningún video seleccionado' },
          on: {
            'selection.toggle': { target: 'some', actions: 'toggle' },
            'selection.selectAll': { guard: 'addsSome', target: 'some', actions: 'selectAll' },
            'selection.cancel': { target: '#videoSelection.off' },
          },
        },
        some: {
          description: 'Some videos selected: the count and every action enabled.',
          meta: { qa: 'Videos seleccionados' },
          tags: ['canAct'],
          on: {
            'selection.toggle': [
              { guard: 'isLastSelected', target: 'none', actions: 'toggle' },
              { actions: 'toggle' },
            ],
            'selection.selectAll': { actions: 'selectAll' },
            'selection.clear': { target: 'none', actions: 'clear' },
            'selection.tags': { target: 'tags', actions: 'setTagMode' },
            'selection.visibility': { target: 'working', actions: 'runVisibility' },
            'selection.delete': { target: 'confirmDelete' },
            'selection.cancel': { target: '#videoSelection.off' },
          },
        },
        tags: {
          description: "The tag picker ('Añadir etiquetas' or 'Quitar etiquetas') over the bar.",
          meta: { qa: 'Selector de etiquetas abierto' },
          on: {
            'selection.tags.submit': { guard: 'hasTags', target: 'working', actions: 'runTags' },
            'selection.dismiss': { target: 'some', actions: 'dropTagMode' },
          },
        },
        confirmDelete: {
          description: "The question '¿Eliminar N videos?' with Eliminar and Cancelar.",
          meta: { qa: 'Pregunta antes de eliminar' },
          on: {
            'selection.confirm': { target: 'working', actions: 'runDelete' },
            'selection.dismiss': { target: 'some' },
          },
        },
        working: {
          description: 'The batch runs: a loader on its button, nothing can be changed, the mode cannot be left.',
          meta: { qa: 'Aplicando a los videos seleccionados' },
          tags: ['busy'],
          invoke: {
            id: 'apply',
            src: 'apply',
            input: ({ context }) => ({ ids: [...context.selected], action: context.action! }),
            onDone: [
              {
                guard: 'leavesNone',
                target: 'none',
                actions: [
                  { type: 'notifyDone', params: ({ context, event }) => ({ ids: [...context.selected], action: context.action!, outcomes: event.output }) },
                  'pruneGone',
                  'dropTagMode',
                ],
              },
              {
                target: 'some',
                actions: [
                  { type: 'notifyDone', params: ({ context, event }) => ({ ids: [...context.selected], action: context.action!, outcomes: event.output }) },
                  'pruneGone',
                  'dropTagMode',
                ],
              },
            ],
            onError: {
              target: 'some',
              actions: [
                { type: 'notifyFailure', params: ({ context, event }) => ({ ids: [...context.selected], action: context.action!, error: event.error }) },
                'dropTagMode',
              ],
            },
          },
        },
      },
    },
  },
});
