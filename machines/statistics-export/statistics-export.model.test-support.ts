/**
 * The QA model of the statistics exports (the dashboard's 'Exportar' buttons and 'Exportar
 * dashboard'): each export, and `collectRows` answering with the data of the export it was asked
 * for, or failing. Shared by statistics-export.machine.test.ts and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, failureSentence, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { statisticsExportMachine } from './statistics-export.machine.ts';
import type { StatisticsExportData, StatisticsExportEvent, StatisticsExportRequest } from './statistics-export.types.ts';

export type StatisticsExportSnapshot = SnapshotFrom<typeof statisticsExportMachine>;
export type StatisticsExportModelEvent = StatisticsExportEvent | DoneEvent<'collectRows', StatisticsExportData> | ErrorEvent<'collectRows'>;

export const UMA_DATA: StatisticsExportData = {
  kind: 'table',
  table: { table: 'uma', rows: [{ usuario: 'ana', nombre: 'Ana Pérez', videosVistos: 12 }] },
};
export const VMR_DATA: StatisticsExportData = {
  kind: 'table',
  table: { table: 'vmr', rows: [{ id: 3, video: 'Gatos', puntuacion: 4.25 }] },
};
export const DASHBOARD_DATA: StatisticsExportData = {
  kind: 'dashboard',
  infoBoxes: [{ id: 'videos', icon: 'videos', count: 120, title: 'Videos' }],
  tables: [UMA_DATA.table],
};
export const FAILURE = { status: 500, type: 'internal-server-error' };

/** What each export asks `collectRows` for, and the data that answers it. */
export const ANSWERS: Array<{ request: StatisticsExportRequest; data: StatisticsExportData }> = [
  { request: { kind: 'table', table: 'uma' }, data: UMA_DATA },
  { request: { kind: 'table', table: 'vmr' }, data: VMR_DATA },
  { request: { kind: 'dashboard' }, data: DASHBOARD_DATA },
];
export const answerTo = (request: StatisticsExportRequest | null) =>
  ANSWERS.find((answer) => JSON.stringify(answer.request) === JSON.stringify(request));

const events: StatisticsExportModelEvent[] = [
  { type: 'export.table', table: 'uma' },
  { type: 'export.table', table: 'vmr' },
  { type: 'export.dashboard' },
  ...ANSWERS.map(({ data }) => ({ type: 'xstate.done.actor.collectRows', output: data }) as const),
  { type: 'xstate.error.actor.collectRows', error: FAILURE },
];

export const statisticsExportModel = defineQaModel({
  name: 'statistics-export',
  title: "Las exportaciones de las estadísticas ('Exportar' de cada tabla y 'Exportar dashboard')",
  machine: statisticsExportMachine,
  events,
  // `collectRows` answers with the data of the export it was asked for (not another export's).
  filterEvents: (snapshot, event) =>
    event.type !== 'xstate.done.actor.collectRows' || answerTo(snapshot.context.request)?.data === (event as { output: unknown }).output,
  eventDescriptions: {
    'export.table': ({ table }) => `el usuario pulsa 'Exportar' en la tabla ${table}`,
    'export.dashboard': "el usuario pulsa 'Exportar dashboard'",
    'xstate.done.actor.collectRows': ({ output }) =>
      output.kind === 'dashboard' ? 'el servidor da los datos de todo el panel y se descarga allData.csv' : `el servidor da las filas y se descarga ${output.table.table}.csv`,
    'xstate.error.actor.collectRows': ({ error }) => `al leer las filas, ${failureSentence(error)}`,
  } satisfies EventDescriptions<StatisticsExportModelEvent>,
});
