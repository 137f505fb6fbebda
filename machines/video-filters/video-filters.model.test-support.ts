/**
 * The QA model of the video list's filters (R-LIB-12): restoring stored filters on entering,
 * searching, the tabs, each chip set and cleared, and navigation changing the address; every
 * filter must be shown on the page, the after-day form of the date too. Shared by
 * video-filters.machine.test.tsx and `npm run qa` (tests/qa).
 *
 * The 'es despues de' day is the first of the current month (a day the calendar shows when it
 * opens), so the id of the path that sets it changes each month.
 */
import dayjs from 'dayjs';
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import type { Etiqueta } from '../tag-filter/tag-filter.types.ts';
import { toSearch } from './video-filters.ts';
import { videoFiltersMachine } from './video-filters.machine.ts';
import type { FilterName, FilterSearch, VideoFilters, VideoFiltersEvent, VideoTab } from './video-filters.types.ts';

export const TAGS: Etiqueta[] = [
  { id: 3, nombre: 'Arte' },
  { id: 5, nombre: 'Deportes' },
  { id: 7, nombre: 'Música' },
];
export const NAME = new Map(TAGS.map((tag) => [tag.id, tag.nombre]));
/** The address when the user opens the list: no filters, so stored ones come back. */
export const ADDRESS: FilterSearch = {};
export const STORED: FilterSearch = { score: 'gte:4', tag: 'in:3' };
/** 'es despues de' a day the calendar shows when it opens: the first of this month. */
export const FIRST_OF_MONTH = dayjs().startOf('month').format('YYYY-MM-DD');

export type VideoFiltersSnapshot = SnapshotFrom<typeof videoFiltersMachine>;

const events: VideoFiltersEvent[] = [
  { type: 'filters.restore', stored: STORED },
  { type: 'filters.restore', stored: {} },
  { type: 'filters.search', text: 'gatos' },
  // Blank text is no event the machine takes (its guard): 'does nothing on Enter with blank text' in the test.
  { type: 'filters.tab', tab: 'todos' },
  { type: 'filters.tab', tab: 'favoritos' },
  { type: 'filters.tab', tab: 'no-vistos' },
  { type: 'filters.set', filters: { favorite: true } },
  { type: 'filters.set', filters: { favorite: null } },
  { type: 'filters.set', filters: { uploadDate: { period: 'tm' } } },
  { type: 'filters.set', filters: { uploadDate: { after: FIRST_OF_MONTH } } },
  { type: 'filters.set', filters: { score: { operator: 'gte', stars: 2 } } },
  { type: 'filters.set', filters: { tagIds: [3, 7] } },
  // Administrators (R-LIB-26).
  { type: 'filters.set', filters: { subtitles: 'sin' } },
  { type: 'filters.clear', filter: 'q' },
  { type: 'filters.clear', filter: 'tagIds' },
  { type: 'filters.clear', filter: 'uploadDate' },
  { type: 'filters.clear', filter: 'score' },
  { type: 'filters.clear', filter: 'subtitles' },
  // Navigation: a card's tag link, and a plain link to /videos.
  { type: 'filters.sync', search: { tag: 'in:5' } },
  { type: 'filters.sync', search: {} },
];

const setFilters = (filters: VideoFilters) => Object.entries(toSearch(filters)).map(([key]) => key);

const tabNames: Record<VideoTab, string> = { todos: 'Todos', favoritos: 'Favoritos', 'no-vistos': 'No vistos' };
const filterNames: Record<FilterName, string> = {
  q: 'la búsqueda',
  tagIds: 'las etiquetas',
  favorite: 'favoritos',
  uploadDate: 'la fecha de subida',
  score: 'la puntuación',
  notSeen: 'no vistos',
  subtitles: 'los subtítulos',
};
const search = (value: FilterSearch) => (Object.keys(value).length ? `?${new URLSearchParams(value).toString()}` : 'sin filtros');

export const videoFiltersModel = defineQaModel({
  name: 'video-filters',
  title: 'Los filtros de la lista de videos',
  machine: videoFiltersMachine,
  events,
  input: { search: ADDRESS },
  // Which filters are set is what the UI shows differently; their exact values are the events'.
  stateKey: (snapshot) => [snapshot.value, toSearch(snapshot.context.filters)],
  filterEvents: (snapshot, event) => {
    const { filters } = snapshot.context;
    switch (event.type) {
      case 'filters.restore':
        return snapshot.matches('entering');
      case 'filters.set':
        // Only a change a user can make with the chips (ticking a ticked chip is unticking it).
        return Object.entries(event.filters).some(
          ([name, value]) => JSON.stringify(filters[name as keyof VideoFilters]) !== JSON.stringify(value),
        );
      case 'filters.clear':
        // The clear control is only there when the filter is set.
        return event.filter === 'tagIds' ? filters.tagIds.length > 0 : filters[event.filter] !== null;
      default:
        return true;
    }
  },
  extraFeatures: (snapshot) =>
    snapshot.matches('ready')
      ? [
          ...setFilters(snapshot.context.filters).map((key) => `shows ${key}`),
          ...(snapshot.context.filters.uploadDate && 'after' in snapshot.context.filters.uploadDate ? ['shows a day'] : []),
        ]
      : [],
  eventDescriptions: {
    'filters.restore': ({ stored }) => `la lista lee los filtros guardados en la sesión del navegador (${search(stored)})`,
    'filters.sync': ({ search: address }) => `el usuario navega a /videos${Object.keys(address).length ? search(address) : ''} (un enlace)`,
    'filters.search': ({ text }) => `el usuario busca '${text}' y pulsa Intro`,
    'filters.tab': ({ tab }) => `el usuario pulsa la pestaña '${tabNames[tab]}'`,
    'filters.set': ({ filters }) => `el usuario elige en los chips ${JSON.stringify(filters)}`,
    'filters.clear': ({ filter }) => `el usuario quita el filtro de ${filterNames[filter]}`,
  } satisfies EventDescriptions<VideoFiltersEvent>,
});
