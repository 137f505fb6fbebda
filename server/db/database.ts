import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema.ts';
import { OwnSchemaPostgresDialect } from './own-schema-introspector.ts';

export type DialectName = 'sqlite' | 'postgres';

/**
 * How long Db.changeStamp may take to see a commit by another connection or process on the SQLite file
 * (the command line's, say): SQLite's `data_version`, which tells, costs 2–7 µs a read, so a read
 * serves the requests of the next millisecond (about ten under load). The server's own writes are
 * seen at once.
 */
export const OTHER_COMMITS_SEEN_WITHIN_MS = 1;

/** How long a statement waits for another connection's lock (SQLite's busy time-out, PostgreSQL's lock_timeout). */
export const LOCK_TIMEOUT_MS = 5000;

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
  /**
   * SQLite only: a value that stays the same as long as nothing is written to the database (read-cache.ts
   * remembers reads under it): it changes at once with a write through this connection, and within
   * OTHER_COMMITS_SEEN_WITHIN_MS of a commit by any other connection or process. Undefined on
   * PostgreSQL and while a transaction is open on the connection.
   */
  changeStamp?: () => string | undefined;
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
  // Writes through this connection (counted as their statements are prepared to run) and commits
  // by other connections (SQLite's data_version, e.g. the command line's) change the stamp.
  let writes = 0;
  const dataVersion = database.prepare('pragma data_version').pluck();
  let version = 0;
  let versionReadAt = -Infinity;
  reusePreparedStatements(database, () => (writes += 1));
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return {
    kysely,
    dialect: 'sqlite',
    close: () => kysely.destroy(),
    changeStamp: () => {
      if (database.inTransaction) return undefined;
      const at = performance.now();
      if (at - versionReadAt >= OTHER_COMMITS_SEEN_WITHIN_MS) {
        version = Number(dataVersion.get());
        versionReadAt = at;
      }
      return `${version} ${writes}`;
    },
  };
}

/**
 * Prepared plans: Kysely prepares every query it runs; with this, the same SQL text reuses its
 * prepared statement (parameters are bound per run). Safe because Kysely runs one query at a time on
 * the connection. At most 500 are kept, the least recently used going first (lists of ids, `in (?, ?…)`,
 * make a text per length: they must not push out the statements every request runs). `onWrite` is
 * called as a statement that may write is prepared to run, and as SQL is run by `exec`.
 */
function reusePreparedStatements(database: SQLite.Database, onWrite: () => void): void {
  const prepare = database.prepare.bind(database);
  const exec = database.exec.bind(database);
  database.exec = ((source: string) => {
    onWrite();
    return exec(source);
  }) as typeof database.exec;
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
    if (!statement.readonly) onWrite();
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
