import { useCallback, useState } from 'react';
import { act, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { useVideoFilters } from '../../src/features/videos/use-video-filters.ts';
import { VideoFiltersBar } from '../../src/features/videos/video-filters-bar.tsx';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import {
  coveringPaths,
  createMachineModel,
  itCoversTheMachine,
  runPath,
  type Executors,
  type StateChecks,
} from '../../tests/utils/machine-model.ts';
import type { Etiqueta } from '../tag-filter/tag-filter.types.ts';
import { FILTER_KEYS, toSearch } from './video-filters.ts';
import { videoFiltersMachine } from './video-filters.machine.ts';
import type { FilterSearch, VideoFilters, VideoFiltersEvent, WriteAddressParams } from './video-filters.types.ts';

const TAGS: Etiqueta[] = [
  { id: 3, nombre: 'Arte' },
  { id: 5, nombre: 'Deportes' },
  { id: 7, nombre: 'Música' },
];
const NAME = new Map(TAGS.map((tag) => [tag.id, tag.nombre]));
/** The address when the user opens the list: no filters, so stored ones come back. */
const ADDRESS: FilterSearch = {};
const STORED: FilterSearch = { score: 'gte:4', tag: 'in:3' };
/** 'es despues de' a day the calendar shows when it opens: the first of this month. */
const FIRST_OF_MONTH = dayjs().startOf('month').format('YYYY-MM-DD');

type Snapshot = SnapshotFrom<typeof videoFiltersMachine>;

const events: VideoFiltersEvent[] = [
  { type: 'filters.restore', stored: STORED },
  { type: 'filters.restore', stored: {} },
  { type: 'filters.search', text: 'gatos' },
  // Blank text is no event the machine takes (its guard): 'does nothing on Enter with blank text' below.
  { type: 'filters.tab', tab: 'todos' },
  { type: 'filters.tab', tab: 'favoritos' },
  { type: 'filters.tab', tab: 'no-vistos' },
  { type: 'filters.set', filters: { favorite: true } },
  { type: 'filters.set', filters: { favorite: null } },
  { type: 'filters.set', filters: { uploadDate: { period: 'tm' } } },
  { type: 'filters.set', filters: { uploadDate: { after: FIRST_OF_MONTH } } },
  { type: 'filters.set', filters: { score: { operator: 'gte', stars: 2 } } },
  { type: 'filters.set', filters: { tagIds: [3, 7] } },
  { type: 'filters.clear', filter: 'q' },
  { type: 'filters.clear', filter: 'tagIds' },
  { type: 'filters.clear', filter: 'uploadDate' },
  { type: 'filters.clear', filter: 'score' },
  // Navigation: a card's tag link, and a plain link to /videos.
  { type: 'filters.sync', search: { tag: 'in:5' } },
  { type: 'filters.sync', search: {} },
];

const setFilters = (filters: VideoFilters) => Object.entries(toSearch(filters)).map(([key]) => key);

const model = createMachineModel(videoFiltersMachine, {
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
});
const paths = coveringPaths(model, (snapshot) =>
  snapshot.matches('ready')
    ? [
        ...setFilters(snapshot.context.filters).map((key) => `shows ${key}`),
        ...(snapshot.context.filters.uploadDate && 'after' in snapshot.context.filters.uploadDate ? ['shows a day'] : []),
      ]
    : [],
);

let user: UserEvent;
/**
 * The snapshot the UI was last checked in: the state an event starts from. (An executor is handed
 * the snapshot its event leads to; the state checks run before each next event.)
 */
let before: Snapshot;
let address: FilterSearch;
/** Every address write, as the router would get them. */
let navigations: WriteAddressParams[] = [];
let setAddress: (search: FilterSearch) => void;

/** The list page as the route will host it: the address is state, storage is the real session storage. */
function Host({ initial }: { initial: FilterSearch }) {
  const [search, setSearch] = useState(initial);
  address = search;
  setAddress = setSearch;
  const navigate = useCallback((params: WriteAddressParams) => {
    navigations.push(params);
    setSearch(params.search);
  }, []);
  const actorRef = useVideoFilters({ search, navigate });
  return <VideoFiltersBar actorRef={actorRef} tags={TAGS} locale="es-ES" />;
}

beforeEach(() => {
  user = userEvent.setup({ delay: null });
  navigations = [];
});

const PERIOD_LABEL = { tw: 'Esta semana', tm: 'Este mes', l6m: 'Últimos 6 meses', ty: 'Este año' } as const;
function dateChipLabel(filters: VideoFilters): string {
  const filter = filters.uploadDate;
  if (!filter) return 'Fecha de subida';
  if ('period' in filter) return PERIOD_LABEL[filter.period];
  if ('after' in filter) return `es despues de ${dayjs(filter.after).format('DD/MM/YYYY')}`;
  throw new Error('not offered by the chips');
}
const scoreChipLabel = (filters: VideoFilters) =>
  filters.score ? `${filters.score.stars} ${filters.score.stars === 1 ? 'estrella' : 'estrellas'} o más` : 'Puntuación';
function tagChipLabel(filters: VideoFilters): string {
  const names = filters.tagIds.map((id) => NAME.get(id)!);
  return names.length === 0 ? 'Etiqueta' : names.join(', ');
}
const button = (name: string) => screen.getByRole('button', { name });
const dialog = (name: string) => screen.getByRole('dialog', { name });

const executors = {
  // The user opens the list; session storage holds what an earlier visit left.
  'filters.restore': async ({ event }) => {
    for (const [key, value] of Object.entries(event.stored)) window.sessionStorage.setItem(key, value);
    renderWithTheme(<Host initial={ADDRESS} />);
  },
  'filters.search': async ({ event }) => {
    const box = screen.getByRole('searchbox', { name: 'Buscar' });
    await user.clear(box);
    await user.type(box, `${event.text}{Enter}`);
  },
  'filters.tab': async ({ event }) => {
    const name = { todos: 'Todos', favoritos: 'Favoritos', 'no-vistos': 'No vistos' }[event.tab];
    await user.click(screen.getByRole('tab', { name }));
  },
  'filters.set': async ({ event }) => {
    const { filters } = before.context;
    const changes = event.filters;
    if ('favorite' in changes) {
      await user.click(screen.getByRole('checkbox', { name: 'Favoritos' }));
    } else if (changes.uploadDate && 'period' in changes.uploadDate) {
      await user.click(button(dateChipLabel(filters)));
      await user.click(within(dialog('Fecha de subida')).getByRole('button', { name: PERIOD_LABEL[changes.uploadDate.period] }));
    } else if (changes.uploadDate && 'after' in changes.uploadDate) {
      await user.click(button(dateChipLabel(filters)));
      const popover = within(dialog('Fecha de subida'));
      if (!popover.queryByRole('button', { name: 'Mes anterior' })) {
        await user.click(popover.getByRole('button', { name: 'es despues de' }));
      }
      const day = dayjs(changes.uploadDate.after).locale('es').format('D MMMM YYYY');
      await user.click(popover.getByRole('button', { name: day }));
    } else if (changes.score) {
      await user.click(button(scoreChipLabel(filters)));
      const star = within(dialog('Filtrar por puntuación')).getByRole('radio', { name: scoreChipLabel({ ...filters, ...changes }) });
      await user.click((star as HTMLInputElement).labels![0]!);
    } else if (changes.tagIds) {
      await user.click(button(tagChipLabel(filters)));
      const popover = within(dialog('Filtrar por etiquetas'));
      for (const tag of TAGS) {
        const box = popover.getByRole('checkbox', { name: tag.nombre });
        if ((box as HTMLInputElement).checked !== changes.tagIds.includes(tag.id)) await user.click(box);
      }
      await user.click(popover.getByRole('button', { name: 'Aplicar' }));
    } else {
      throw new Error(`No way to set ${JSON.stringify(changes)}`);
    }
  },
  'filters.clear': async ({ event }) => {
    const name = {
      q: 'Borrar búsqueda',
      tagIds: 'Quitar filtro de etiquetas',
      uploadDate: 'Quitar filtro de fecha de subida',
      score: 'Quitar filtro de puntuación',
    }[event.filter as 'q' | 'tagIds' | 'uploadDate' | 'score'];
    await user.click(button(name));
  },
  // The address changed by navigation.
  'filters.sync': async ({ event }) => {
    act(() => setAddress(event.search));
  },
} satisfies Executors<Snapshot, VideoFiltersEvent>;

const states = {
  '#videoFilters.entering': (snapshot) => {
    before = snapshot;
    // The list is not open yet: nothing shown, nothing stored.
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    expect(FILTER_KEYS.filter((key) => window.sessionStorage.getItem(key) !== null)).toEqual([]);
  },
  '#videoFilters.ready': (snapshot) => {
    before = snapshot;
    const { filters } = snapshot.context;
    const expected = toSearch(filters);
    // The address and session storage hold the filters, and only them.
    expect(address).toEqual(expected);
    for (const key of FILTER_KEYS) expect(window.sessionStorage.getItem(key)).toBe(expected[key] ?? null);
    // No popover is left open.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Tabs.
    const tab = filters.favorite === true ? 'Favoritos' : filters.notSeen === true ? 'No vistos' : 'Todos';
    expect(screen.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    for (const other of ['Todos', 'Favoritos', 'No vistos'].filter((name) => name !== tab)) {
      expect(screen.getByRole('tab', { name: other })).toHaveAttribute('aria-selected', 'false');
    }
    // Search box.
    const clearSearch = screen.queryByRole('button', { name: 'Borrar búsqueda' });
    if (filters.q) {
      expect(screen.getByRole('searchbox', { name: 'Buscar' })).toHaveValue(filters.q);
      expect(clearSearch).toBeInTheDocument();
    } else {
      expect(clearSearch).not.toBeInTheDocument();
    }
    // Chips.
    const favorite = screen.getByRole('checkbox', { name: 'Favoritos' });
    if (filters.favorite === true) expect(favorite).toBeChecked();
    else expect(favorite).not.toBeChecked();
    expect(button(dateChipLabel(filters))).toBeEnabled();
    expect(button(scoreChipLabel(filters))).toBeEnabled();
    expect(button(tagChipLabel(filters))).toBeEnabled();
    const clears: Array<[string, boolean]> = [
      ['Quitar filtro de fecha de subida', filters.uploadDate !== null],
      ['Quitar filtro de puntuación', filters.score !== null],
      ['Quitar filtro de etiquetas', filters.tagIds.length > 0],
    ];
    for (const [name, shown] of clears) {
      if (shown) expect(button(name)).toBeInTheDocument();
      else expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    // The tag strip shows the same tags as selected.
    const strip = within(screen.getByRole('group', { name: 'Etiquetas' }));
    for (const tag of TAGS) {
      const chip = strip.getByRole('checkbox', { name: tag.nombre });
      if (filters.tagIds.includes(tag.id)) expect(chip).toBeChecked();
      else expect(chip).not.toBeChecked();
    }
  },
} satisfies StateChecks<Snapshot>;

describe('video filters model', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await runPath(path, states, executors);
    }, 120_000);
  }
});

