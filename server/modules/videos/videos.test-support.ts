import crypto from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { now, openDatabase, type Db } from '../../db/database.ts';
import { call, POSTGRES_URL, type TestServer } from '../../../tests/utils/server-harness.ts';
import { insertUser } from '../accounts/accounts.repository.ts';
import { sessionTokenFor } from '../accounts/login.service.ts';
import { insertVideo, type NewVideo } from './videos.service.ts';

/** Helpers of the library tests (not part of the server build). */

export type Video = components['schemas']['Video'];

export interface LibraryUser {
  id: number;
  user: string;
  organizacion: string | null;
  session: string;
}

/** A user straight in the database (no sign-in ceremony: the accounts suites test that), with a session token. */
export async function createUser(
  server: TestServer,
  user: string,
  options: { rol?: 'admin' | 'user'; organizacion?: string | null } = {},
): Promise<LibraryUser> {
  const at = now();
  const row = await insertUser(server.db.kysely, {
    username: user,
    username_key: user.toLowerCase(),
    nombre: user,
    email: `${user}@example.org`,
    rol: options.rol ?? 'user',
    organizacion: options.organizacion ?? null,
    password_hash: null,
    otp_state: 'OTP_ACTIVED',
    created_at: at,
    updated_at: at,
  });
  return { id: row.id, user, organizacion: row.organizacion, session: await sessionTokenFor(server.app.ctx, row) };
}

/** A fresh asset id. */
export function assetId(): string {
  return `asset_${crypto.randomBytes(6).toString('hex')}`;
}

/** Inserts a ready, visible video through the repository; anything can be overridden. Answers its id. */
export async function addVideo(server: TestServer, video: Partial<NewVideo> & { titulo: string }): Promise<number> {
  const row = await insertVideo(server.db, {
    idExterno: assetId(),
    descripcionCorta: `Resumen de ${video.titulo}`,
    nombreUsuarioAlta: 'admin',
    duracion: 60,
    ...video,
  });
  return row.id;
}

/** GET /api/videos with a query string (an object, or a raw string to send as is). */
export async function list(server: TestServer, token: string, query: Record<string, string | number> | string = {}) {
  const qs = typeof query === 'string' ? query : new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const res = await call(server.app, { method: 'GET', url: `/api/videos${qs ? `?${qs}` : ''}`, token });
  return res;
}

/** The titles GET /api/videos answers (expects 200). */
export async function titles(server: TestServer, token: string, query: Record<string, string | number> | string = {}): Promise<string[]> {
  const res = await list(server, token, query);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Video[]).map((v) => v.titulo);
}

export function getVideo(server: TestServer, token: string, id: number) {
  return call(server.app, { method: 'GET', url: `/api/videos/${id}`, token });
}

export function patchVideo(server: TestServer, token: string, id: number, operations: Array<{ path: string; value: unknown }>) {
  return call(server.app, {
    method: 'PATCH',
    url: `/api/videos/${id}`,
    token,
    headers: { 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify(operations.map((o) => ({ op: 'replace', ...o }))),
  });
}

/** A second connection to the test server's database (its PostgreSQL schema, or its SQLite file), as another instance opens it. */
export async function openSameDatabase(server: TestServer): Promise<Db> {
  const { config, db, kind } = server;
  const schema = kind === 'postgres' ? (await sql<{ name: string }>`select current_schema() as name`.execute(db.kysely)).rows[0]!.name : undefined;
  return openDatabase(
    schema ? { databaseUrl: POSTGRES_URL, dataDir: config.dataDir, pgSchema: schema } : { databaseUrl: `sqlite:${path.join(config.dataDir, 'tao.sqlite')}`, dataDir: config.dataDir },
  );
}

/**
 * Another connection to the server's database (a second instance, a long import) taking the write
 * lock of view_events and holding it until `release()`: on SQLite any write statement takes the
 * database's one write lock; on PostgreSQL an exclusive table lock, which blocks writes, not reads.
 */
export async function holdWriteLock(server: TestServer): Promise<{ release(): Promise<void> }> {
  const writer = await openSameDatabase(server);
  let locked!: () => void;
  let unlock!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = writer.kysely.transaction().execute(async (trx) => {
    if (server.kind === 'postgres') await sql`lock table view_events in exclusive mode`.execute(trx);
    else await sql`delete from view_events where 0`.execute(trx);
    locked();
    await new Promise<void>((resolve) => (unlock = resolve));
  });
  await Promise.race([isLocked, holding]);
  return {
    async release() {
      unlock();
      await holding;
      await writer.close();
    },
  };
}
