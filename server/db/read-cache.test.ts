import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase, pgAvailable, POSTGRES_URL } from '../../tests/utils/server-harness.ts';
import { createUser } from '../modules/videos/videos.test-support.ts';
import { openDatabase, OTHER_COMMITS_SEEN_WITHIN_MS, type Db } from './database.ts';
import { migrateToLatest } from './migrator.ts';
import { ReadCache } from './read-cache.ts';

/** The number of users, read on `executor` (the database, or a transaction). */
async function countUsers(executor: Db['kysely']): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from users`.execute(executor);
  return Number(rows[0]!.n);
}

/** A cache and a read of the number of users that counts how often it went to the database. */
function countedUsers(db: Db) {
  const cache = new ReadCache<number>(100);
  let loads = 0;
  const read = () =>
    cache.read(db, 'users', () => {
      loads += 1;
      return countUsers(db.kysely);
    });
  return { read, loads: () => loads };
}

const addUser = (executor: Db['kysely'], name: string) =>
  sql`insert into users (username, username_key, nombre, email, rol, otp_state, created_at, updated_at)
    values (${name}, ${name}, ${name}, ${`${name}@example.org`}, 'user', 'OTP_ACTIVED', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(executor);

describe('ReadCache on SQLite: reads remembered until the database changes', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-read-cache-'));
    db = await openDatabase({ dataDir: dir });
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers a read again, without the database, while nothing is written', async () => {
    const users = countedUsers(db);
    expect([await users.read(), await users.read(), await users.read()]).toEqual([0, 0, 0]);
    expect(users.loads()).toBe(1);
  });

  it('reads again after a write through the same connection', async () => {
    const users = countedUsers(db);
    const before = await users.read();
    await addUser(db.kysely, 'escritura');
    expect(await users.read()).toBe(before + 1);
    expect(users.loads()).toBe(2);
  });

  it('reads again after a commit by another process or connection on the same file (the command line), within a millisecond', async () => {
    const users = countedUsers(db);
    const before = await users.read();
    const other = await openDatabase({ dataDir: dir });
    try {
      await addUser(other.kysely, 'otra-conexion');
    } finally {
      await other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, OTHER_COMMITS_SEEN_WITHIN_MS + 1));
    expect(await users.read()).toBe(before + 1);
    expect(users.loads()).toBe(2);
  });

  it('remembers nothing inside a transaction, so a write rolled back is never answered', async () => {
    const cache = new ReadCache<number>(100);
    let loads = 0;
    const count = (executor: Db['kysely']) => {
      loads += 1;
      return countUsers(executor);
    };
    const before = await cache.read(db, 'users', () => count(db.kysely));
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await addUser(trx, 'deshecho');
        // a read on the transaction's connection sees its write, and is not remembered
        expect(await cache.read(db, 'users', () => count(trx))).toBe(before + 1);
        expect(await cache.read(db, 'users', () => count(trx))).toBe(before + 1);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(loads).toBe(3);
    expect(await cache.read(db, 'users', () => count(db.kysely))).toBe(before);
  });

  it('does not keep a read a write overtook: the write came after its stamp', async () => {
    const cache = new ReadCache<number>(100);
    let loads = 0;
    const read = () =>
      cache.read(db, 'k', async () => {
        loads += 1;
        const n = await countUsers(db.kysely);
        if (loads === 1) await addUser(db.kysely, 'durante-la-lectura'); // a write lands while the first read is under way
        return n;
      });
    const first = await read();
    expect(await read()).toBe(first + 1);
    expect(loads).toBe(2);
  });

  it('keeps at most its number of entries, and answers the others from the database', async () => {
    const cache = new ReadCache<string>(2);
    let loads = 0;
    const read = (key: string) => cache.read(db, key, () => Promise.resolve(`${key}:${(loads += 1)}`));
    await read('a');
    await read('b');
    await read('c');
    expect([await read('a'), await read('b'), await read('c')]).toEqual(['a:1', 'b:2', 'c:4']);
  });
});

describe.skipIf(!pgAvailable)('ReadCache on PostgreSQL', () => {
  it('always reads the database: several servers may share it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-read-cache-pg-'));
    const schema = `t_read_cache_${process.pid}`;
    const db = await openDatabase({ databaseUrl: POSTGRES_URL, dataDir: dir, pgSchema: schema });
    try {
      await migrateToLatest(db);
      const users = countedUsers(db);
      await users.read();
      await users.read();
      expect(users.loads()).toBe(2);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely);
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeOnEachDatabase('the session check after a change made elsewhere', (server) => {
  it('refuses at once a user blocked by another process on the database (the command line, a second server)', async () => {
    const user = await createUser(server(), 'bloqueada');
    const me = () => call(server().app, { method: 'GET', url: '/api/me', token: user.session });
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    const config = server().config;
    const other = await openDatabase(server().kind === 'postgres' ? { databaseUrl: POSTGRES_URL, dataDir: config.dataDir, pgSchema: await schemaOf(server().db) } : { dataDir: config.dataDir });
    try {
      await sql`update users set bloqueado = 1 where id = ${user.id}`.execute(other.kysely);
    } finally {
      await other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, OTHER_COMMITS_SEEN_WITHIN_MS + 1));
    const refused = await me();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ type: expect.stringMatching(/invalid-access-token$/) });
  });
});

/** The schema a PostgreSQL test database works in. */
async function schemaOf(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely);
  return rows[0]!.schema;
}