describe('video filters model coverage', () => {
  itCoversTheMachine(videoFiltersMachine, paths, { events, states, executors });

  it('shows every filter on the page, and the after-day form of the date', () => {
    const features = new Set(paths.flatMap((path) => path.features));
    for (const key of FILTER_KEYS) expect(features).toContain(`shows ${key}`);
    expect(features).toContain('shows a day');
  });
});

describe('video filters page, beyond the model', () => {
  it('does nothing on Enter with blank text', async () => {
    renderWithTheme(<Host initial={{ q: 'perros' }} />);
    const box = screen.getByRole('searchbox', { name: 'Buscar' });
    await user.clear(box);
    await user.type(box, '   {Enter}');
    expect(address).toEqual({ q: 'perros' });
    expect(window.sessionStorage.getItem('q')).toBe('perros');
  });

  it('restores stored filters by replacing the address (Back does not return to the list without them), then pushes changes', async () => {
    window.sessionStorage.setItem('fav', 'eq:true');
    renderWithTheme(<Host initial={{}} />);
    expect(navigations).toEqual([{ search: { fav: 'eq:true' }, replace: true }]);
    await user.click(screen.getByRole('tab', { name: 'No vistos' }));
    expect(navigations.at(-1)).toEqual({ search: { 'not-seen': 'eq:true' }, replace: false });
  });

  it('keeps the address’s filters over stored ones on entering, and stores them', () => {
    window.sessionStorage.setItem('score', 'gte:4');
    renderWithTheme(<Host initial={{ q: 'perros' }} />);
    expect(address).toEqual({ q: 'perros' });
    expect(window.sessionStorage.getItem('q')).toBe('perros');
    expect(window.sessionStorage.getItem('score')).toBeNull();
    expect(button('Puntuación')).toBeInTheDocument();
  });

  it('Todos clears the filters and the stored ones', async () => {
    renderWithTheme(<Host initial={{ q: 'perros', fav: 'eq:true', score: 'lte:2' }} />);
    expect(button('2 estrellas o menos')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Todos' }));
    expect(address).toEqual({});
    expect(FILTER_KEYS.filter((key) => window.sessionStorage.getItem(key) !== null)).toEqual([]);
    expect(screen.getByRole('searchbox', { name: 'Buscar' })).toHaveValue('');
  });

  it('shows an address with invalid values as no filter', () => {
    renderWithTheme(<Host initial={{ score: 'gte:9', tag: 'in:x', 'upload-date': 'ayer' }} />);
    expect(button('Puntuación')).toBeInTheDocument();
    expect(button('Etiqueta')).toBeInTheDocument();
    expect(button('Fecha de subida')).toBeInTheDocument();
  });
});
