/**
 * The statistics' CSV (R-STAT-7): semicolon separators, commas stripped from every
 * cell, a row whose first cell is numeric gets an apostrophe before that cell (a spreadsheet then
 * keeps it as written). Beyond the spec (docs/decisions/0046-statistics-units-order-and-csv.md):
 * - a text cell starting with = + - @ (or a tab or carriage return) also gets the apostrophe, so a
 *   spreadsheet never runs a user name or a video title as a formula (CSV injection, OWASP);
 * - a cell holding ; " CR or LF is quoted as RFC 4180 says (quotes doubled);
 * - lines end in CRLF and the file starts with a UTF-8 byte-order mark (spreadsheet programs then
 *   read the accents);
 * - numbers are written plainly, with a dot (4.25): a decimal comma would be stripped into 425.
 */

import type { ExportedTable, InfoBox, StatisticsExportData } from '../../../machines/statistics-export/statistics-export.types.ts';
import { appLabels } from '../../components/app-labels.ts';
import { cellValue, statisticsTable } from './statistics-tables.ts';

export type CsvCell = string | number;
export type CsvRow = readonly CsvCell[];

export const BYTE_ORDER_MARK = '\uFEFF';
const SEPARATOR = ';';
const LINE_END = '\r\n';

/** A number as plain text: no grouping, a dot before the decimals. */
const plainNumber = (value: number) => (Number.isFinite(value) ? String(value) : '');

/** A decimal number as a spreadsheet would read one (after the commas are gone). */
const NUMERIC = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?\s*$/i;
/** The first characters a spreadsheet reads as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** What forces a cell into quotes. */
const NEEDS_QUOTES = /[;"\r\n]/;

/** One cell's text: commas stripped; the apostrophe when the cell must stay text. */
function cellText(cell: CsvCell, first: boolean): string {
  if (typeof cell === 'number') {
    const text = plainNumber(cell);
    return first && text !== '' ? `'${text}` : text;
  }
  const text = cell.replace(/,/g, '');
  const numericFirst = first && NUMERIC.test(text);
  return numericFirst || FORMULA_START.test(text) ? `'${text}` : text;
}

const quoted = (text: string) => (NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** One CSV line (without its line end). */
export function csvLine(row: CsvRow): string {
  return row.map((cell, index) => quoted(cellText(cell, index === 0))).join(SEPARATOR);
}

/** Lines (an empty row is a blank line) as a file: byte-order mark, each line ended by CRLF. */
export function csvDocument(rows: readonly CsvRow[]): string {
  return BYTE_ORDER_MARK + rows.map((row) => csvLine(row) + LINE_END).join('');
}

// ---- the dashboard's files (R-STAT-7: '{table}.csv', 'allData') ------------------------------------

/** A file to download. */
export interface CsvFile {
  name: string;
  content: string;
}

/** A table's header row and rows: its Spanish column headers, then each row's cells in that order. */
export function tableRows({ table, rows }: ExportedTable): CsvRow[] {
  const { columns } = statisticsTable(table);
  return [columns.map((column) => column.header), ...rows.map((row) => columns.map((column) => cellValue(row, column)))];
}

/** One table's export: '{table}.csv' (uma.csv …), its header row and every row. */
export function tableFile(table: ExportedTable): CsvFile {
  return { name: `${table.table}.csv`, content: csvDocument(tableRows(table)) };
}

/**
 * The dashboard's export, 'allData.csv': one section per part, a blank line between them. First
 * 'Datos Generales' (each info box as title;count), then each table as its title, its header row
 * and its rows.
 */
export function dashboardFile(infoBoxes: readonly InfoBox[], tables: readonly ExportedTable[]): CsvFile {
  const sections: CsvRow[][] = [
    [[appLabels.statisticsTitle], ...infoBoxes.map((box) => [box.title, box.count])],
    ...tables.map((table) => [[statisticsTable(table.table).title], ...tableRows(table)]),
  ];
  return { name: 'allData.csv', content: csvDocument(sections.flatMap((section, index) => (index === 0 ? section : [[], ...section]))) };
}

/** The file of an export's data. */
export function exportFile(data: StatisticsExportData): CsvFile {
  return data.kind === 'table' ? tableFile(data.table) : dashboardFile(data.infoBoxes, data.tables);
}
