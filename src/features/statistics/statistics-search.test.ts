import { describe, expect, it } from 'vitest';
import {
  addressOfPaging,
  canNext,
  canPrevious,
  DEFAULT_PAGING,
  goToPage,
  nextPage,
  pagingOf,
  parsePageSize,
  previousPage,
  tablePagings,
  validateStatisticsSearch,
  withPageSize,
} from './statistics-search.ts';

/** The keys the address carries (undefined ones are left out of it). */
const defined = (search: Record<string, unknown>) => Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined));

describe('validateStatisticsSearch', () => {
  it('names every table’s three keys, each undefined when the address has nothing (defaults stay out of it)', () => {
    const search = validateStatisticsSearch({});
    expect(Object.keys(search).sort()).toEqual(
      ['oma', 'uma', 'vmr', 'vmv'].flatMap((table) => [`${table}_limit`, `${table}_offset`, `${table}_page`]).sort(),
    );
    expect(defined(search)).toEqual({});
  });

  it('keeps a valid state of each table, as the router parses it (numbers) or as typed (digits)', () => {
    expect(
      defined(
        validateStatisticsSearch({
          uma_limit: 10,
          uma_offset: 20,
          uma_page: 2,
          oma_limit: '25',
          oma_offset: '0',
          vmv_offset: 5,
          vmv_page: 1,
          vmr_limit: 100,
          vmr_offset: 300,
          vmr_page: 3,
        }),
      ),
    ).toEqual({ uma_limit: 10, uma_offset: 20, uma_page: 2, oma_limit: 25, vmv_offset: 5, vmv_page: 1, vmr_limit: 100, vmr_offset: 300, vmr_page: 3 });
  });

  it('drops default values even when the address spells them out', () => {
    expect(defined(validateStatisticsSearch({ uma_limit: 5, uma_offset: 0, uma_page: 0 }))).toEqual({});
  });

  it('falls back to the default for a size that is not offered, and never throws', () => {
    for (const limit of [0, 1, 7, 20, 101, 1000, -5, 2.5, '5.0', '05x', 'diez', true, null, [10], { a: 10 }]) {
      expect(pagingOf({ uma_limit: limit }, 'uma').limit).toBe(5);
    }
    for (const limit of [5, 10, 25, 50, 100]) expect(pagingOf({ oma_limit: limit }, 'oma').limit).toBe(limit);
  });

  it('falls back to offset 0 and page 0 for negative, fractional, non-numeric or out-of-contract values', () => {
    for (const value of [-1, 1.5, 'abc', '', '-5', Number.NaN, Number.POSITIVE_INFINITY, 1_000_005, 2 ** 60, false]) {
      expect(pagingOf({ vmv_offset: value }, 'vmv')).toEqual(DEFAULT_PAGING);
      expect(pagingOf({ vmv_page: value }, 'vmv')).toEqual(DEFAULT_PAGING);
    }
  });

  it('derives the page from an offset that disagrees with it, on a page boundary', () => {
    // offset 12 at size 5: page 2 (rows 10–14), offset 10.
    expect(pagingOf({ uma_offset: 12 }, 'uma')).toEqual({ limit: 5, offset: 10, page: 2 });
    expect(pagingOf({ uma_offset: 12, uma_page: 7 }, 'uma')).toEqual({ limit: 5, offset: 10, page: 2 });
    // A page without its offset: the offset (0) is what the API is asked for.
    expect(pagingOf({ uma_page: 3 }, 'uma')).toEqual({ limit: 5, offset: 0, page: 0 });
    expect(pagingOf({ uma_limit: 25, uma_offset: 60, uma_page: 0 }, 'uma')).toEqual({ limit: 25, offset: 50, page: 2 });
    expect(defined(validateStatisticsSearch({ uma_offset: 12, uma_page: 7 }))).toEqual({ uma_offset: 10, uma_page: 2 });
  });

  it('keeps the tables apart', () => {
    expect(tablePagings({ uma_limit: 10, uma_offset: 10, uma_page: 1, vmr_limit: 50 })).toEqual({
      uma: { limit: 10, offset: 10, page: 1 },
      oma: DEFAULT_PAGING,
      vmv: DEFAULT_PAGING,
      vmr: { limit: 50, offset: 0, page: 0 },
    });
  });

  it('leaves other search params to others (the list’s filters are the layout’s)', () => {
    expect(validateStatisticsSearch({ q: 'gatos', uma_limit: 10 })).not.toHaveProperty('q');
  });
});

describe('addressOfPaging', () => {
  it('writes the values that differ from the defaults and names the rest as undefined', () => {
    expect(addressOfPaging('oma', { limit: 10, offset: 20, page: 2 })).toEqual({ oma_limit: 10, oma_offset: 20, oma_page: 2 });
    const first = addressOfPaging('oma', { limit: 5, offset: 0, page: 0 });
    expect(Object.keys(first)).toEqual(['oma_limit', 'oma_offset', 'oma_page']);
    expect(defined(first)).toEqual({});
  });
});

describe('paging', () => {
  it('next and previous move one page and set offset = page × size', () => {
    const third = nextPage(nextPage({ limit: 10, offset: 0, page: 0 }));
    expect(third).toEqual({ limit: 10, offset: 20, page: 2 });
    expect(previousPage(third)).toEqual({ limit: 10, offset: 10, page: 1 });
    expect(goToPage({ limit: 25, offset: 0, page: 0 }, 4)).toEqual({ limit: 25, offset: 100, page: 4 });
  });

  it('never goes before the first page', () => {
    expect(previousPage(DEFAULT_PAGING)).toEqual(DEFAULT_PAGING);
  });

  it('a new page size starts again at page 0', () => {
    expect(withPageSize(50)).toEqual({ limit: 50, offset: 0, page: 0 });
  });

  it('previous is possible past offset 0 only', () => {
    expect(canPrevious(DEFAULT_PAGING)).toBe(false);
    expect(canPrevious({ limit: 5, offset: 5, page: 1 })).toBe(true);
  });

  it('next is possible after a full page only (a short page is the last), never while the rows are unknown', () => {
    const paging = { limit: 10, offset: 0, page: 0 } as const;
    expect(canNext(paging, 10)).toBe(true);
    expect(canNext(paging, 9)).toBe(false);
    expect(canNext(paging, 0)).toBe(false);
    expect(canNext(paging, undefined)).toBe(false);
    // Beyond the contract's largest offset there is nothing the API would answer.
    expect(canNext({ limit: 100, offset: 999_900, page: 9_999 }, 100)).toBe(true);
    expect(canNext({ limit: 100, offset: 1_000_000, page: 10_000 }, 100)).toBe(false);
  });

  it('reads a page size from a control’s value', () => {
    expect(parsePageSize('25')).toBe(25);
    expect(parsePageSize('7')).toBeUndefined();
    expect(parsePageSize(null)).toBeUndefined();
  });
});
