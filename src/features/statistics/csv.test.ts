import { describe, expect, it } from 'vitest';
import { BYTE_ORDER_MARK, csvDocument, csvLine, dashboardFile, exportFile, tableFile } from './csv.ts';

const CRLF = '\r\n';

/** The lines of a document, without the byte-order mark and the last line end. */
const linesOf = (content: string) => content.slice(BYTE_ORDER_MARK.length).split(CRLF).slice(0, -1);

describe('csvLine: R-STAT-7', () => {
  it('separates cells with semicolons', () => {
    expect(csvLine(['ana', 'Ana Pérez', 'x'])).toBe('ana;Ana Pérez;x');
  });

  it('strips commas from every cell', () => {
    expect(csvLine(['Pérez, Ana', 'Ventas, Madrid, Sur', 'a,b'])).toBe('Pérez Ana;Ventas Madrid Sur;ab');
  });

  it('puts an apostrophe before a numeric first cell, whether a number or text of digits', () => {
    expect(csvLine([42, 'Ana'])).toBe("'42;Ana");
    expect(csvLine(['2024', 'Ventas'])).toBe("'2024;Ventas");
    expect(csvLine(['007', 'Bond'])).toBe("'007;Bond");
    expect(csvLine(['4.5', 'x'])).toBe("'4.5;x");
    // Numeric once its commas are gone: a spreadsheet would read 1000.
    expect(csvLine(['1,000', 'x'])).toBe("'1000;x");
  });

  it('leaves numbers in other cells plain, and a first cell that is not numeric as it is', () => {
    expect(csvLine(['ana', 12, 4.25])).toBe('ana;12;4.25');
    expect(csvLine(['12 monos', 3])).toBe('12 monos;3');
    expect(csvLine(['Ventas', '2024'])).toBe('Ventas;2024');
  });

  it('writes numbers without grouping and with a dot, so stripping commas never changes them', () => {
    expect(csvLine(['x', 1234567, 4.25, 0.5])).toBe('x;1234567;4.25;0.5');
  });
});

describe('csvLine: cells a spreadsheet would run as formulas are neutralised', () => {
  for (const payload of ['=1+1', '+SUM(A1:A2)', '-2+3', '@SUM(A1)', '=HYPERLINK("http://x";"y")', '\t=1', '\r=1']) {
    it(`${JSON.stringify(payload)} starts with an apostrophe, in any column`, () => {
      const first = csvLine([payload]);
      const second = csvLine(['ana', payload]).slice('ana;'.length);
      for (const cell of [first, second]) expect(cell.replace(/^"/, '')).toMatch(/^'/);
    });
  }

  it('leaves text that only contains those characters alone', () => {
    expect(csvLine(['Ana', 'a=b', 'x+y', 'correo@tao.example'])).toBe('Ana;a=b;x+y;correo@tao.example');
  });

  it('prefixes once a first cell that is both numeric and formula-like', () => {
    expect(csvLine(['-5', 'x'])).toBe("'-5;x");
  });
});

describe('csvLine: quoting (RFC 4180)', () => {
  it('quotes a cell with a semicolon, a quote, a carriage return or a line feed, doubling its quotes', () => {
    expect(csvLine(['a;b', 'x'])).toBe('"a;b";x');
    expect(csvLine(['x', 'El "gato"'])).toBe('x;"El ""gato"""');
    expect(csvLine(['x', 'uno\ndos'])).toBe('x;"uno\ndos"');
    expect(csvLine(['x', 'uno\r\ndos'])).toBe('x;"uno\r\ndos"');
  });

  it('keeps the apostrophe inside the quotes', () => {
    expect(csvLine(['=1;2'])).toBe(`"'=1;2"`);
  });

  it('quotes nothing else: accents and spaces are plain', () => {
    expect(csvLine(['Organización', 'Canción de años'])).toBe('Organización;Canción de años');
  });
});

describe('csvDocument', () => {
  it('starts with a UTF-8 byte-order mark and ends every line with CRLF', () => {
    const content = csvDocument([['a', 'b'], ['c', 'd']]);
    expect(content).toBe(`\uFEFFa;b${CRLF}c;d${CRLF}`);
    expect([...new TextEncoder().encode(content).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('writes an empty row as a blank line', () => {
    expect(csvDocument([['a'], [], ['b']])).toBe(`\uFEFFa${CRLF}${CRLF}b${CRLF}`);
  });

  it('a line break inside a quoted cell is not a line end', () => {
    expect(linesOf(csvDocument([['x', 'uno\ndos']]))).toEqual(['x;"uno\ndos"']);
  });
});

describe('tableFile', () => {
  it('names the file after the table and writes its Spanish headers, then each row', () => {
    const file = tableFile({
      table: 'uma',
      rows: [
        { usuario: 'ana', nombre: 'Pérez, Ana', videosVistos: 1234 },
        { usuario: '=cmd', nombre: 'Luis', videosVistos: 7 },
      ],
    });
    expect(file.name).toBe('uma.csv');
    expect(file.content.startsWith(BYTE_ORDER_MARK)).toBe(true);
    expect(linesOf(file.content)).toEqual(['Usuario;Nombre;Videos vistos', 'ana;Pérez Ana;1234', "'=cmd;Luis;7"]);
  });

  it('writes each table’s columns: oma, vmv (the title, not the id) and vmr (rating with a dot)', () => {
    expect(linesOf(tableFile({ table: 'oma', rows: [{ organizacion: 'Ventas', videosVistos: 3 }] }).content)).toEqual([
      'Organización;Videos vistos',
      'Ventas;3',
    ]);
    expect(linesOf(tableFile({ table: 'vmv', rows: [{ id: 9, video: '1984', visualizaciones: 10 }] }).content)).toEqual([
      'Videos;Visualizaciones',
      "'1984;10",
    ]);
    const vmr = tableFile({ table: 'vmr', rows: [{ id: 3, video: 'Gatos', puntuacion: 4.25 }] });
    expect(vmr.name).toBe('vmr.csv');
    expect(linesOf(vmr.content)).toEqual(['Videos;Puntuación', 'Gatos;4.25']);
  });

  it('writes only the header row for an empty table', () => {
    expect(linesOf(tableFile({ table: 'oma', rows: [] }).content)).toEqual(['Organización;Videos vistos']);
  });
});

describe('dashboardFile (allData)', () => {
  it('writes Datos Generales, then each table with its title, headers and rows, a blank line between parts', () => {
    const file = dashboardFile(
      [
        { id: 'videos', icon: 'videos', count: 120, title: 'Videos' },
        { id: 'rating', icon: 'rating', count: 4.25, title: 'Puntuación media' },
      ],
      [
        { table: 'uma', rows: [{ usuario: 'ana', nombre: 'Ana', videosVistos: 5 }] },
        { table: 'vmr', rows: [] },
      ],
    );
    expect(file.name).toBe('allData.csv');
    expect(file.content.startsWith(BYTE_ORDER_MARK)).toBe(true);
    expect(linesOf(file.content)).toEqual([
      'Datos Generales',
      'Videos;120',
      'Puntuación media;4.25',
      '',
      'Usuarios más activos',
      'Usuario;Nombre;Videos vistos',
      'ana;Ana;5',
      '',
      'Videos mejor valorados',
      'Videos;Puntuación',
    ]);
  });

  it('exportFile picks the file of the data', () => {
    expect(exportFile({ kind: 'table', table: { table: 'vmv', rows: [] } }).name).toBe('vmv.csv');
    expect(exportFile({ kind: 'dashboard', infoBoxes: [], tables: [] }).name).toBe('allData.csv');
  });
});
