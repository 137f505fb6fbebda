import type { components } from '../../../contract/openapi.gen.ts';

/**
 * The dashboard tables' paging in the address (R-STAT-2, R-STAT-4):
 * `uma_limit`, `uma_offset`, `uma_page` and the same for `oma_`, `vmv_`, `vmr_`. Defaults: limit 5,
 * offset 0, page 0. Anything invalid falls back to its default, never an error; an offset that
 * disagrees with page × limit wins (it is what the API is asked for): the page is derived from it
 * and the offset put back on a page boundary (docs/decisions/0047-statistics-page-state-and-chart.md).
 */

export type StatisticsTableId = components['schemas']['StatisticsTable'];

/** The four tables, in the dashboard's order. */
export const statisticsTableIds = ['uma', 'oma', 'vmv', 'vmr'] as const satisfies readonly StatisticsTableId[];

/** R-STAT-4: the page sizes offered; 5 by default. */
export const PAGE_SIZES = [5, 10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** The contract's largest `offset` (openapi.yaml): a larger one would only get a 400. */
export const MAX_OFFSET = 1_000_000;

/** One table's place: the page size, the first row asked for, and the page (0-based; shown 1-based). */
export interface TablePaging {
  limit: PageSize;
  offset: number;
  page: number;
}

export const DEFAULT_PAGING: TablePaging = { limit: 5, offset: 0, page: 0 };

const FIELDS = ['limit', 'offset', 'page'] as const;
type Field = (typeof FIELDS)[number];
type SearchKey = `${StatisticsTableId}_${Field}`;

/** The statistics' part of the address: only values that differ from the default are set. */
export type StatisticsSearch = Partial<Record<SearchKey, number>>;

const keyOf = (table: StatisticsTableId, field: Field): SearchKey => `${table}_${field}`;

/**
 * A non-negative whole number as the router hands it over: it parses `5` into a number, but keeps
 * `05` or `5.0` as text. Text of decimal digits is accepted too (what a person would type).
 */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d{1,16}$/.test(value)) {
    const parsed = Number(value);
    return Number.isSafeInteger(parsed) ? parsed : undefined;
  }
  return undefined;
}

const isPageSize = (value: number | undefined): value is PageSize => PAGE_SIZES.includes(value as PageSize);

/** One table's paging read from a search (raw or validated), with the rules above applied. */
export function pagingOf(search: Record<string, unknown>, table: StatisticsTableId): TablePaging {
  const limitValue = wholeNumber(search[keyOf(table, 'limit')]);
  const limit = isPageSize(limitValue) ? limitValue : DEFAULT_PAGING.limit;
  const offsetValue = wholeNumber(search[keyOf(table, 'offset')]);
  const offset = offsetValue !== undefined && offsetValue <= MAX_OFFSET ? offsetValue : DEFAULT_PAGING.offset;
  const pageValue = wholeNumber(search[keyOf(table, 'page')]);
  const page = pageValue ?? DEFAULT_PAGING.page;
  if (offset === page * limit) return { limit, offset, page };
  const derived = Math.floor(offset / limit);
  return { limit, offset: derived * limit, page: derived };
}

/**
 * The address form of one table's paging: its three keys, each default as undefined, so it stays
 * out of the address (and a navigation that spreads it over the previous search removes it).
 */
export function addressOfPaging(table: StatisticsTableId, paging: TablePaging): StatisticsSearch {
  const result: StatisticsSearch = {};
  for (const field of FIELDS) {
    result[keyOf(table, field)] = paging[field] === DEFAULT_PAGING[field] ? undefined : paging[field];
  }
  return result;
}

/**
 * The statistics' part of `validateSearch` of /statistics: every table's three keys, the defaults
 * and whatever was invalid as undefined. Explicitly undefined: the router merges the validated
 * search over the raw one, so an omitted key would let the raw value through.
 */
export function validateStatisticsSearch(search: Record<string, unknown>): StatisticsSearch {
  return Object.assign({}, ...statisticsTableIds.map((table) => addressOfPaging(table, pagingOf(search, table)))) as StatisticsSearch;
}

/** Every table's paging, from the validated (or raw) search. */
export function tablePagings(search: Record<string, unknown>): Record<StatisticsTableId, TablePaging> {
  return Object.fromEntries(statisticsTableIds.map((table) => [table, pagingOf(search, table)])) as Record<StatisticsTableId, TablePaging>;
}

// ---- paging (R-STAT-4: a new page sets offset = page × size; a new size starts again at page 0) ----

/** The page `page` (0-based) at the same size. */
export function goToPage(paging: TablePaging, page: number): TablePaging {
  const target = Math.max(0, Math.floor(page));
  return { limit: paging.limit, page: target, offset: target * paging.limit };
}

export const nextPage = (paging: TablePaging): TablePaging => goToPage(paging, paging.page + 1);
export const previousPage = (paging: TablePaging): TablePaging => goToPage(paging, paging.page - 1);

/** A new page size: back to the first page. */
export function withPageSize(size: PageSize): TablePaging {
  return { limit: size, offset: 0, page: 0 };
}

/** R-STAT-4: previous is disabled at offset 0. */
export const canPrevious = (paging: TablePaging): boolean => paging.offset > 0;

/**
 * R-STAT-4: "Next is disabled when page size exceeds rows returned": a full page may have more
 * after it; a short one is the last. Unknown (loading, failed): no next page to offer.
 */
export function canNext(paging: TablePaging, rowsReturned: number | undefined): boolean {
  return rowsReturned !== undefined && rowsReturned >= paging.limit && paging.offset + paging.limit <= MAX_OFFSET;
}

/** A page size from a control's text value; anything else is undefined. */
export function parsePageSize(value: string | null | undefined): PageSize | undefined {
  const size = value === null || value === undefined ? undefined : wholeNumber(value);
  return isPageSize(size) ? size : undefined;
}
