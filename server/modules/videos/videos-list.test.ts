import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { ensureTags } from '../etiquetas/etiquetas.repository.ts';
import type { NewVideo } from './videos.service.ts';
import { addVideo, createUser, getVideo, list, patchVideo, titles, type LibraryUser, type Video } from './videos.test-support.ts';

/** The first instant of this week's Monday in a time zone, found by asking Intl for the offset at that day's noon. */
function mondayStart(timeZone: string, now = new Date()): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', weekday: 'short' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const back = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!);
  const mondayNoonUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day) - back, 12);
  const offset = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(mondayNoonUtc))
    .find((p) => p.type === 'timeZoneName')!.value; // "GMT+01:00", "GMT"
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(offset);
  const offsetMs = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  return new Date(mondayNoonUtc - 12 * 3_600_000 - offsetMs);
}

describeOnEachDatabase('videos: the list, its filters, pages and visibility', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser; // organisation TAO
  let bruno: LibraryUser; // organisation Otra
  let carla: LibraryUser; // no organisation
  const ids: Record<string, number> = {};
  let tags: Record<'deporte' | 'musica' | 'cine' | 'semana', number>;

  beforeAll(async () => {
    admin = await createUser(server(), 'admin', { rol: 'admin', organizacion: 'TAO' });
    ana = await createUser(server(), 'ana', { organizacion: 'TAO' });
    bruno = await createUser(server(), 'bruno', { organizacion: 'Otra' });
    carla = await createUser(server(), 'carla');
    const [deporte, musica, cine, semana] = await ensureTags(server().db.kysely, ['Deporte', 'Música', 'Cine', 'Semana'], new Date().toISOString());
    tags = { deporte: deporte!.id, musica: musica!.id, cine: cine!.id, semana: semana!.id };

    const add = async (titulo: string, fechaAlta: string, extra: Partial<NewVideo> = {}) => {
      ids[titulo] = await addVideo(server(), { titulo, fechaAlta, organizacion: 'TAO', ...extra });
    };
    await add('Uno', '2025-01-10T09:00:00.000Z', { tagIds: [tags.deporte] });
    await add('Dos', '2025-02-10T09:00:00.000Z', { tagIds: [tags.musica] });
    await add('Tres', '2025-03-10T09:00:00.000Z', { tagIds: [tags.deporte, tags.musica] });
    await add('Cuatro', '2025-04-10T09:00:00.000Z', { tagIds: [tags.cine] });
    await add('Cinco', '2025-05-10T09:00:00.000Z');
    // not visible to all: its organisation and administrators see it
    await add('Interno TAO', '2025-06-10T09:00:00.000Z', { isVisible: false });
    await add('Interno sin organización', '2025-06-11T09:00:00.000Z', { isVisible: false, organizacion: null });
    // never listed until ready
    await add('En proceso', '2025-06-12T09:00:00.000Z', { status: 'processing' });
    await add('Fallido', '2025-06-13T09:00:00.000Z', { status: 'failed' });
  });

  const PUBLIC = ['Cinco', 'Cuatro', 'Tres', 'Dos', 'Uno'];

  describe('visibility', () => {
    it('administrators see every ready video, newest first', async () => {
      expect(await titles(server(), admin.session)).toEqual(['Interno sin organización', 'Interno TAO', ...PUBLIC]);
    });

    it("users see the visible videos and their organisation's others", async () => {
      expect(await titles(server(), ana.session)).toEqual(['Interno TAO', ...PUBLIC]);
      expect(await titles(server(), bruno.session)).toEqual(PUBLIC);
      expect(await titles(server(), carla.session)).toEqual(PUBLIC);
    });

    it('a video the caller may not see is 404, like one that does not exist', async () => {
      for (const [user, titulo] of [[bruno, 'Interno TAO'], [carla, 'Interno TAO'], [ana, 'Interno sin organización'], [admin, 'En proceso'], [ana, 'Fallido']] as const) {
        const res = await getVideo(server(), user.session, ids[titulo]!);
        expect(res.statusCode, `${user.user} → ${titulo}`).toBe(404);
        expect(res.json()).toMatchObject({ type: 'resource-not-found', status: 404 });
        const patch = await patchVideo(server(), user.session, ids[titulo]!, [{ path: '/favorito', value: true }]);
        expect(patch.statusCode).toBe(404);
      }
      expect((await getVideo(server(), ana.session, 999_999)).statusCode).toBe(404);
      expect((await getVideo(server(), ana.session, ids['Interno TAO']!)).statusCode).toBe(200);
      expect((await getVideo(server(), admin.session, ids['Interno sin organización']!)).statusCode).toBe(200);
    });

    it('needs a session', async () => {
      const res = await server().app.inject({ method: 'GET', url: '/api/videos' });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('pages', () => {
    it('limit and offset page the list; X-Total-Count counts every match', async () => {
      const pages: string[][] = [];
      for (const offset of [0, 2, 4]) {
        const res = await list(server(), bruno.session, { limit: 2, offset });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-total-count']).toBe('5');
        pages.push((res.json() as Video[]).map((v) => v.titulo));
      }
      expect(pages).toEqual([['Cinco', 'Cuatro'], ['Tres', 'Dos'], ['Uno']]);
      const beyond = await list(server(), bruno.session, { limit: 2, offset: 10 });
      expect(beyond.json()).toEqual([]);
      expect(beyond.headers['x-total-count']).toBe('5');
      const filtered = await list(server(), bruno.session, { limit: 1, tag: `in:${tags.deporte}` });
      expect(filtered.headers['x-total-count']).toBe('2');
    });

    it('refuses a limit out of 1–500 and a negative offset', async () => {
      const queries: Array<Record<string, string | number>> = [{ limit: 0 }, { limit: 501 }, { limit: 'ten' }, { offset: -1 }];
      for (const query of queries) {
        const res = await list(server(), ana.session, query);
        expect(res.statusCode, JSON.stringify(query)).toBe(400);
        expect(res.json().type).toBe('validation-error');
      }
      expect((await list(server(), ana.session, { limit: 500 })).statusCode).toBe(200);
    });
  });

  describe('filters', () => {
    it('tag: videos with at least one of the tags', async () => {
      expect(await titles(server(), bruno.session, { tag: `in:${tags.deporte}` })).toEqual(['Tres', 'Uno']);
      expect(await titles(server(), bruno.session, { tag: `in:${tags.deporte},${tags.cine}` })).toEqual(['Cuatro', 'Tres', 'Uno']);
      expect(await titles(server(), bruno.session, { tag: 'in:999999' })).toEqual([]);
    });

    it('each video carries its tags, by name', async () => {
      const res = await list(server(), bruno.session, { tag: `in:${tags.musica}` });
      const tres = (res.json() as Video[]).find((v) => v.titulo === 'Tres')!;
      expect(tres.etiquetas).toEqual([
        { id: tags.deporte, nombre: 'Deporte' },
        { id: tags.musica, nombre: 'Música' },
      ]);
    });

    it("favorited and notSeen: the caller's own", async () => {
      expect((await patchVideo(server(), carla.session, ids.Dos!, [{ path: '/favorito', value: true }])).statusCode).toBe(200);
      expect((await patchVideo(server(), carla.session, ids.Cuatro!, [{ path: '/favorito', value: true }, { path: '/visto', value: true }])).statusCode).toBe(200);
      expect((await patchVideo(server(), carla.session, ids.Uno!, [{ path: '/visto', value: true }])).statusCode).toBe(200);

      expect(await titles(server(), carla.session, { favorited: 'eq:true' })).toEqual(['Cuatro', 'Dos']);
      expect(await titles(server(), carla.session, { favorited: 'eq:false' })).toEqual(['Cinco', 'Tres', 'Uno']);
      expect(await titles(server(), carla.session, { notSeen: 'eq:true' })).toEqual(['Cinco', 'Tres', 'Dos']);
      expect(await titles(server(), carla.session, { notSeen: 'eq:false' })).toEqual(['Cuatro', 'Uno']);
      expect(await titles(server(), carla.session, { favorited: 'eq:true', notSeen: 'eq:true' })).toEqual(['Dos']);
      // someone else's marks are theirs
      expect(await titles(server(), bruno.session, { favorited: 'eq:true' })).toEqual([]);
      expect(await titles(server(), bruno.session, { notSeen: 'eq:true' })).toEqual(PUBLIC);

      const [cuatro] = (await list(server(), carla.session, { favorited: 'eq:true', limit: 1 })).json() as Video[];
      expect(cuatro).toMatchObject({ titulo: 'Cuatro', favorito: true, visto: true, puntuacion: null });
    });

    it('score compares the rounded average (half up), unrated videos count as 0', async () => {
      const rate = async (user: LibraryUser, titulo: string, value: number) => {
        const res = await patchVideo(server(), user.session, ids[titulo]!, [{ path: '/puntuacion', value }]);
        expect(res.statusCode, res.body).toBe(200);
      };
      await rate(ana, 'Uno', 2);
      await rate(bruno, 'Uno', 3); // 2.5 → 3
      await rate(ana, 'Dos', 2);
      await rate(bruno, 'Dos', 2);
      await rate(carla, 'Dos', 3); // 2.33 → 2
      await rate(ana, 'Tres', 5); // 5
      await rate(ana, 'Cuatro', 1); // 1

      expect(await titles(server(), bruno.session, { score: 'eq:3' })).toEqual(['Uno']);
      expect(await titles(server(), bruno.session, { score: 'gte:3' })).toEqual(['Tres', 'Uno']);
      expect(await titles(server(), bruno.session, { score: 'lte:2' })).toEqual(['Cinco', 'Cuatro', 'Dos']);
      expect(await titles(server(), bruno.session, { score: 'gte:1' })).toEqual(['Cuatro', 'Tres', 'Dos', 'Uno']);
      expect(await titles(server(), bruno.session, { score: 'eq:5', tag: `in:${tags.musica}` })).toEqual(['Tres']);

      const all = (await list(server(), bruno.session)).json() as Video[];
      expect(Object.fromEntries(all.map((v) => [v.titulo, v.puntuacionMedia]))).toEqual({ Uno: 2.5, Dos: 2.33, Tres: 5, Cuatro: 1, Cinco: 0 });
      expect(all.find((v) => v.titulo === 'Uno')!.puntuacion).toBe(3);
    });

    it('upload-date: after a day, between two days (both included)', async () => {
      expect(await titles(server(), bruno.session, { 'upload-date': 'gt:2025-03-10' })).toEqual(['Cinco', 'Cuatro']);
      expect(await titles(server(), bruno.session, { 'upload-date': 'gt:2025-03-09' })).toEqual(['Cinco', 'Cuatro', 'Tres']);
      expect(await titles(server(), bruno.session, { 'upload-date': 'btw:2025-02-10,2025-04-10' })).toEqual(['Cuatro', 'Tres', 'Dos']);
      expect(await titles(server(), bruno.session, { 'upload-date': 'btw:2025-02-11,2025-04-09' })).toEqual(['Tres']);
      // 09:00 UTC on 10 April is still 9 April in Honolulu (UTC−10)
      expect(await titles(server(), bruno.session, { 'upload-date': 'btw:2025-04-09,2025-04-09', tz: 'Pacific/Honolulu' })).toEqual(['Cuatro']);
      expect(await titles(server(), bruno.session, { 'upload-date': 'btw:2025-04-09,2025-04-09' })).toEqual([]);
      // this year (2026 or later) has none of these 2025 videos
      expect(await titles(server(), bruno.session, { 'upload-date': 'ty', tag: `in:${tags.deporte},${tags.musica},${tags.cine}` })).toEqual([]);
    });

    it('refuses malformed filters with a 400 naming the field', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ tag: '3,7' }, 'query.tag'],
        [{ tag: 'in:' }, 'query.tag'],
        [{ tag: 'in:0' }, 'query.tag'],
        [{ tag: 'in:9999999999' }, 'query.tag'],
        [{ favorited: 'true' }, 'query.favorited'],
        [{ score: 'gte:6' }, 'query.score'],
        [{ score: 'gt:3' }, 'query.score'],
        [{ notSeen: 'eq:yes' }, 'query.notSeen'],
        [{ 'upload-date': 'yesterday' }, 'query.upload-date'],
        [{ 'upload-date': 'gt:2025-02-30' }, 'query.upload-date'],
        [{ 'upload-date': 'btw:2025-03-01,2025-02-01' }, 'query.upload-date'],
        [{ 'upload-date': 'btw:2025-13-01,2025-14-01' }, 'query.upload-date'],
        [{ tz: 'Mars/Olympus_Mons' }, 'query.tz'],
        [{ tz: '../../etc/passwd' }, 'query.tz'],
        [{ q: '' }, 'query.q'],
        [{ q: 'x'.repeat(201) }, 'query.q'],
      ];
      for (const [query, field] of cases) {
        const res = await list(server(), ana.session, query);
        expect(res.statusCode, JSON.stringify(query)).toBe(400);
        expect(res.json().type).toBe('validation-error');
        expect(res.json().errors?.[0]?.field, JSON.stringify(query)).toBe(field);
      }
    });
  });

  describe('this week, month and year in the caller’s time zone', () => {
    it('a video just before and just after Monday 00:00 in Europe/Madrid', async () => {
      const madridMonday = mondayStart('Europe/Madrid');
      const utcMonday = mondayStart('UTC');
      const before = new Date(madridMonday.getTime() - 60_000);
      const after = new Date(madridMonday.getTime() + 60_000);
      ids['Antes del lunes'] = await addVideo(server(), { titulo: 'Antes del lunes', fechaAlta: before, tagIds: [tags.semana] });
      ids['Después del lunes'] = await addVideo(server(), { titulo: 'Después del lunes', fechaAlta: after, tagIds: [tags.semana] });
      const scope = { tag: `in:${tags.semana}` };

      expect(await titles(server(), ana.session, { ...scope, 'upload-date': 'tw', tz: 'Europe/Madrid' })).toEqual(['Después del lunes']);
      // The same instants seen in UTC: Madrid's Monday 00:00 is Sunday 22:00 or 23:00 UTC, last week in UTC
      const inUtcWeek = [after, before].filter((d) => d >= utcMonday).map((d) => (d === after ? 'Después del lunes' : 'Antes del lunes'));
      expect(await titles(server(), ana.session, { ...scope, 'upload-date': 'tw' })).toEqual(inUtcWeek);
      expect(await titles(server(), ana.session, { ...scope, 'upload-date': 'tw', tz: 'UTC' })).toEqual(inUtcWeek);
      // both are within the last six months
      const l6m = await titles(server(), ana.session, { ...scope, 'upload-date': 'l6m', tz: 'Europe/Madrid' });
      expect(l6m).toEqual(['Después del lunes', 'Antes del lunes']);
    });

    it('this month starts on the 1st at 00:00 in the time zone', async () => {
      const now = new Date();
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', { timeZone: 'America/Mexico_City', year: 'numeric', month: 'numeric' }).formatToParts(now).map((p) => [p.type, p.value]),
      );
      // Mexico City has no daylight-saving time since 2022: UTC−6 all year
      const firstOfMonth = Date.UTC(Number(parts.year), Number(parts.month) - 1, 1, 6);
      const before = await addVideo(server(), { titulo: 'Fin del mes pasado', fechaAlta: new Date(firstOfMonth - 1000), tagIds: [tags.semana] });
      const after = await addVideo(server(), { titulo: 'Inicio de este mes', fechaAlta: new Date(firstOfMonth), tagIds: [tags.semana] });
      const res = await list(server(), ana.session, { tag: `in:${tags.semana}`, 'upload-date': 'tm', tz: 'America/Mexico_City' });
      const found = (res.json() as Video[]).map((v) => v.id);
      expect(found).toContain(after);
      expect(found).not.toContain(before);
    });
  });
});
