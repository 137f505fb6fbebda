import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Db } from '../../db/database.ts';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { ensureTags } from '../etiquetas/etiquetas.repository.ts';
import { insertVideo, updateVideoMedia } from './videos.service.ts';
import { addVideo, assetId, createUser, openSameDatabase, patchVideo, type LibraryUser, type Video } from './videos.test-support.ts';

/** Each write below, through the API or straight to the tables, changes the very next list, on whichever server instance asks. */
describeOnEachDatabase('videos: lists follow every write', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser; // organisation TAO
  let bruno: LibraryUser; // organisation Otra
  const ids: Record<string, number> = {};
  let tags: Record<'rojo' | 'verde', number>;

  /** The list as `user` gets it: titles, total and videos. */
  async function listed(user: LibraryUser, query: Record<string, string | number> = {}, app: FastifyInstance = server().app) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    const res = await call(app, { method: 'GET', url: `/api/videos${qs ? `?${qs}` : ''}`, token: user.session });
    expect(res.statusCode, res.body).toBe(200);
    const videos = res.json() as Video[];
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return { titles: videos.map((v) => v.titulo), total: Number(res.headers['x-total-count']), videos };
  }

  async function patched(user: LibraryUser, titulo: string, operations: Array<{ path: string; value: unknown }>) {
    const res = await patchVideo(server(), user.session, ids[titulo]!, operations);
    expect(res.statusCode, res.body).toBe(200);
  }

  beforeAll(async () => {
    admin = await createUser(server(), 'admin', { rol: 'admin', organizacion: 'TAO' });
    ana = await createUser(server(), 'ana', { organizacion: 'TAO' });
    bruno = await createUser(server(), 'bruno', { organizacion: 'Otra' });
    const [rojo, verde] = await ensureTags(server().db.kysely, ['Rojo', 'Verde'], new Date().toISOString());
    tags = { rojo: rojo!.id, verde: verde!.id };
    const add = async (titulo: string, day: number, tagIds: number[] = []) => {
      ids[titulo] = await addVideo(server(), { titulo, fechaAlta: `2025-01-${String(day).padStart(2, '0')}T10:00:00.000Z`, organizacion: 'TAO', tagIds });
    };
    await add('Alfa', 1, [tags.rojo]);
    await add('Beta', 2, [tags.verde]);
    await add('Gamma', 3, [tags.rojo, tags.verde]);
    await add('Delta', 4);
  });

  it('a repeated list answers the same', async () => {
    const first = await listed(ana, { tag: `in:${tags.rojo}`, limit: 1 });
    expect(await listed(ana, { tag: `in:${tags.rojo}`, limit: 1 })).toEqual(first);
    expect(first).toMatchObject({ titles: ['Gamma'], total: 2 });
  });

  it('a rating changes the score filter, its total and the average at once', async () => {
    expect(await listed(bruno, { score: 'gte:4', limit: 1 })).toMatchObject({ titles: [], total: 0 });
    const before = await listed(bruno, { limit: 2 });
    expect(before.videos.map((v) => v.puntuacionMedia)).toEqual([0, 0]);

    await patched(ana, 'Beta', [{ path: '/puntuacion', value: 5 }]);
    expect(await listed(bruno, { score: 'gte:4', limit: 1 })).toMatchObject({ titles: ['Beta'], total: 1 });
    expect(await listed(bruno, { score: 'lte:3' })).toMatchObject({ titles: ['Delta', 'Gamma', 'Alfa'], total: 3 });
    const after = await listed(bruno);
    expect(after.videos.find((v) => v.titulo === 'Beta')).toMatchObject({ puntuacionMedia: 5, puntuacion: null });
    expect((await listed(ana)).videos.find((v) => v.titulo === 'Beta')).toMatchObject({ puntuacionMedia: 5, puntuacion: 5 });

    await patched(bruno, 'Beta', [{ path: '/puntuacion', value: 2 }]); // 3.5 → 4
    expect(await listed(bruno, { score: 'eq:4', limit: 1 })).toMatchObject({ titles: ['Beta'], total: 1 });
    await patched(bruno, 'Beta', [{ path: '/puntuacion', value: 1 }]); // 3 → 3
    expect(await listed(bruno, { score: 'gte:4', limit: 1 })).toMatchObject({ titles: [], total: 0 });
    expect((await listed(bruno)).videos.find((v) => v.titulo === 'Beta')).toMatchObject({ puntuacionMedia: 3, puntuacion: 1 });
  });

  it("a favourite and a seen mark change the caller's filters at once, and nobody else's", async () => {
    expect(await listed(ana, { favorited: 'eq:true' })).toMatchObject({ titles: [], total: 0 });
    expect(await listed(ana, { notSeen: 'eq:true', limit: 2 })).toMatchObject({ titles: ['Delta', 'Gamma'], total: 4 });
    expect(await listed(bruno, { notSeen: 'eq:true', limit: 2 })).toMatchObject({ total: 4 });

    await patched(ana, 'Gamma', [{ path: '/favorito', value: true }]);
    expect(await listed(ana, { favorited: 'eq:true' })).toMatchObject({ titles: ['Gamma'], total: 1 });
    expect(await listed(ana, { favorited: 'eq:false', limit: 1 })).toMatchObject({ titles: ['Delta'], total: 3 });
    expect(await listed(bruno, { favorited: 'eq:true' })).toMatchObject({ titles: [], total: 0 });

    await patched(ana, 'Delta', [{ path: '/visto', value: true }]);
    expect(await listed(ana, { notSeen: 'eq:true', limit: 2 })).toMatchObject({ titles: ['Gamma', 'Beta'], total: 3 });
    expect(await listed(ana, { notSeen: 'eq:false' })).toMatchObject({ titles: ['Delta'], total: 1 });
    expect(await listed(bruno, { notSeen: 'eq:true', limit: 2 })).toMatchObject({ titles: ['Delta', 'Gamma'], total: 4 });

    await patched(ana, 'Gamma', [{ path: '/favorito', value: false }]);
    await patched(ana, 'Delta', [{ path: '/visto', value: false }]);
    expect(await listed(ana, { favorited: 'eq:true' })).toMatchObject({ titles: [], total: 0 });
    expect(await listed(ana, { notSeen: 'eq:true', limit: 2 })).toMatchObject({ titles: ['Delta', 'Gamma'], total: 4 });
  });

  it('a text search with a score or a mark filter follows ratings and marks at once (R-LIB-5)', async () => {
    expect(await listed(bruno, { q: 'gamma', score: 'gte:4' })).toMatchObject({ titles: [], total: 0 });
    expect(await listed(ana, { q: 'gamma', favorited: 'eq:true' })).toMatchObject({ titles: [], total: 0 });
    await patched(ana, 'Gamma', [{ path: '/puntuacion', value: 5 }]);
    expect(await listed(bruno, { q: 'gamma', score: 'gte:4' })).toMatchObject({ titles: ['Gamma'], total: 1 });
    await patched(ana, 'Gamma', [{ path: '/favorito', value: true }]);
    expect(await listed(ana, { q: 'gamma', favorited: 'eq:true' })).toMatchObject({ titles: ['Gamma'], total: 1 });
    expect(await listed(bruno, { q: 'gamma', favorited: 'eq:true' })).toMatchObject({ titles: [], total: 0 });
    await patched(ana, 'Gamma', [{ path: '/favorito', value: false }]);
    await patched(ana, 'Gamma', [{ path: '/puntuacion', value: 1 }]);
    expect(await listed(ana, { q: 'gamma', favorited: 'eq:true' })).toMatchObject({ titles: [], total: 0 });
    expect(await listed(bruno, { q: 'gamma', score: 'gte:4' })).toMatchObject({ titles: [], total: 0 });
  });

  it("the caller's own fields show at once after any write of them, even one straight to the table", async () => {
    const alfa = async () => (await listed(ana)).videos.find((v) => v.titulo === 'Alfa');
    await listed(ana);
    const states = () => server().db.kysely.updateTable('video_user_states').where('user_id', '=', ana.id).where('video_id', '=', ids.Alfa!);
    await patched(ana, 'Alfa', [{ path: '/posicion', value: 3 }]);
    expect(await alfa()).toMatchObject({ posicion: 3 });
    await states().set({ posicion: 11 }).execute();
    expect(await alfa()).toMatchObject({ posicion: 11 });
    await states().set({ puntuacion: 2 }).execute();
    expect(await alfa()).toMatchObject({ posicion: 11, puntuacion: 2 });
    await states().set({ visto: 1 }).execute();
    expect(await alfa()).toMatchObject({ visto: true });
    await server().db.kysely.deleteFrom('video_user_states').where('user_id', '=', ana.id).where('video_id', '=', ids.Alfa!).execute();
    expect(await alfa()).toMatchObject({ posicion: null, puntuacion: null, visto: false, favorito: false });
    await server().db.kysely.insertInto('video_user_states').values({ user_id: ana.id, video_id: ids.Alfa!, favorito: 1, updated_at: new Date().toISOString() }).execute();
    expect(await alfa()).toMatchObject({ favorito: true, posicion: null });
    await patched(ana, 'Alfa', [{ path: '/favorito', value: false }]);
  });

  it("the caller's own fields are read at every request (a playback position too)", async () => {
    await listed(ana);
    await patched(ana, 'Alfa', [{ path: '/posicion', value: 42.5 }]);
    expect((await listed(ana)).videos.find((v) => v.titulo === 'Alfa')).toMatchObject({ posicion: 42.5, favorito: false });
    await patched(ana, 'Alfa', [{ path: '/favorito', value: true }]);
    expect((await listed(ana)).videos.find((v) => v.titulo === 'Alfa')).toMatchObject({ posicion: 42.5, favorito: true });
    expect((await listed(bruno)).videos.find((v) => v.titulo === 'Alfa')).toMatchObject({ posicion: null, favorito: false });
    await patched(ana, 'Alfa', [{ path: '/favorito', value: false }]);
  });

  it('the media locations of a list are signed for the current hour', async () => {
    const hour = 3_600_000;
    const start = Math.floor(Date.now() / hour) * hour + 60_000; // a minute into this hour
    const expires = (url: string) => Number(new URL(url, 'http://localhost').searchParams.get('expires'));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(start);
      const first = await listed(ana, { limit: 1 });
      vi.setSystemTime(start + hour - 120_000);
      expect(await listed(ana, { limit: 1 })).toEqual(first);
      vi.setSystemTime(start + hour);
      const next = await listed(ana, { limit: 1 });
      expect(next.titles).toEqual(first.titles);
      expect(expires(next.videos[0]!.urlVideo) - expires(first.videos[0]!.urlVideo)).toBe(3600);
      const signed = await call(server().app, { method: 'GET', url: next.videos[0]!.urlVideo });
      expect(signed.statusCode).not.toBe(403);
    } finally {
      vi.useRealTimers();
    }
  });

  it('callers listing the same videos get each their own fields', async () => {
    await patched(ana, 'Delta', [{ path: '/posicion', value: 7 }]);
    const theirs = await listed(admin, { limit: 1 });
    const hers = await listed(ana, { limit: 1 });
    expect(hers.titles).toEqual(['Delta']);
    expect(theirs.titles).toEqual(['Delta']);
    expect(hers.videos[0]).toMatchObject({ posicion: 7 });
    expect(theirs.videos[0]).toMatchObject({ posicion: null });
    await patched(ana, 'Delta', [{ path: '/posicion', value: 0 }]);
    expect((await listed(ana, { limit: 1 })).videos[0]).toMatchObject({ posicion: 0 });
  });

  it("a change of a video's tags changes the tag filter, its total and the tags shown", async () => {
    expect(await listed(ana, { tag: `in:${tags.verde}`, limit: 1 })).toMatchObject({ titles: ['Gamma'], total: 2 });
    await patched(admin, 'Delta', [{ path: '/etiquetas', value: [tags.verde] }]);
    const after = await listed(ana, { tag: `in:${tags.verde}`, limit: 1 });
    expect(after).toMatchObject({ titles: ['Delta'], total: 3 });
    expect(after.videos[0]!.etiquetas).toEqual([{ id: tags.verde, nombre: 'Verde' }]);
    await patched(admin, 'Delta', [{ path: '/etiquetas', value: [] }]);
    expect(await listed(ana, { tag: `in:${tags.verde}`, limit: 1 })).toMatchObject({ titles: ['Gamma'], total: 2 });
    expect((await listed(ana)).videos.find((v) => v.titulo === 'Delta')!.etiquetas).toEqual([]);
  });

  it('a renamed tag is shown and found by its new name (a write straight to the table)', async () => {
    expect(await listed(ana, { q: 'carmesi' })).toMatchObject({ titles: [], total: 0 });
    expect((await listed(ana)).videos.find((v) => v.titulo === 'Alfa')!.etiquetas).toEqual([{ id: tags.rojo, nombre: 'Rojo' }]);
    await server().db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('tags').set({ nombre: 'Carmesí', nombre_key: 'carmesí' }).where('id', '=', tags.rojo).execute();
      const { refreshSearchIndex, videoIdsWithTag } = await import('./videos.repository.ts');
      await refreshSearchIndex(trx, server().db.dialect, await videoIdsWithTag(trx, tags.rojo));
    });
    const found = await listed(ana, { q: 'carmesi' });
    expect([found.titles.sort(), found.total]).toEqual([['Alfa', 'Gamma'], 2]); // ranked: the order depends on the database
    expect((await listed(ana)).videos.find((v) => v.titulo === 'Alfa')!.etiquetas).toEqual([{ id: tags.rojo, nombre: 'Carmesí' }]);
  });

  it('a new video is listed and counted at once; one still processing only once ready', async () => {
    const before = await listed(ana, { limit: 1 });
    const found = await listed(ana, { q: 'epsilon' });
    expect(found.total).toBe(0);
    ids.Epsilon = await addVideo(server(), { titulo: 'Epsilon', fechaAlta: '2025-01-05T10:00:00.000Z' });
    expect(await listed(ana, { limit: 1 })).toMatchObject({ titles: ['Epsilon'], total: before.total + 1 });
    expect(await listed(ana, { q: 'epsilon' })).toMatchObject({ titles: ['Epsilon'], total: 1 });

    const zeta = await insertVideo(server().db, {
      idExterno: assetId(), titulo: 'Zeta', descripcionCorta: 'En proceso', nombreUsuarioAlta: 'admin',
      fechaAlta: '2025-01-06T10:00:00.000Z', status: 'processing',
    });
    expect(await listed(ana, { limit: 1 })).toMatchObject({ titles: ['Epsilon'], total: before.total + 1 });
    await updateVideoMedia(server().db, zeta.id, { status: 'ready', duracion: 12 });
    expect(await listed(ana, { limit: 1 })).toMatchObject({ titles: ['Zeta'], total: before.total + 2 });
    ids.Zeta = zeta.id;
  });

  it("a video's visibility and title change the next answer, even when written straight to the table", async () => {
    expect((await listed(bruno, { limit: 1 })).titles).toEqual(['Zeta']);
    await patched(admin, 'Zeta', [{ path: '/isVisible', value: false }]);
    expect((await listed(bruno, { limit: 1 })).titles).toEqual(['Epsilon']);
    expect((await listed(admin, { limit: 1 })).titles).toEqual(['Zeta']); // administrators see it

    await server().db.kysely.updateTable('videos').set({ is_visible: 1 }).where('id', '=', ids.Zeta!).execute();
    expect((await listed(bruno, { limit: 1 })).titles).toEqual(['Zeta']);

    await patched(admin, 'Zeta', [{ path: '/titulo', value: 'Zeta renombrado' }]);
    expect(await listed(bruno, { q: 'renombrado' })).toMatchObject({ titles: ['Zeta renombrado'], total: 1 });
    expect((await listed(bruno, { limit: 1 })).titles).toEqual(['Zeta renombrado']);

    await server().db.kysely.deleteFrom('videos').where('id', '=', ids.Zeta!).execute();
    expect(await listed(bruno, { q: 'renombrado' })).toMatchObject({ titles: [], total: 0 });
    expect((await listed(bruno, { limit: 1 })).titles).toEqual(['Epsilon']);
  });

  it("a user's organisation is read at every request", async () => {
    await patched(admin, 'Epsilon', [{ path: '/isVisible', value: false }]);
    await server().db.kysely.updateTable('videos').set({ organizacion: 'Otra' }).where('id', '=', ids.Epsilon!).execute();
    expect((await listed(ana, { limit: 1 })).titles).toEqual(['Delta']);
    expect((await listed(bruno, { limit: 1 })).titles).toEqual(['Epsilon']);
    await server().db.kysely.updateTable('users').set({ organizacion: 'TAO' }).where('id', '=', bruno.id).execute();
    expect((await listed(bruno, { limit: 1 })).titles).toEqual(['Delta']);
    await server().db.kysely.updateTable('users').set({ organizacion: 'Otra' }).where('id', '=', bruno.id).execute();
    expect((await listed(bruno, { limit: 1 })).titles).toEqual(['Epsilon']);
  });

  describe('another server on the same database', () => {
    let other: { app: FastifyInstance; db: Db } | undefined;

    beforeAll(async () => {
      const { config } = server();
      const second = await openSameDatabase(server());
      const app = await buildApp({ config, db: second, logger: false, responseViolations: server().violations });
      await app.ready();
      other = { app, db: second };
    });

    afterAll(async () => {
      await other?.app.close();
      await other?.db.close();
    });

    it("sees the writes made through this one at once, and this one sees the other's", async () => {
      const { app } = other!;
      const theirs = await listed(ana, { tag: `in:${tags.verde}` }, app);
      expect(await listed(ana, { tag: `in:${tags.verde}` })).toEqual(theirs);

      await patched(admin, 'Alfa', [{ path: '/etiquetas', value: [tags.rojo, tags.verde] }]);
      const after = await listed(ana, { tag: `in:${tags.verde}` }, app);
      expect(after.total).toBe(theirs.total + 1);
      expect(after.titles).toContain('Alfa');

      // A text search each server has answered (and may remember) follows a title changed through the other.
      expect(await listed(ana, { q: 'omega' }, app)).toMatchObject({ titles: [], total: 0 });
      expect(await listed(ana, { q: 'omega' })).toMatchObject({ titles: [], total: 0 });
      await patched(admin, 'Delta', [{ path: '/titulo', value: 'Delta omega' }]);
      expect(await listed(ana, { q: 'omega' }, app)).toMatchObject({ titles: ['Delta omega'], total: 1 });
      const renamed = await call(app, {
        method: 'PATCH',
        url: `/api/videos/${ids.Delta}`,
        token: admin.session,
        headers: { 'content-type': 'application/json-patch+json' },
        payload: [{ op: 'replace', path: '/titulo', value: 'Delta' }],
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(await listed(ana, { q: 'omega' })).toMatchObject({ titles: [], total: 0 });

      expect(await listed(ana, { favorited: 'eq:true' }, app)).toMatchObject({ titles: [], total: 0 });
      await patched(ana, 'Beta', [{ path: '/favorito', value: true }]);
      expect(await listed(ana, { favorited: 'eq:true' }, app)).toMatchObject({ titles: ['Beta'], total: 1 });

      const res = await call(app, {
        method: 'PATCH',
        url: `/api/videos/${ids.Beta}`,
        token: ana.session,
        headers: { 'content-type': 'application/json-patch+json' },
        payload: JSON.stringify([{ op: 'replace', path: '/favorito', value: false }]),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await listed(ana, { favorited: 'eq:true' })).toMatchObject({ titles: [], total: 0 });
      expect(await listed(ana, { favorited: 'eq:true' }, app)).toMatchObject({ titles: [], total: 0 });
    });

    it("shows at once the caller's rating and position saved through the other", async () => {
      const { app } = other!;
      const beta = async (on?: FastifyInstance) => (await listed(ana, {}, on)).videos.find((v) => v.titulo === 'Beta');
      await beta();
      for (const [path, value] of [['/puntuacion', 3], ['/posicion', 21]] as const) {
        const res = await call(app, {
          method: 'PATCH',
          url: `/api/videos/${ids.Beta}`,
          token: ana.session,
          headers: { 'content-type': 'application/json-patch+json' },
          payload: JSON.stringify([{ op: 'replace', path, value }]),
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(await beta(), path).toMatchObject({ [path.slice(1)]: value });
      }
      await patched(ana, 'Beta', [{ path: '/posicion', value: 5 }]);
      expect(await beta(app)).toMatchObject({ posicion: 5, puntuacion: 3 });
    });
  });
});
