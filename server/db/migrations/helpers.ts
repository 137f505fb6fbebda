import type { CreateTableBuilder } from 'kysely';
import type { DialectName } from '../database.ts';

/** An auto-incrementing integer primary key `id`, spelled as each dialect wants it. */
export function idColumn<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
