import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  filtersForTab,
  isDay,
  NO_FILTERS,
  normalizeFilters,
  parseFilters,
  tabOf,
  toApiQuery,
  toSearch,
} from './video-filters.ts';
import { videoFiltersMachine } from './video-filters.machine.ts';
import type { FilterSearch, VideoFilters } from './video-filters.types.ts';

const ALL: FilterSearch = {
  q: 'gatos',
  tag: 'in:3,7',
  fav: 'eq:true',
  'upload-date': 'tm',
  score: 'gte:4',
  'not-seen': 'eq:true',
  subtitulos: 'con',
};

describe('parseFilters / toSearch', () => {
  it('reads the seven filters of the address and writes them back unchanged', () => {
    const filters = parseFilters(ALL);
    expect(filters).toEqual({
      q: 'gatos',
      tagIds: [3, 7],
      favorite: true,
      uploadDate: { period: 'tm' },
      score: { operator: 'gte', stars: 4 },
      notSeen: true,
      subtitles: 'con',
    });
    expect(toSearch(filters)).toEqual(ALL);
  });

  it.each<[FilterSearch['upload-date'], VideoFilters['uploadDate']]>([
    ['tw', { period: 'tw' }],
    ['tm', { period: 'tm' }],
    ['l6m', { period: 'l6m' }],
    ['ty', { period: 'ty' }],
    ['gt:2024-05-01', { after: '2024-05-01' }],
    ['btw:2024-01-01,2024-02-29', { from: '2024-01-01', to: '2024-02-29' }],
  ])('reads upload-date=%s', (value, uploadDate) => {
    expect(parseFilters({ 'upload-date': value }).uploadDate).toEqual(uploadDate);
    expect(toSearch({ ...NO_FILTERS, uploadDate })['upload-date']).toBe(value);
  });

  it('reads the score operators eq, gte and lte with 1 to 5 stars', () => {
    expect(parseFilters({ score: 'eq:1' }).score).toEqual({ operator: 'eq', stars: 1 });
    expect(parseFilters({ score: 'lte:5' }).score).toEqual({ operator: 'lte', stars: 5 });
  });

  it('falls back to no filter for every invalid value (R-LIB-13), never throwing', () => {
    const invalid: FilterSearch = {
      q: '   ',
      tag: 'in:3,abc',
      fav: 'maybe',
      'upload-date': 'gt:2024-02-30',
      score: 'gte:9',
      'not-seen': '1',
    };
    expect(parseFilters(invalid)).toEqual(NO_FILTERS);
    for (const value of ['in:', 'in:0', 'in:-1', '3,7', 'in:99999999999', `in:${Array.from({ length: 51 }, (_, i) => i + 1).join(',')}`]) {
      expect(parseFilters({ tag: value }).tagIds).toEqual([]);
    }
    for (const value of ['gte:0', 'gte:6', 'gt:4', '4', 'gte:4.5', 'gte:']) expect(parseFilters({ score: value }).score).toBeNull();
    for (const value of ['yesterday', 'gt:2024-13-01', 'gt:24-05-01', 'btw:2024-05-02,2024-05-01', 'lm']) {
      expect(parseFilters({ 'upload-date': value }).uploadDate).toBeNull();
    }
    expect(parseFilters({ q: 'x'.repeat(201) }).q).toBeNull();
  });

  it('keeps the text trimmed, the tag ids once each and in their order', () => {
    expect(parseFilters({ q: '  gatos negros ', tag: 'in:7,3,7' })).toMatchObject({ q: 'gatos negros', tagIds: [7, 3] });
  });

  it('reads the router’s booleans and the bare true/false as equals', () => {
    expect(parseFilters({ fav: 'true', 'not-seen': 'false' })).toMatchObject({ favorite: true, notSeen: false });
    expect(toSearch(parseFilters({ fav: 'true' }))).toEqual({ fav: 'eq:true' });
  });

  it('reads a tag list written under the score key (the defect R-LIB-13 records) as the tag filter', () => {
    expect(parseFilters({ score: 'in:3,7' })).toMatchObject({ tagIds: [3, 7], score: null });
    expect(toSearch(parseFilters({ score: 'in:3,7' }))).toEqual({ tag: 'in:3,7' });
    // The tag key wins when both are there.
    expect(parseFilters({ tag: 'in:5', score: 'in:3,7' }).tagIds).toEqual([5]);
  });

  it('normalizeFilters drops what the address could not carry', () => {
    const filters = normalizeFilters({ ...NO_FILTERS, q: '  ', score: { operator: 'gte', stars: 9 as 5 }, tagIds: [4, 4, 0] });
    expect(filters).toEqual({ ...NO_FILTERS, tagIds: [] });
    expect(normalizeFilters({ ...NO_FILTERS, tagIds: [4, 4, 2] }).tagIds).toEqual([4, 2]);
  });

  it('isDay accepts real calendar days only', () => {
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2023-02-29')).toBe(false);
    expect(isDay('2024-2-9')).toBe(false);
  });
});

