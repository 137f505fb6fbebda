import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema.ts';
import { OwnSchemaPostgresDialect } from './own-schema-introspector.ts';

export type DialectName = 'sqlite' | 'postgres';

/** How long a statement waits for another connection's lock (SQLite's busy time-out, PostgreSQL's lock_timeout). */
export const LOCK_TIMEOUT_MS = 5000;

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres://… uses PostgreSQL; anything else the embedded SQLite file. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL only: a schema to create and use (tests isolate themselves with it). */
  pgSchema?: string;
}

/** Opens the database: PostgreSQL when DATABASE_URL is a postgres URL, else SQLite in DATA_DIR. */
export async function openDatabase(options: DbOptions): Promise<Db> {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    // count(*) and bigint come back as strings by default; our ids and counts fit in a JS number.
    pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    const { connectionString, urlOptions } = splitOptions(url);
    const pool = new pg.Pool({
      connectionString,
      max: 10,
      // A statement waits for another transaction's lock at most as long as SQLite's busy time-out;
      // then it fails with 55P03, answered as a 503 with Retry-After (server/plugins/problems.ts)
      // instead of holding the request, and the requests queued behind it, indefinitely.
      // Options given in DATABASE_URL (`?options=-c search_path=…`) are kept, and come last: theirs win.
      // (pg lets the URL's `options` replace these whole, so they are taken out of the URL and joined here.)
      options: [`-c lock_timeout=${LOCK_TIMEOUT_MS}`, ...(options.pgSchema ? [`-c search_path=${options.pgSchema}`] : []), urlOptions].filter(Boolean).join(' '),
    });
    const kysely = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
    if (options.pgSchema) {
      await sql`create schema if not exists ${sql.id(options.pgSchema)}`.execute(kysely);
    }
    await sql`select 1`.execute(kysely);
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  if (url && !/^(sqlite|file):/.test(url)) {
    throw new Error('DATABASE_URL must start with postgres:// (or be unset for the embedded SQLite database)');
  }
  const file = url ? url.replace(/^(sqlite|file):(\/\/)?/, '') : path.join(options.dataDir, 'tao.sqlite');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma(`busy_timeout = ${LOCK_TIMEOUT_MS}`);
  database.pragma('synchronous = NORMAL');
  reusePreparedStatements(database);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}

/**
 * Prepared plans: Kysely prepares every query it runs; with this, the same SQL text reuses its
 * prepared statement (parameters are bound per run). Safe because Kysely runs one query at a time on
 * the connection. At most 500 are kept, the least recently used going first (lists of ids, `in (?, ?…)`,
 * make a text per length: they must not push out the statements every request runs).
 */
function reusePreparedStatements(database: SQLite.Database): void {
  const prepare = database.prepare.bind(database);
  const statements = new Map<string, ReturnType<typeof prepare>>();
  database.prepare = ((source: string) => {
    let statement = statements.get(source);
    if (statement) {
      statements.delete(source);
    } else {
      if (statements.size >= 500) statements.delete(statements.keys().next().value!);
      statement = prepare(source);
    }
    statements.set(source, statement);
    return statement;
  }) as typeof database.prepare;
}

/**
 * A PostgreSQL connection URL without its `options` parameter (server settings, `-c name=value …`),
 * and that parameter ('' without one).
 */
export function splitOptions(url: string): { connectionString: string; urlOptions: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, urlOptions: '' };
  }
  const urlOptions = parsed.searchParams.get('options') ?? '';
  if (!parsed.searchParams.has('options')) return { connectionString: url, urlOptions };
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), urlOptions };
}

/** The current instant as stored in the database. */
export function now(): string {
  return new Date().toISOString();
}
