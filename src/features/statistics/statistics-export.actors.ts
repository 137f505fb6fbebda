import { fromPromise } from 'xstate';
import { statisticsExportMachine } from '../../../machines/statistics-export/statistics-export.machine.ts';
import type {
  ExportedTable,
  StatisticsExportData,
  StatisticsExportRequest,
} from '../../../machines/statistics-export/statistics-export.types.ts';
import { downloadFile } from '../../lib/download.ts';
import { statisticsMessages } from '../../lib/messages.ts';
import type { ToastStore } from '../../lib/toasts.ts';
import { exportFile } from './csv.ts';
import { statisticsTableIds, type StatisticsTableId } from './statistics-search.ts';
import { fetchInfoBoxes, fetchTablePage, type TablePage } from './statistics.queries.ts';

/** Rows asked for per request while exporting: the contract's largest page. */
export const EXPORT_PAGE_SIZE = 100;
/** At most this many rows of one table go into a file (a spreadsheet's comfort, and the server's). */
export const EXPORT_MAX_ROWS = 100_000;

type FetchPage = (page: TablePage, signal: AbortSignal) => Promise<readonly ExportedTable['rows'][number][]>;

/**
 * Every row of `table`, in the table's order: pages of `EXPORT_PAGE_SIZE` one after the other until
 * a short page (the last), stopping at `EXPORT_MAX_ROWS`. The pages are read straight from the API
 * (not through the query cache, which would keep up to a thousand pages for five minutes); a
 * failure fails the export (the user may press again).
 */
export async function collectTable(table: StatisticsTableId, signal: AbortSignal, fetchPage: FetchPage = fetchTablePage): Promise<ExportedTable> {
  const rows: Array<ExportedTable['rows'][number]> = [];
  while (rows.length < EXPORT_MAX_ROWS) {
    const page = await fetchPage({ table, limit: EXPORT_PAGE_SIZE, offset: rows.length }, signal);
    rows.push(...page);
    if (page.length < EXPORT_PAGE_SIZE) break;
  }
  return { table, rows: rows.slice(0, EXPORT_MAX_ROWS) };
}

/** What an export's file holds: one table's rows, or the info boxes and every table's rows. */
export async function collectRows(request: StatisticsExportRequest, signal: AbortSignal): Promise<StatisticsExportData> {
  if (request.kind === 'table') return { kind: 'table', table: await collectTable(request.table, signal) };
  const [infoBoxes, ...tables] = await Promise.all([
    fetchInfoBoxes(signal),
    ...statisticsTableIds.map((table) => collectTable(table, signal)),
  ]);
  return { kind: 'dashboard', infoBoxes, tables: tables as ExportedTable[] };
}

/**
 * The export machine with the app's side effects: the rows from the API, the file through the
 * browser's downloads, a failure as the toast 'Error al obtener los datos' (R-STAT-6).
 */
export function createStatisticsExportLogic(toasts: Pick<ToastStore, 'show'>) {
  // The toast's actor is created just after the machine's step: XState warns when a machine is
  // created while a custom action runs (it mistakes the new machine's initial context for an `assign`).
  const showFailure = () => queueMicrotask(() => void toasts.show({ kind: 'error', message: statisticsMessages.loadFailed }));
  return statisticsExportMachine.provide({
    actors: {
      collectRows: fromPromise<StatisticsExportData, StatisticsExportRequest>(({ input, signal }) => collectRows(input, signal)),
    },
    actions: {
      download: (_, data) => {
        const file = exportFile(data);
        downloadFile(file.name, file.content);
      },
      notifyFailure: showFailure,
    },
  });
}