describe('toApiQuery (openapi.yaml listVideos)', () => {
  it('maps the address keys to the API’s: fav → favorited, not-seen → notSeen', () => {
    expect(toApiQuery(parseFilters(ALL))).toEqual({
      q: 'gatos',
      tag: 'in:3,7',
      favorited: 'eq:true',
      score: 'gte:4',
      'upload-date': 'tm',
      notSeen: 'eq:true',
      subtitulos: 'con',
    });
  });

  it('writes the after-date and between forms and leaves out what is not set', () => {
    expect(toApiQuery({ ...NO_FILTERS, uploadDate: { after: '2024-05-01' } })).toEqual({ 'upload-date': 'gt:2024-05-01' });
    expect(toApiQuery({ ...NO_FILTERS, uploadDate: { from: '2024-01-01', to: '2024-03-31' } })).toEqual({
      'upload-date': 'btw:2024-01-01,2024-03-31',
    });
    expect(toApiQuery(NO_FILTERS)).toEqual({});
  });

  it('reads and writes the subtitles filter as subtitulos=con|sin (R-LIB-26); anything else is no filter', () => {
    expect(parseFilters({ subtitulos: 'con' }).subtitles).toBe('con');
    expect(parseFilters({ subtitulos: ' sin ' }).subtitles).toBe('sin');
    expect(parseFilters({ subtitulos: 'si' }).subtitles).toBeNull();
    expect(toSearch({ ...NO_FILTERS, subtitles: 'sin' })).toEqual({ subtitulos: 'sin' });
    expect(toApiQuery({ ...NO_FILTERS, subtitles: 'con' })).toEqual({ subtitulos: 'con' });
  });

  it('never sends an invalid value', () => {
    expect(toApiQuery({ ...NO_FILTERS, q: ' ', tagIds: [0], score: { operator: 'gte', stars: 7 as 5 } })).toEqual({});
  });

  it('matches the patterns of openapi.yaml', () => {
    const query = toApiQuery({
      q: 'x',
      tagIds: [1, 2_147_483_647],
      favorite: false,
      uploadDate: { after: '2024-05-01' },
      score: { operator: 'lte', stars: 2 },
      notSeen: false,
      subtitles: 'sin',
    });
    expect(query.subtitulos).toBe('sin');
    expect(query.tag).toMatch(/^in:[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,49}$/);
    expect(query.score).toMatch(/^(eq|gte|lte):[1-5]$/);
    expect(query['upload-date']).toMatch(/^(tw|tm|l6m|ty|gt:\d{4}-\d{2}-\d{2}|btw:\d{4}-\d{2}-\d{2},\d{4}-\d{2}-\d{2})$/);
    expect(['eq:true', 'eq:false']).toContain(query.favorited);
    expect(['eq:true', 'eq:false']).toContain(query.notSeen);
  });
});

