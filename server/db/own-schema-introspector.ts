import { PostgresDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type DatabaseMetadataOptions, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

/**
 * PostgreSQL introspection limited to the connection's own schema (`current_schema()`), which is all
 * Kysely's Migrator asks it for (does its schema and its two tables exist).
 *
 * Kysely's own PostgresIntrospector reads every schema of the database and calls name-taking
 * functions (`has_schema_privilege(nspname, …)`, `pg_get_serial_sequence('schema.table', …)`) on
 * each row; a schema dropped by someone else between the catalog read and the call fails the whole
 * read with 'schema "…" does not exist'. Tests and benchmarks drop their schemas while others migrate,
 * and the same holds for a deployment sharing its database: a migration must not depend on them.
 */
export class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = current_schema()`.execute(this.db);
    return rows.map((row) => ({ name: row.name }));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.db);
    return rows
      .filter((row) => options.withInternalKyselyTables || !row.name.startsWith('kysely_migration'))
      .map((row) => ({ name: row.name, schema: row.schema, isView: row.kind === 'v', columns: [] }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** Kysely's PostgreSQL dialect with introspection of the connection's own schema only. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}
