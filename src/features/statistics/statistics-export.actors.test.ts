import { describe, expect, it } from 'vitest';
import { collectTable, EXPORT_MAX_ROWS, EXPORT_PAGE_SIZE } from './statistics-export.actors.ts';
import type { TablePage } from './statistics.queries.ts';

/** A table of `total` rows served page by page, recording what was asked. */
function serveTable(total: number) {
  const asked: TablePage[] = [];
  const fetchPage = async (page: TablePage) => {
    asked.push(page);
    const count = Math.max(0, Math.min(page.limit, total - page.offset));
    return Array.from({ length: count }, (_, index) => ({ organizacion: `Org ${page.offset + index}`, videosVistos: 1 }));
  };
  return { asked, fetchPage };
}

const signal = new AbortController().signal;

describe('collectTable: every row of a table', () => {
  it('reads pages of 100 one after the other until a short page', async () => {
    const { asked, fetchPage } = serveTable(250);
    const { table, rows } = await collectTable('oma', signal, fetchPage);
    expect(table).toBe('oma');
    expect(rows).toHaveLength(250);
    expect(rows.at(-1)).toEqual({ organizacion: 'Org 249', videosVistos: 1 });
    expect(asked).toEqual([0, 100, 200].map((offset) => ({ table: 'oma', limit: EXPORT_PAGE_SIZE, offset })));
  });

  it('asks once more after a full last page, and stops at the empty answer', async () => {
    const { asked, fetchPage } = serveTable(200);
    expect((await collectTable('oma', signal, fetchPage)).rows).toHaveLength(200);
    expect(asked.map((page) => page.offset)).toEqual([0, 100, 200]);
  });

  it('writes only the header of an empty table (one request)', async () => {
    const { asked, fetchPage } = serveTable(0);
    expect((await collectTable('oma', signal, fetchPage)).rows).toEqual([]);
    expect(asked).toHaveLength(1);
  });

  it('stops at 100,000 rows', async () => {
    const { asked, fetchPage } = serveTable(10 * EXPORT_MAX_ROWS);
    const { rows } = await collectTable('oma', signal, fetchPage);
    expect(rows).toHaveLength(EXPORT_MAX_ROWS);
    expect(asked).toHaveLength(EXPORT_MAX_ROWS / EXPORT_PAGE_SIZE);
  });

  it('fails when a page fails', async () => {
    const failing = async (page: TablePage) => {
      if (page.offset > 0) throw new Error('500');
      return Array.from({ length: EXPORT_PAGE_SIZE }, () => ({ organizacion: 'x', videosVistos: 1 }));
    };
    await expect(collectTable('oma', signal, failing)).rejects.toThrow('500');
  });
});
