import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { openDatabase, type Db } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrator.ts';
import { insertVideo } from '../videos/videos.service.ts';
import { createUser, type Video } from '../videos/videos.test-support.ts';
import { generate, spokenSentences, spokenVocabulary } from './generate.ts';
import { seededRandom } from '../../seeded-random.ts';
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

describeOnEachDatabase('generate: subtitle cues (--cues, R-STAT-11)', (server) => {
  const cuesOf = async () =>
    server().db.kysely.selectFrom('video_cues').select(['video_id', 'idioma', 'inicio', 'fin', 'texto']).orderBy('video_id').orderBy('idioma').orderBy('inicio').execute();

  it('gives each new video that many Spanish cues of 2–6 s in order, English too for one in 20, and lists their languages', async () => {
    const report = await generate(server().db, { videos: 20, users: 0, views: 0, cues: 5, seed: 3 });
    expect(report.cuesCreated).toBe(20 * 5 + 5);
    const cues = await cuesOf();
    expect(cues).toHaveLength(105);
    const videos = await server().db.kysely.selectFrom('videos').select(['id', 'duracion', 'subtitle_languages']).orderBy('id').execute();
    expect(videos.map((v) => v.subtitle_languages)).toEqual([...new Array<string>(19).fill('es'), 'en,es']);
    for (const video of videos) {
      for (const idioma of video.subtitle_languages!.split(',')) {
        const track = cues.filter((c) => c.video_id === video.id && c.idioma === idioma);
        expect(track).toHaveLength(5);
        track.forEach((c, i) => {
          const length = Number(c.fin) - Number(c.inicio);
          expect(length).toBeGreaterThanOrEqual(2);
          expect(length).toBeLessThanOrEqual(6);
          if (i > 0) expect(Number(c.inicio)).toBeGreaterThanOrEqual(Number(track[i - 1]!.fin));
          expect(c.texto).toMatch(/^\p{Lu}.*[.?]$/u);
        });
        // within the video
        expect(Number(track.at(-1)!.fin)).toBeLessThanOrEqual(Number(video.duracion));
      }
    }
    // searchable: a rare word of a cue finds its video, with the cue
    const ana = await createUser(server(), 'ana');
    const cue = cues.find((c) => c.idioma === 'es' && /\b\p{L}{9,}\b/u.test(c.texto))!;
    const word = cue.texto.match(/\p{L}{9,}/u)![0];
    const res = await call(server().app, { method: 'GET', url: `/api/videos?q=${encodeURIComponent(word)}&limit=100`, token: ana.session });
    expect(res.statusCode).toBe(200);
    const found = (res.json() as Video[]).find((v) => v.id === cue.video_id);
    expect(found?.coincidencias?.some((c) => c.texto.includes(word))).toBe(true);
  });

  it('loads a large batch with the cue indexes built once afterwards, exactly as they were, and searchable', async () => {
    const { kysely, dialect } = server().db;
    const schemaOf = async () =>
      dialect === 'postgres'
        ? (await sql<{ definition: string }>`select indexdef as definition from pg_indexes where schemaname = current_schema() and tablename = 'video_cues' order by indexname`.execute(kysely)).rows
        : (await sql<{ definition: string }>`select sql as definition from sqlite_master where tbl_name in ('video_cues', 'cues_fts') and sql is not null order by name`.execute(kysely)).rows;
    const before = await schemaOf();
    const existing = (await cuesOf()).length;
    const report = await generate(server().db, { videos: 170, users: 0, views: 0, cues: 600, seed: 4 });
    expect(report.cuesCreated).toBe(170 * 600 + 8 * 600);
    expect(await schemaOf()).toEqual(before);
    expect((await cuesOf()).length).toBe(existing + report.cuesCreated);
    // the index holds the cues from before and the new ones: every cue's own words find it
    const sample = await kysely.selectFrom('video_cues').select(['id', 'texto']).where('id', 'in', [1, 50, 60_000, 100_000]).execute();
    expect(sample).toHaveLength(4);
    for (const { id, texto } of sample) {
      const words = texto.match(/\p{L}+/gu)!.slice(0, 3).join(' ');
      const matches =
        dialect === 'postgres'
          ? await sql<{ id: number }>`select id from video_cues where document @@ plainto_tsquery('simple', ${words.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()})`.execute(kysely)
          : await sql<{ id: number }>`select rowid as id from cues_fts where cues_fts match ${words.split(' ').map((w) => `"${w}"`).join(' ')}`.execute(kysely);
      expect(matches.rows.map((r) => Number(r.id)), words).toContain(id);
    }
  });
});

describe('generate: what is said', () => {
  it('draws words by Zipf\'s law: a few make most of the text, and the long tail is there', () => {
    const vocabulary = spokenVocabulary(1);
    expect(vocabulary).toHaveLength(12_000);
    expect(new Set(vocabulary).size).toBe(12_000);
    const sentence = spokenSentences(seededRandom(2), vocabulary);
    const counts = new Map<string, number>();
    let total = 0;
    for (let i = 0; i < 20_000; i++) {
      for (const word of sentence().toLowerCase().match(/\p{L}+/gu)!) {
        counts.set(word, (counts.get(word) ?? 0) + 1);
        total += 1;
      }
    }
    const sorted = [...counts.values()].sort((a, b) => b - a);
    const top100 = sorted.slice(0, 100).reduce((a, b) => a + b, 0);
    expect(top100 / total).toBeGreaterThan(0.4);
    expect(counts.size).toBeGreaterThan(8_000);
    // the same seed, the same sentences
    const again = spokenSentences(seededRandom(2), vocabulary);
    const first = spokenSentences(seededRandom(2), vocabulary);
    expect(Array.from({ length: 5 }, again)).toEqual(Array.from({ length: 5 }, first));
  });
});
