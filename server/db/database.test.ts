import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { pgAvailable, POSTGRES_URL } from '../../tests/utils/server-harness.ts';
import { LOCK_TIMEOUT_MS, openDatabase, splitOptions, type Db } from './database.ts';

/** How long a statement waits for another connection's lock, on each database, and who may change it. */
const opened: Db[] = [];
const dirs: string[] = [];
async function open(databaseUrl?: string): Promise<Db> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-database-test-'));
  dirs.push(dataDir);
  const db = await openDatabase({ databaseUrl, dataDir });
  opened.push(db);
  return db;
}
afterAll(async () => {
  for (const db of opened) await db.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const withOptions = (url: string, options: string) => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(options)}`;
const setting = async (db: Db, name: 'lock_timeout' | 'statement_timeout') => (await sql<Record<string, string>>`select current_setting(${name}) as value`.execute(db.kysely)).rows[0]!.value;

describe('waiting for a lock', () => {
  it('SQLite waits LOCK_TIMEOUT_MS (its busy time-out)', async () => {
    const db = await open();
    expect((await sql<{ timeout: number }>`pragma busy_timeout`.execute(db.kysely)).rows[0]).toEqual({ timeout: LOCK_TIMEOUT_MS });
  });

  (pgAvailable ? it : it.skip)('PostgreSQL waits 5 s on every pooled connection; options in DATABASE_URL are kept and win', async () => {
    const plain = await open(POSTGRES_URL);
    // several connections at once: each of the pool's gets the setting
    expect(await Promise.all([1, 2, 3].map(() => setting(plain, 'lock_timeout')))).toEqual(['5s', '5s', '5s']);
    const other = await open(withOptions(POSTGRES_URL, '-c statement_timeout=60000'));
    expect([await setting(other, 'lock_timeout'), await setting(other, 'statement_timeout')]).toEqual(['5s', '1min']);
    const operator = await open(withOptions(POSTGRES_URL, '-c lock_timeout=1000'));
    expect(await setting(operator, 'lock_timeout')).toBe('1s');
  });

  it('takes the options out of a connection URL, leaving the rest as it was', () => {
    expect(splitOptions('postgres://u:p%40ss@h:5433/db?sslmode=require&options=-c%20search_path%3Dtao')).toEqual({
      connectionString: 'postgres://u:p%40ss@h:5433/db?sslmode=require',
      urlOptions: '-c search_path=tao',
    });
    expect(splitOptions('postgres://u@h/db')).toEqual({ connectionString: 'postgres://u@h/db', urlOptions: '' });
  });
});
