import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pgAvailable, POSTGRES_URL } from '../../tests/utils/server-harness.ts';
import { openDatabase, type Db } from './database.ts';
import { migrateToLatest } from './migrator.ts';

/**
 * Migrations on PostgreSQL read only their own schema: others' schemas, even ones dropped while a
 * migration runs, cannot fail it (CI once failed a suite's start with 'schema "t_…" does not exist':
 * another suite had dropped its schema while Kysely's introspection read every schema).
 */
(pgAvailable ? describe : describe.skip)('migrating on PostgreSQL beside other schemas', () => {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  const opened: Array<{ db: Db; schema: string; dir: string }> = [];
  const open = async () => {
    const schema = `t_intro_${crypto.randomBytes(6).toString('hex')}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-intro-'));
    const db = await openDatabase({ databaseUrl: POSTGRES_URL, dataDir: dir, pgSchema: schema });
    opened.push({ db, schema, dir });
    return { db, schema };
  };

  afterAll(async () => {
    for (const { db, schema, dir } of opened) {
      await db.close();
      await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await admin.end();
  });

  it('introspection lists the own schema\'s tables only', async () => {
    await admin.connect();
    const other = `t_other_${crypto.randomBytes(6).toString('hex')}`;
    await admin.query(`create schema ${other}; create table ${other}.neighbour (id serial primary key)`);
    try {
      const { db, schema } = await open();
      await migrateToLatest(db);
      const tables = await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([schema]));
      expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['users', 'videos', 'kysely_migration', 'kysely_migration_lock']));
      expect(tables.map((table) => table.name)).not.toContain('neighbour');
      expect((await db.kysely.introspection.getTables()).map((table) => table.name)).not.toContain('kysely_migration');
      expect(await db.kysely.introspection.getSchemas()).toEqual([{ name: schema }]);
    } finally {
      await admin.query(`drop schema ${other} cascade`);
    }
  });

  it('fresh schemas migrate while other schemas are created and dropped all the while', async () => {
    let churning = true;
    let churned = 0;
    const churn = (async () => {
      while (churning) {
        const name = `t_churn_${crypto.randomBytes(6).toString('hex')}`;
        await admin.query(`create schema ${name}; create table ${name}.a (id serial primary key, b text); create table ${name}.c (id serial primary key)`);
        await admin.query(`drop schema ${name} cascade`);
        churned += 1;
      }
    })();
    try {
      for (let i = 0; i < 4; i += 1) {
        const { db } = await open();
        expect((await migrateToLatest(db)).length).toBeGreaterThan(0);
      }
    } finally {
      churning = false;
      await churn;
    }
    expect(churned).toBeGreaterThan(0);
  });
});
