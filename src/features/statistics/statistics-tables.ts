import type { components } from '../../../contract/openapi.gen.ts';
import type { StatisticsTableId } from './statistics-search.ts';

type StatisticsRow = components['schemas']['StatisticsRow'];

/** The rows of each table (openapi.yaml `StatisticsRow`, one member per table). */
export interface StatisticsTableRows {
  uma: Array<Extract<StatisticsRow, { usuario: string }>>;
  oma: Array<Extract<StatisticsRow, { organizacion: string }>>;
  vmv: Array<Extract<StatisticsRow, { visualizaciones: number }>>;
  vmr: Array<Extract<StatisticsRow, { puntuacion: number }>>;
}

/** Any table's row, read by column key. */
export type AnyStatisticsRow = StatisticsTableRows[StatisticsTableId][number];
type RowKey = { [T in StatisticsTableId]: keyof StatisticsTableRows[T][number] }[StatisticsTableId];

/**
 * How a cell shows: `text` as is; `count` a whole number with es-ES grouping; `rating` two decimals
 * with a decimal comma; `video` the title as a link to the video (the row's `id`).
 */
export type ColumnKind = 'text' | 'count' | 'rating' | 'video';

export interface StatisticsColumn {
  /** The column header (R-STAT-7), also the CSV header. */
  header: string;
  key: Exclude<RowKey, 'id'>;
  kind: ColumnKind;
}

export interface StatisticsTableDefinition {
  id: StatisticsTableId;
  title: string;
  columns: readonly StatisticsColumn[];
}

/** The four dashboard tables of R-STAT-3, with their query-string prefixes (uma_, oma_, vmv_, vmr_). */
export const statisticsTables = [
  {
    id: 'uma',
    title: 'Usuarios más activos',
    columns: [
      { header: 'Usuario', key: 'usuario', kind: 'text' },
      { header: 'Nombre', key: 'nombre', kind: 'text' },
      { header: 'Videos vistos', key: 'videosVistos', kind: 'count' },
    ],
  },
  {
    id: 'oma',
    title: 'Organizaciones con más videos visualizados',
    columns: [
      { header: 'Organización', key: 'organizacion', kind: 'text' },
      { header: 'Videos vistos', key: 'videosVistos', kind: 'count' },
    ],
  },
  {
    id: 'vmv',
    title: 'Videos más visualizados',
    columns: [
      { header: 'Videos', key: 'video', kind: 'video' },
      { header: 'Visualizaciones', key: 'visualizaciones', kind: 'count' },
    ],
  },
  {
    id: 'vmr',
    title: 'Videos mejor valorados',
    columns: [
      { header: 'Videos', key: 'video', kind: 'video' },
      { header: 'Puntuación', key: 'puntuacion', kind: 'rating' },
    ],
  },
] as const satisfies readonly StatisticsTableDefinition[];

/** A table's definition by id. */
export function statisticsTable(id: StatisticsTableId): StatisticsTableDefinition {
  return statisticsTables.find((table) => table.id === id)!;
}

/** A cell's raw value (a number stays a number); '' when the row lacks it. */
export function cellValue(row: AnyStatisticsRow, column: StatisticsColumn): string | number {
  const value = (row as Record<string, unknown>)[column.key];
  return typeof value === 'number' || typeof value === 'string' ? value : '';
}

/** The video a row is about (vmv, vmr), for the title's link. */
export function rowVideoId(row: AnyStatisticsRow): number | undefined {
  return 'id' in row && typeof row.id === 'number' ? row.id : undefined;
}

// ---- display (es-ES) ---------------------------------------------------------------------------------

const counts = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0 });
const ratings = new Intl.NumberFormat('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A count with es-ES grouping: 12.345 (es-ES groups from five digits: 1234). */
export const formatCount = (value: number): string => counts.format(value);
/** A rating with two decimals and a decimal comma: 4,25. */
export const formatRating = (value: number): string => ratings.format(value);

/** What a cell shows. */
export function displayCell(row: AnyStatisticsRow, column: StatisticsColumn): string {
  const value = cellValue(row, column);
  if (typeof value !== 'number') return value;
  return column.kind === 'rating' ? formatRating(value) : formatCount(value);
}
