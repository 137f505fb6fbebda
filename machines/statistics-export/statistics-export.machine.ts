import { assign, fromPromise, setup } from 'xstate';
import type {
  StatisticsExportContext,
  StatisticsExportData,
  StatisticsExportEvent,
  StatisticsExportFailure,
  StatisticsExportRequest,
  StatisticsExportTag,
} from './statistics-export.types.ts';

/**
 * The dashboard's CSV exports (R-STAT-2, R-STAT-7):
 *
 *   idle ─export.table(table) / export.dashboard→ exporting ─done→ idle (download)
 *                                                            └error→ idle (notifyFailure)
 *
 * - `exporting` (tag 'busy'): the `collectRows` actor gathers what the file holds (every row of a
 *   table, or the info boxes and every table); the UI shows a loader on the pressed button and
 *   disables the other export buttons. Another export asked for meanwhile is ignored: one file at
 *   a time, and the one asked for first is the one the user is waiting for.
 * - done: `download` writes the file ('{table}.csv' or 'allData.csv'); failed: `notifyFailure`
 *   (the app's toast 'Error al obtener los datos'). Either way back to `idle`: try again at will.
 *
 * The app supplies `collectRows`, `download` and `notifyFailure` with `.provide()`; the defaults
 * throw (nothing happens unless the app says what).
 */
export const statisticsExportMachine = setup({
  types: {} as {
    context: StatisticsExportContext;
    events: StatisticsExportEvent;
    tags: StatisticsExportTag;
  },
  actors: {
    collectRows: fromPromise<StatisticsExportData, StatisticsExportRequest>(async () => {
      throw new Error('collectRows is supplied by the app with .provide()');
    }),
  },
  actions: {
    download: (_, _data: StatisticsExportData) => {
      throw new Error('download is supplied by the app with .provide()');
    },
    notifyFailure: (_, _failure: StatisticsExportFailure) => {
      throw new Error('notifyFailure is supplied by the app with .provide()');
    },
  },
}).createMachine({
  id: 'statisticsExport',
  description: 'The CSV exports of the statistics dashboard: one at a time.',
  context: { request: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'Every export button enabled.',
      meta: { qa: 'Exportaciones disponibles' },
      entry: assign({ request: null }),
      on: {
        'export.table': {
          target: 'exporting',
          actions: assign({ request: ({ event }) => ({ kind: 'table', table: event.table }) }),
        },
        'export.dashboard': {
          target: 'exporting',
          actions: assign({ request: { kind: 'dashboard' } }),
        },
      },
    },
    exporting: {
      description: 'The rows are being gathered: a loader on the pressed button, every export button disabled; other exports are ignored.',
      meta: { qa: 'Exportando' },
      tags: ['busy'],
      invoke: {
        id: 'collectRows',
        src: 'collectRows',
        input: ({ context }) => context.request!,
        onDone: {
          target: 'idle',
          actions: { type: 'download', params: ({ event }) => event.output },
        },
        onError: {
          target: 'idle',
          actions: { type: 'notifyFailure', params: ({ context, event }) => ({ request: context.request!, error: event.error }) },
        },
      },
    },
  },
});
