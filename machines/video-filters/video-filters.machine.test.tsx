import { useCallback, useState } from 'react';
import { act, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { beforeEach, describe, expect, it } from 'vitest';
import { useVideoFilters } from '../../src/features/videos/use-video-filters.ts';
import { VideoFiltersBar } from '../../src/features/videos/video-filters-bar.tsx';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import { itCoversTheMachine, runPath, type Executors, type StateChecks } from '../../tests/utils/machine-model.ts';
import { FILTER_KEYS, toSearch } from './video-filters.ts';
import { videoFiltersMachine } from './video-filters.machine.ts';
import { ADDRESS, NAME, TAGS, videoFiltersModel, type VideoFiltersSnapshot } from './video-filters.model.test-support.ts';
import type { FilterSearch, VideoFilters, VideoFiltersEvent, WriteAddressParams } from './video-filters.types.ts';

type Snapshot = VideoFiltersSnapshot;
// The model is shared with `npm run qa`: video-filters.model.test-support.ts.
const { events, paths } = videoFiltersModel;

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
  // An administrator's list: the Subtítulos chip is there too (R-LIB-26).
  return <VideoFiltersBar actorRef={actorRef} tags={TAGS} locale="es-ES" isAdmin />;
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
const subtitlesChipLabel = (filters: VideoFilters) =>
  filters.subtitles === 'con' ? 'Con subtítulos' : filters.subtitles === 'sin' ? 'Sin subtítulos' : 'Subtítulos';
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
    } else if (changes.subtitles) {
      await user.click(button(subtitlesChipLabel(filters)));
      await user.click(within(dialog('Filtrar por subtítulos')).getByRole('button', { name: subtitlesChipLabel({ ...filters, ...changes }) }));
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
      subtitles: 'Quitar filtro de subtítulos',
    }[event.filter as 'q' | 'tagIds' | 'uploadDate' | 'score' | 'subtitles'];
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
    expect(button(subtitlesChipLabel(filters))).toBeEnabled();
    const clears: Array<[string, boolean]> = [
      ['Quitar filtro de subtítulos', filters.subtitles !== null],
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
