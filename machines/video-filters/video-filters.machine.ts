import { assertEvent, assign, setup } from 'xstate';
import { filtersForTab, hasFilters, normalizeFilters, parseFilters, sameFilters, toSearch } from './video-filters.ts';
import type {
  StoreFiltersParams,
  VideoFiltersContext,
  VideoFiltersEvent,
  VideoFiltersInput,
  VideoFiltersTag,
  WriteAddressParams,
} from './video-filters.types.ts';

/**
 * The video list's filters (R-LIB-12): the search text, tags, favourite, upload date, score and
 * not-seen, kept in the address and in session storage.
 *
 * The address is what the list shows; the machine decides what it becomes. On entering, the app
 * sends 'filters.restore' with what session storage holds: when the address has no filter and
 * storage has some, they are written into the address (replacing it); otherwise the address wins and
 * is stored. Every change by the user is stored and written into the address; a change of the
 * address by navigation ('filters.sync') is adopted and stored. 'Todos' clears the filters and the
 * stored ones.
 *
 * Side effects are the app's actions: `writeAddress` (navigate) and `storeFilters` (session
 * storage); the machine holds no timer and knows no URL.
 */
const filtersSetup = setup({
  types: {} as {
    context: VideoFiltersContext;
    input: VideoFiltersInput;
    events: VideoFiltersEvent;
    tags: VideoFiltersTag;
  },
  actions: {
    writeAddress: (_, _params: WriteAddressParams) => {},
    storeFilters: (_, _params: StoreFiltersParams) => {},
    adoptStored: assign({
      filters: ({ event }) => {
        assertEvent(event, 'filters.restore');
        return parseFilters(event.stored);
      },
    }),
    adoptAddress: assign({
      filters: ({ event }) => {
        assertEvent(event, 'filters.sync');
        return parseFilters(event.search);
      },
    }),
    setSearchText: assign({
      filters: ({ context, event }) => {
        assertEvent(event, 'filters.search');
        return normalizeFilters({ ...context.filters, q: event.text });
      },
    }),
    showTab: assign({
      filters: ({ context, event }) => {
        assertEvent(event, 'filters.tab');
        return filtersForTab(context.filters, event.tab);
      },
    }),
    setFilters: assign({
      filters: ({ context, event }) => {
        assertEvent(event, 'filters.set');
        return normalizeFilters({ ...context.filters, ...event.filters });
      },
    }),
    clearFilter: assign({
      filters: ({ context, event }) => {
        assertEvent(event, 'filters.clear');
        return { ...context.filters, [event.filter]: event.filter === 'tagIds' ? [] : null };
      },
    }),
  },
  guards: {
    addressIsEmptyAndStorageIsNot: ({ context, event }) => {
      assertEvent(event, 'filters.restore');
      return !hasFilters(context.filters) && hasFilters(parseFilters(event.stored));
    },
    hasText: ({ event }) => {
      assertEvent(event, 'filters.search');
      return event.text.trim() !== '';
    },
    isOtherAddress: ({ context, event }) => {
      assertEvent(event, 'filters.sync');
      return !sameFilters(context.filters, parseFilters(event.search));
    },
  },
});

/** After a change by the user: the whole set to session storage and to the address (a new history entry). */
const storeAndWrite = filtersSetup.enqueueActions(({ context, enqueue }) => {
  const search = toSearch(context.filters);
  enqueue({ type: 'storeFilters', params: { search } });
  enqueue({ type: 'writeAddress', params: { search, replace: false } });
});

export const videoFiltersMachine = filtersSetup.createMachine({
  id: 'videoFilters',
  description:
    'The filters of the video list: in the address, in session storage, shown by the tabs, the search box and the chips.',
  context: ({ input }) => ({ filters: parseFilters(input.search) }),
  initial: 'entering',
  states: {
    entering: {
      description: 'The list opens: the stored filters are not read yet, so nothing is requested and the controls wait.',
      meta: { qa: 'Abriendo la lista: filtros sin leer' },
      tags: ['restoring'],
      on: {
        'filters.restore': [
          {
            guard: 'addressIsEmptyAndStorageIsNot',
            target: 'ready',
            actions: [
              'adoptStored',
              { type: 'storeFilters', params: ({ context }) => ({ search: toSearch(context.filters) }) },
              { type: 'writeAddress', params: ({ context }) => ({ search: toSearch(context.filters), replace: true }) },
            ],
          },
          {
            target: 'ready',
            actions: [{ type: 'storeFilters', params: ({ context }) => ({ search: toSearch(context.filters) }) }],
          },
        ],
      },
    },
    ready: {
      description: 'The list shows the videos matching the filters; the tabs, search box and chips show the filters.',
      meta: { qa: 'Lista con los filtros aplicados' },
      tags: ['ready'],
      on: {
        'filters.search': { guard: 'hasText', actions: ['setSearchText', storeAndWrite] },
        'filters.tab': { actions: ['showTab', storeAndWrite] },
        'filters.set': { actions: ['setFilters', storeAndWrite] },
        'filters.clear': { actions: ['clearFilter', storeAndWrite] },
        'filters.sync': {
          guard: 'isOtherAddress',
          actions: ['adoptAddress', { type: 'storeFilters', params: ({ context }) => ({ search: toSearch(context.filters) }) }],
        },
      },
    },
  },
});