describe('tabs (R-LIB-4)', () => {
  const filters = parseFilters({ q: 'gatos', score: 'eq:5', 'not-seen': 'eq:true' });

  it('Favoritos sets favourite equals-true, No vistos sets not-seen equals-true, keeping the other filters', () => {
    expect(toSearch(filtersForTab(filters, 'favoritos'))).toEqual({ q: 'gatos', score: 'eq:5', fav: 'eq:true' });
    expect(toSearch(filtersForTab(parseFilters({ q: 'gatos', fav: 'eq:true' }), 'no-vistos'))).toEqual({
      q: 'gatos',
      'not-seen': 'eq:true',
    });
  });

  it('Todos clears every filter', () => {
    expect(filtersForTab(filters, 'todos')).toEqual(NO_FILTERS);
  });

  it('shows the tab of the filters', () => {
    expect(tabOf(NO_FILTERS)).toBe('todos');
    expect(tabOf(parseFilters({ fav: 'eq:true' }))).toBe('favoritos');
    expect(tabOf(parseFilters({ 'not-seen': 'eq:true' }))).toBe('no-vistos');
    expect(tabOf(parseFilters({ fav: 'eq:false' }))).toBe('todos');
  });
});

describe('videoFiltersMachine actions (what the app is asked to do)', () => {
  function start(search: FilterSearch) {
    const calls: Array<[string, unknown]> = [];
    const actor = createActor(
      videoFiltersMachine.provide({
        actions: {
          writeAddress: (_, params) => void calls.push(['writeAddress', params]),
          storeFilters: (_, params) => void calls.push(['storeFilters', params]),
        },
      }),
      { input: { search } },
    ).start();
    return { actor, calls };
  }

  it('restores stored filters into an address without filters, replacing the address', () => {
    const { actor, calls } = start({});
    expect(actor.getSnapshot().hasTag('restoring')).toBe(true);
    actor.send({ type: 'filters.restore', stored: { score: 'gte:4', fav: 'bogus' } });
    expect(actor.getSnapshot().hasTag('ready')).toBe(true);
    expect(calls).toEqual([
      ['storeFilters', { search: { score: 'gte:4' } }],
      ['writeAddress', { search: { score: 'gte:4' }, replace: true }],
    ]);
  });

  it('keeps the address’s filters over the stored ones, and stores them', () => {
    const { actor, calls } = start({ q: 'gatos' });
    actor.send({ type: 'filters.restore', stored: { score: 'gte:4' } });
    expect(actor.getSnapshot().context.filters).toMatchObject({ q: 'gatos', score: null });
    expect(calls).toEqual([['storeFilters', { search: { q: 'gatos' } }]]);
  });

  it('writes each change into storage and the address as a new history entry', () => {
    const { actor, calls } = start({});
    actor.send({ type: 'filters.restore', stored: {} });
    calls.length = 0;
    actor.send({ type: 'filters.search', text: '  gatos ' });
    actor.send({ type: 'filters.set', filters: { tagIds: [3, 7] } });
    actor.send({ type: 'filters.tab', tab: 'favoritos' });
    actor.send({ type: 'filters.clear', filter: 'tagIds' });
    actor.send({ type: 'filters.tab', tab: 'todos' });
    const written = calls.filter(([name]) => name === 'writeAddress').map(([, params]) => params);
    expect(written).toEqual([
      { search: { q: 'gatos' }, replace: false },
      { search: { q: 'gatos', tag: 'in:3,7' }, replace: false },
      { search: { q: 'gatos', tag: 'in:3,7', fav: 'eq:true' }, replace: false },
      { search: { q: 'gatos', fav: 'eq:true' }, replace: false },
      { search: {}, replace: false },
    ]);
    // Todos also clears the stored filters.
    expect(calls.at(-2)).toEqual(['storeFilters', { search: {} }]);
  });

  it('ignores Enter on blank text and an address that says what the filters already are', () => {
    const { actor, calls } = start({ q: 'gatos' });
    actor.send({ type: 'filters.restore', stored: {} });
    calls.length = 0;
    actor.send({ type: 'filters.search', text: '   ' });
    actor.send({ type: 'filters.sync', search: { q: ' gatos ' } });
    expect(calls).toEqual([]);
    actor.send({ type: 'filters.sync', search: { tag: 'in:4' } });
    expect(calls).toEqual([['storeFilters', { search: { tag: 'in:4' } }]]);
  });

  it('waits for the stored filters before taking any change', () => {
    const { actor, calls } = start({});
    actor.send({ type: 'filters.search', text: 'gatos' });
    expect(actor.getSnapshot().context.filters.q).toBeNull();
    expect(calls).toEqual([]);
  });
});
