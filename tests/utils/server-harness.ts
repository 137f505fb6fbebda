import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { openDatabase, type Db } from '../../server/db/database.ts';
import type { ResponseViolation } from '../../server/openapi/response-validation.ts';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether the PostgreSQL suites run (a test that needs PostgreSQL alone skips itself, and says so, without it). */
export const pgAvailable = await postgresReachable();
if (!pgAvailable) {
  const message = `PostgreSQL is not reachable at ${POSTGRES_URL}: the PostgreSQL server suites are SKIPPED on this machine.`;
  if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`${message} (REQUIRE_POSTGRES=1 makes this a failure)`);
  console.warn(`\n*** ${message} ***\n`);
}

export type DatabaseKind = 'sqlite' | 'postgres';

export interface TestServer {
  app: FastifyInstance;
  config: Config;
  db: Db;
  violations: ResponseViolation[];
  kind: DatabaseKind;
}

/** A test app on a fresh database of the given kind (SQLite file in a temp dir, or a fresh PostgreSQL schema). */
export async function startTestServer(kind: DatabaseKind, env: Record<string, string> = {}): Promise<TestServer & { close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:8080', CLIENT_DIR: path.join(dataDir, 'no-client'), ...env });
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const db = await openDatabase(kind === 'postgres' ? { databaseUrl: POSTGRES_URL, dataDir, pgSchema: schema } : { dataDir });
  const violations: ResponseViolation[] = [];
  const app = await buildApp({ config, db, logger: false, responseViolations: violations });
  await app.ready();
  return {
    app,
    config,
    db,
    violations,
    kind,
    async close() {
      await app.close();
      if (kind === 'postgres') await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely);
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a suite once on SQLite and once on PostgreSQL (skipped, and said so, without a PostgreSQL server).
 * Each run gets its own server; after the suite, no response may have broken openapi.yaml.
 */
type Suite = (server: () => TestServer) => void;
type EnvSource = () => Promise<Record<string, string>> | Record<string, string>;

export function describeOnEachDatabase(name: string, suite: Suite): void;
/** The same, with environment variables (configuration) for the servers, e.g. single sign-on keys. */
export function describeOnEachDatabase(name: string, env: EnvSource, suite: Suite): void;
export function describeOnEachDatabase(name: string, suiteOrEnv: Suite | EnvSource, maybeSuite?: Suite): void {
  const suite = (maybeSuite ?? suiteOrEnv) as Suite;
  const env = (maybeSuite ? suiteOrEnv : () => ({})) as EnvSource;
  for (const kind of ['sqlite', 'postgres'] as const) {
    const run = kind === 'postgres' && !pgAvailable ? describe.skip : describe;
    run(`${name} [${kind}]`, () => {
      let server: (TestServer & { close(): Promise<void> }) | undefined;
      beforeAll(async () => {
        server = await startTestServer(kind, await env());
      });
      afterAll(async () => {
        if (!server) return;
        const violations = server.violations;
        await server.close();
        expect(violations, 'responses that do not match openapi.yaml').toEqual([]);
      });
      suite(() => {
        if (!server) throw new Error('test server not started');
        return server;
      });
    });
  }
}

export const XSRF = 'test-xsrf-token-0123456789';

/** Headers of a browser that holds the XSRF cookie and echoes it (and, optionally, a bearer token). */
export function browserHeaders(token?: string): Record<string, string> {
  return {
    cookie: `XSRF-TOKEN=${XSRF}`,
    'x-xsrf-token': XSRF,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

/** inject() with browser headers merged in. */
export function call(app: FastifyInstance, options: InjectOptions & { token?: string }) {
  const { token, headers, ...rest } = options;
  return app.inject({ ...rest, headers: { ...browserHeaders(token), ...(headers as Record<string, string> | undefined) } });
}
