import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { openDatabase, type Db } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrator.ts';
import { insertVideo } from '../videos/videos.service.ts';
import { generate } from './generate.ts';
import { readViewCounters, rebuildViewCounters } from './statistics.repository.ts';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const DAY = 86_400_000;

describe('generate: the same seed gives the same data', () => {
  const dirs: string[] = [];
  const opened: Db[] = [];
  afterAll(async () => {
    for (const db of opened) await db.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function freshDatabase(): Promise<Db> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-generate-'));
    dirs.push(dataDir);
    const db = await openDatabase({ dataDir });
    opened.push(db);
    await migrateToLatest(db);
    // a video uploaded two days ago, as the demo's are: no view of it may be older
    await insertVideo(db, { idExterno: 'demo_video_01', titulo: 'Reciente', descripcionCorta: 'Subido hace dos días', nombreUsuarioAlta: 'admin', fechaAlta: new Date(NOW - 2 * DAY) });
    return db;
  }

  async function contents(db: Db) {
    const k = db.kysely;
    return {
      videos: await k.selectFrom('videos').select(['id', 'titulo', 'descripcion_corta', 'organizacion', 'fecha_alta', 'rating_sum', 'rating_count', 'view_count']).orderBy('id').execute(),
      users: await k.selectFrom('users').select(['id', 'username', 'nombre', 'organizacion', 'view_count']).orderBy('id').execute(),
      views: await k.selectFrom('view_events').select(['id', 'video_id', 'user_id', 'organizacion', 'viewed_at']).orderBy('id').execute(),
    };
  }

  it('twice on equal databases: equal videos, users, views and ratings; no view before its video was uploaded', async () => {
    const options = { videos: 20, users: 15, views: 5000, ratings: 40, days: 30, seed: 99, now: NOW };
    const [first, second] = [await freshDatabase(), await freshDatabase()];
    await generate(first, options);
    await generate(second, options);
    const a = await contents(first);
    expect(a.views).toHaveLength(5000);
    expect(a.users).toHaveLength(15);
    expect(a.videos).toHaveLength(21);
    expect(await contents(second)).toEqual(a);

    const recent = a.videos.find((v) => v.titulo === 'Reciente')!;
    const uploaded = new Date(NOW - 2 * DAY).toISOString();
    const ofRecent = a.views.filter((v) => v.video_id === recent.id);
    expect(ofRecent.length).toBeGreaterThan(0);
    expect(ofRecent.every((v) => v.viewed_at >= uploaded)).toBe(true);
    // oldest first: ids follow time, as views arriving one by one would
    expect(a.views.map((v) => v.viewed_at)).toEqual([...a.views.map((v) => v.viewed_at)].sort());
    expect(a.views[0]!.viewed_at >= new Date(NOW - 30 * DAY).toISOString()).toBe(true);

    // another seed, other data
    const third = await freshDatabase();
    await generate(third, { ...options, seed: 100 });
    expect((await contents(third)).views).not.toEqual(a.views);
  });
});

describeOnEachDatabase('generate: a large batch of views', (server) => {
  it('builds the indexes of view_events once, afterwards, exactly as they were; the counters match', async () => {
    const { kysely, dialect } = server().db;
    const indexes = async () =>
      dialect === 'postgres'
        ? (await sql<{ definition: string }>`select indexdef as definition from pg_indexes where schemaname = current_schema() and tablename = 'view_events' order by indexname`.execute(kysely)).rows
        : (await sql<{ definition: string }>`select sql as definition from sqlite_master where type = 'index' and tbl_name = 'view_events' order by name`.execute(kysely)).rows;
    const before = await indexes();
    expect(before.length).toBeGreaterThanOrEqual(4);
    const report = await generate(server().db, { videos: 50, users: 20, views: 100_000 });
    expect(report.viewsCreated).toBe(100_000);
    expect(await indexes()).toEqual(before);
    const counters = await readViewCounters(kysely);
    expect(counters.hours.reduce((total, [, n]) => total + n, 0)).toBe(100_000);
    await rebuildViewCounters(kysely, dialect);
    expect(await readViewCounters(kysely)).toEqual(counters);
  });
});
