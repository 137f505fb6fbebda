import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { pgAvailable, POSTGRES_URL } from '../tests/utils/server-harness.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase, type Db } from './db/database.ts';
import { firstAdministratorLink } from './modules/accounts/bootstrap.ts';

/**
 * Several server processes started at once on one fresh PostgreSQL database (R-OPS-1): each
 * migrates (the migrations run once, under Kysely's advisory lock, the others wait and find them
 * done) and prints the first-administrator link: the same link, from one invitation.
 * Two connection pools stand for the two processes.
 */
(pgAvailable ? describe : describe.skip)('two instances starting at once on a fresh PostgreSQL database', () => {
  const schema = `t_start_${crypto.randomBytes(6).toString('hex')}`;
  const dataDirs: string[] = [];
  const dbs: Db[] = [];
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 3; i += 1) {
      dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'tao-start-test-')));
      // the schema is created by the first; the others only use it
      dbs.push(await openDatabase({ databaseUrl: POSTGRES_URL, dataDir: dataDirs[i]!, pgSchema: schema }));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(dbs[0]!.kysely);
    for (const db of dbs) await db.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every instance starts, the schema is migrated once, and all print the same first-administrator link', async () => {
    const secrets = { TOKEN_SECRET: crypto.randomBytes(32).toString('hex'), URL_SIGNING_SECRET: crypto.randomBytes(32).toString('hex') };
    const started = await Promise.allSettled(
      dbs.map((db, i) => {
        const config = loadConfig({ DATA_DIR: dataDirs[i]!, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://videos.example.org', CLIENT_DIR: path.join(dataDirs[i]!, 'none'), ...secrets });
        return buildApp({ config, db, logger: false });
      }),
    );
    for (const result of started) if (result.status === 'fulfilled') apps.push(result.value);
    expect(started.map((r) => (r.status === 'rejected' ? String(r.reason) : 'started'))).toEqual(['started', 'started', 'started']);
    await Promise.all(apps.map((app) => app.ready()));

    const migrations = await sql<{ name: string }>`select name from kysely_migration`.execute(dbs[0]!.kysely);
    expect(new Set(migrations.rows.map((r) => r.name)).size).toBe(migrations.rows.length);

    const links = await Promise.all(apps.map((app) => firstAdministratorLink(app.ctx)));
    expect(links[0]).toMatch(/^http:\/\/videos\.example\.org\/register\?invitation=/);
    expect(new Set(links).size).toBe(1);
    const invitations = await dbs[0]!.kysely.selectFrom('invitations').select('id').where('bootstrap', '=', 1).execute();
    expect(invitations).toHaveLength(1);
  });
});
