import { queryOptions } from '@tanstack/react-query';
import type { components } from '../../../contract/openapi.gen.ts';
import { api, unwrap } from '../../lib/api/client.ts';
import { statisticsQueryDefaults } from '../../lib/query-client.ts';
import { browserTimeZone } from '../../lib/time-zone.ts';
import type { StatisticsTableId } from './statistics-search.ts';
import type { StatisticsTableRows } from './statistics-tables.ts';

/**
 * The dashboard's reads (R-STAT-2, GET /api/statistics), one `queryOptions` per read, shared by
 * the /statistics loader that primes them and the components that show them. They follow the
 * statistics policy (`statisticsQueryDefaults`: 2 retries, none on a 4xx, no refetch on window
 * focus) and report their own failure on the page ('Error al obtener los datos' with 'Recargar'),
 * so the app's 'Error obteniendo datos' dialog stays closed for them (`meta.reportsOwnErrors`).
 *
 * Keys:
 * - `['statistics', 'infoBox']`: the info boxes.
 * - `['statistics', 'infoTable', table, { limit, offset }]`: one page of one table.
 * - `['statistics', 'viewsPerDay', tz]`: the last 30 days in the browser's time zone ('' for UTC).
 */

export type InfoBox = NonNullable<components['schemas']['StatisticsInfoItem']['infoBox']>;
export type StatisticsDay = components['schemas']['StatisticsDay'];

/** One page of one table, as asked of the API. */
export interface TablePage<T extends StatisticsTableId = StatisticsTableId> {
  table: T;
  limit: number;
  offset: number;
}

export const statisticsKeys = {
  all: ['statistics'] as const,
  infoBoxes: ['statistics', 'infoBox'] as const,
  tables: ['statistics', 'infoTable'] as const,
  table: ({ table, limit, offset }: TablePage) => ['statistics', 'infoTable', table, { limit, offset }] as const,
  viewsPerDay: (timeZone: string | undefined) => ['statistics', 'viewsPerDay', timeZone ?? ''] as const,
};

/** The query cache leaves these reads' failures to the page (src/lib/query-client.ts). */
const ownErrors = { reportsOwnErrors: true } as const;

// The contract answers one schema per `option` (a union in the generated types): each read below
// asks for one option and reads its answer as that option's schema.

/** GET /api/statistics?option=infoBox: the boxes (items without one are not shown). */
export async function fetchInfoBoxes(signal?: AbortSignal): Promise<InfoBox[]> {
  const items = unwrap(await api.GET('/api/statistics', { params: { query: { option: 'infoBox' } }, signal })) as Array<
    components['schemas']['StatisticsInfoItem']
  >;
  return items.flatMap((item) => (item.infoBox ? [item.infoBox] : []));
}

/** GET /api/statistics?option=infoTable: one page of one table. */
export async function fetchTablePage<T extends StatisticsTableId>(page: TablePage<T>, signal?: AbortSignal): Promise<StatisticsTableRows[T]> {
  const { table, limit, offset } = page;
  const rows = unwrap(await api.GET('/api/statistics', { params: { query: { option: 'infoTable', table, limit, offset } }, signal }));
  return rows as StatisticsTableRows[T];
}

/** GET /api/statistics?option=viewsPerDay: 30 days, oldest first. */
export async function fetchViewsPerDay(timeZone: string | undefined, signal?: AbortSignal): Promise<StatisticsDay[]> {
  const query = { option: 'viewsPerDay' as const, ...(timeZone ? { tz: timeZone } : {}) };
  return unwrap(await api.GET('/api/statistics', { params: { query }, signal })) as StatisticsDay[];
}

export function infoBoxesQuery() {
  return queryOptions({
    queryKey: statisticsKeys.infoBoxes,
    queryFn: ({ signal }) => fetchInfoBoxes(signal),
    ...statisticsQueryDefaults,
    meta: ownErrors,
  });
}

export function statisticsTableQuery<T extends StatisticsTableId>(page: TablePage<T>) {
  const { table, limit, offset } = page;
  return queryOptions({
    queryKey: statisticsKeys.table({ table, limit, offset }),
    queryFn: ({ signal }) => fetchTablePage({ table, limit, offset }, signal),
    ...statisticsQueryDefaults,
    meta: ownErrors,
  });
}

/** The views of the last 30 days in the browser's time zone (as the video list's calendar filters). */
export function viewsPerDayQuery(timeZone: string | undefined = browserTimeZone()) {
  return queryOptions({
    queryKey: statisticsKeys.viewsPerDay(timeZone),
    queryFn: ({ signal }) => fetchViewsPerDay(timeZone, signal),
    ...statisticsQueryDefaults,
    meta: ownErrors,
  });
}
