/**
 * Types of the statistics export (machines/statistics-export/statistics-export.machine.ts): the
 * dashboard's 'Exportar' buttons (one table's rows as '{table}.csv') and 'Exportar dashboard'
 * (the info boxes and every table as 'allData.csv'), R-STAT-7.
 */
import type { components } from '../../contract/openapi.gen.ts';

export type StatisticsTableId = components['schemas']['StatisticsTable'];
export type StatisticsRow = components['schemas']['StatisticsRow'];
export type InfoBox = NonNullable<components['schemas']['StatisticsInfoItem']['infoBox']>;

/** What is being exported. */
export type StatisticsExportRequest = { kind: 'table'; table: StatisticsTableId } | { kind: 'dashboard' };

export interface StatisticsExportContext {
  /** The export under way; null while idle. */
  request: StatisticsExportRequest | null;
}

export type StatisticsExportEvent =
  /** A table's 'Exportar' button. */
  | { type: 'export.table'; table: StatisticsTableId }
  /** 'Exportar dashboard'. */
  | { type: 'export.dashboard' };

/** Every row of one table. */
export interface ExportedTable {
  table: StatisticsTableId;
  rows: readonly StatisticsRow[];
}

/** What `collectRows` answers, and what `download` writes. */
export type StatisticsExportData =
  | { kind: 'table'; table: ExportedTable }
  | { kind: 'dashboard'; infoBoxes: readonly InfoBox[]; tables: readonly ExportedTable[] };

/** `notifyFailure`'s params: which export failed and why. */
export interface StatisticsExportFailure {
  request: StatisticsExportRequest;
  error: unknown;
}

/** 'busy': an export runs (its button shows a loader, every export button is disabled). */
export type StatisticsExportTag = 'busy';
