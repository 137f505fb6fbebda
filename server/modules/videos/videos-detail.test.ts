import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { checkSignedPath } from '../../media/signed-urls.ts';
import { ensureTags } from '../etiquetas/etiquetas.repository.ts';
import { addVideo, createUser, getVideo, holdWriteLock, list, patchVideo, titles, type LibraryUser, type Video } from './videos.test-support.ts';

describeOnEachDatabase('videos: one video, the user’s own rating, favourite, seen mark and position', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser;
  let bruno: LibraryUser;
  let videoId: number;
  let bareId: number;

  beforeAll(async () => {
    admin = await createUser(server(), 'admin', { rol: 'admin', organizacion: 'TAO' });
    ana = await createUser(server(), 'ana', { organizacion: 'TAO' });
    bruno = await createUser(server(), 'bruno', { organizacion: 'Otra' });
    videoId = await addVideo(server(), {
      idExterno: 'asset_detail_01',
      titulo: 'Bienvenida',
      descripcion: 'Primer día *en* la casa',
      descripcionCorta: 'Presentación para recién llegados',
      duracion: 93.5,
      organizacion: 'TAO',
      nombreUsuarioAlta: 'admin',
      hasThumbnail: true,
      hasPreview: true,
      fechaAlta: '2026-01-15T08:30:00.000Z',
      tagNames: ['Acogida', 'RRHH'],
    });
    bareId = await addVideo(server(), { idExterno: 'asset_detail_02', titulo: 'Sin miniatura', organizacion: 'TAO' });
  });

  const viewEvents = (videoId: number) =>
    server().db.kysely.selectFrom('view_events').selectAll().where('video_id', '=', videoId).orderBy('id').execute();

  describe('GET /api/videos/{id}', () => {
    it('answers the video with its tags, signed media locations and the caller’s own state', async () => {
      const res = await getVideo(server(), ana.session, videoId);
      expect(res.statusCode).toBe(200);
      const video = res.json() as Video;
      expect(video).toMatchObject({
        id: videoId,
        idExterno: 'asset_detail_01',
        titulo: 'Bienvenida',
        descripcion: 'Primer día *en* la casa',
        descripcionCorta: 'Presentación para recién llegados',
        duracion: 93.5,
        puntuacionMedia: 0,
        puntuacion: null,
        favorito: false,
        visto: false,
        posicion: null,
        fechaAlta: '2026-01-15T08:30:00.000Z',
        isVisible: true,
        organizacionId: 'TAO',
        nombreUsuarioAlta: 'admin',
      });
      expect(video.etiquetas.map((t) => t.nombre)).toEqual(['Acogida', 'RRHH']);
      const key = server().app.ctx.secrets.urlKey;
      for (const [url, file] of [[video.urlVideo, 'video.mp4'], [video.urlThumbnail, 'thumbnail.jpg'], [video.urlPreview, 'preview.mp4']] as const) {
        const parsed = new URL(url!, 'http://localhost');
        expect(parsed.pathname).toBe(`/api/media/asset_detail_01/${file}`);
        const check = checkSignedPath(key, 'GET', parsed.pathname, Number(parsed.searchParams.get('expires')), parsed.searchParams.get('signature')!);
        expect(check).toBe('valid');
      }
    });

    it('has no thumbnail or preview location when the files do not exist', async () => {
      const video = (await getVideo(server(), ana.session, bareId)).json() as Video;
      expect(video.urlThumbnail).toBeNull();
      expect(video.urlPreview).toBeNull();
      expect(video.urlVideo).toMatch(/^\/api\/media\/[A-Za-z0-9_-]+\/video\.mp4\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/);
    });

    it('records one view event per opening, with the user’s organisation; a repeat within seconds is the same opening', async () => {
      const before = (await viewEvents(bareId)).length;
      expect((await getVideo(server(), bruno.session, bareId)).statusCode).toBe(200);
      expect((await getVideo(server(), bruno.session, bareId)).statusCode).toBe(200); // retried / doubled request
      let events = await viewEvents(bareId);
      expect(events).toHaveLength(before + 1);
      expect(events.at(-1)).toMatchObject({ user_id: bruno.id, organizacion: 'Otra' });

      // a later opening (the last one is older than the repeat window) is a new view
      await server().db.kysely.updateTable('view_events').set({ viewed_at: '2026-01-01T00:00:00.000Z' }).where('video_id', '=', bareId).execute();
      expect((await getVideo(server(), bruno.session, bareId)).statusCode).toBe(200);
      expect((await getVideo(server(), ana.session, bareId)).statusCode).toBe(200);
      events = await viewEvents(bareId);
      expect(events).toHaveLength(before + 3);
      expect(events.map((e) => e.organizacion).slice(-2)).toEqual(['Otra', 'TAO']);
    });

    it('a repeat opening waits for no writer: it only reads', async () => {
      expect((await getVideo(server(), ana.session, bareId)).statusCode).toBe(200);
      const lock = await holdWriteLock(server());
      try {
        const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 3000));
        const answer = await Promise.race([getVideo(server(), ana.session, bareId), waited]);
        expect(answer === 'waited' ? 'still waiting after 3 s' : answer.statusCode).toBe(200);
      } finally {
        await lock.release();
      }
    });

    it('lists and invisible videos record no view event', async () => {
      const hidden = await addVideo(server(), { titulo: 'Oculto', isVisible: false, organizacion: 'TAO' });
      await list(server(), bruno.session);
      expect((await getVideo(server(), bruno.session, hidden)).statusCode).toBe(404);
      expect(await viewEvents(hidden)).toEqual([]);
    });
  });

  describe('PATCH /api/videos/{id}: the user’s own fields', () => {
    it('rating: answers the video with the new average; re-rating replaces the user’s rating', async () => {
      let res = await patchVideo(server(), ana.session, videoId, [{ path: '/puntuacion', value: 4 }]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: videoId, puntuacion: 4, puntuacionMedia: 4 });

      res = await patchVideo(server(), bruno.session, videoId, [{ path: '/puntuacion', value: 1 }]);
      expect(res.json()).toMatchObject({ puntuacion: 1, puntuacionMedia: 2.5 });

      res = await patchVideo(server(), ana.session, videoId, [{ path: '/puntuacion', value: 2 }]);
      expect(res.json()).toMatchObject({ puntuacion: 2, puntuacionMedia: 1.5 });

      const row = await server().db.kysely.selectFrom('videos').select(['rating_sum', 'rating_count']).where('id', '=', videoId).executeTakeFirstOrThrow();
      expect(row).toEqual({ rating_sum: 3, rating_count: 2 });
      expect(((await getVideo(server(), admin.session, videoId)).json() as Video).puntuacion).toBeNull();
    });

    it('concurrent ratings of one video all count', async () => {
      const raters = await Promise.all(['r1', 'r2', 'r3', 'r4', 'r5', 'r6'].map((name) => createUser(server(), name)));
      const target = await addVideo(server(), { titulo: 'Muy valorado' });
      const answers = await Promise.all(raters.map((u, i) => patchVideo(server(), u.session, target, [{ path: '/puntuacion', value: (i % 5) + 1 }])));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      const row = await server().db.kysely.selectFrom('videos').select(['rating_sum', 'rating_count']).where('id', '=', target).executeTakeFirstOrThrow();
      expect(row).toEqual({ rating_sum: 1 + 2 + 3 + 4 + 5 + 1, rating_count: 6 });
    });

    it('concurrent re-ratings by one user leave one rating in the sum and count', async () => {
      const target = await addVideo(server(), { titulo: 'Indeciso' });
      const answers = await Promise.all([1, 2, 3, 4, 5, 4, 3, 2].map((value) => patchVideo(server(), bruno.session, target, [{ path: '/puntuacion', value }])));
      expect(answers.every((r) => r.statusCode === 200)).toBe(true);
      const row = await server().db.kysely.selectFrom('videos').select(['rating_sum', 'rating_count']).where('id', '=', target).executeTakeFirstOrThrow();
      const own = await server().db.kysely.selectFrom('video_user_states').select('puntuacion').where('video_id', '=', target).executeTakeFirstOrThrow();
      expect(row).toEqual({ rating_sum: own.puntuacion, rating_count: 1 });
    });

    it('refuses a rating outside 1–5', async () => {
      for (const value of [0, 6, 2.5, '3', null]) {
        const res = await patchVideo(server(), ana.session, videoId, [{ path: '/puntuacion', value }]);
        expect(res.statusCode, String(value)).toBe(400);
        expect(res.json().type).toBe('validation-error');
      }
    });

    it('favourite on and off', async () => {
      let res = await patchVideo(server(), ana.session, videoId, [{ path: '/favorito', value: true }]);
      expect(res.json()).toMatchObject({ favorito: true });
      expect(await titles(server(), ana.session, { favorited: 'eq:true' })).toEqual(['Bienvenida']);
      res = await patchVideo(server(), ana.session, videoId, [{ path: '/favorito', value: false }]);
      expect(res.json()).toMatchObject({ favorito: false, puntuacion: 2 });
      expect(await titles(server(), ana.session, { favorited: 'eq:true' })).toEqual([]);
    });

    it('seen is idempotent: the first time is kept', async () => {
      let res = await patchVideo(server(), ana.session, videoId, [{ path: '/visto', value: true }]);
      expect(res.json()).toMatchObject({ visto: true });
      const state = () =>
        server().db.kysely.selectFrom('video_user_states').selectAll().where('user_id', '=', ana.id).where('video_id', '=', videoId).executeTakeFirstOrThrow();
      const first = (await state()).visto_at;
      expect(first).not.toBeNull();
      await new Promise((r) => setTimeout(r, 5));
      res = await patchVideo(server(), ana.session, videoId, [{ path: '/visto', value: true }]);
      expect(res.statusCode).toBe(200);
      expect((await state()).visto_at).toBe(first);
      expect(await titles(server(), ana.session, { notSeen: 'eq:true' })).not.toContain('Bienvenida');
    });

    it('playback position: saved per user, shown by the detail', async () => {
      let res = await patchVideo(server(), ana.session, videoId, [{ path: '/posicion', value: 42.25 }]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ posicion: 42.25 });
      expect(((await getVideo(server(), ana.session, videoId)).json() as Video).posicion).toBe(42.25);
      expect(((await getVideo(server(), bruno.session, videoId)).json() as Video).posicion).toBeNull();
      res = await patchVideo(server(), ana.session, videoId, [{ path: '/posicion', value: 0 }]);
      expect(res.json()).toMatchObject({ posicion: 0, visto: true, puntuacion: 2 });
      for (const value of [-1, '10', null]) {
        expect((await patchVideo(server(), ana.session, videoId, [{ path: '/posicion', value }])).statusCode).toBe(400);
      }
    });

    it('several operations in one patch', async () => {
      const res = await patchVideo(server(), bruno.session, bareId, [
        { path: '/puntuacion', value: 5 },
        { path: '/favorito', value: true },
        { path: '/visto', value: true },
        { path: '/posicion', value: 12 },
      ]);
      expect(res.json()).toMatchObject({ puntuacion: 5, favorito: true, visto: true, posicion: 12, puntuacionMedia: 5 });
    });

    it('refuses other operations and paths', async () => {
      const bodies = [
        [{ op: 'add', path: '/favorito', value: true }],
        [{ op: 'replace', path: '/puntuacionMedia', value: 5 }],
        [{ op: 'replace', path: '/favorito' }],
        [],
      ];
      for (const body of bodies) {
        const res = await server().app.inject({
          method: 'PATCH',
          url: `/api/videos/${videoId}`,
          headers: { authorization: `Bearer ${ana.session}`, cookie: 'XSRF-TOKEN=x-token-0123456789', 'x-xsrf-token': 'x-token-0123456789', 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
    });
  });

  describe('PATCH /api/videos/{id}: the administrators’ fields', () => {
    const adminOperations = [
      { path: '/isVisible', value: false },
      { path: '/titulo', value: 'Otro título' },
      { path: '/descripcion', value: 'Otra descripción' },
      { path: '/shortDescription', value: 'Otro resumen' },
      { path: '/etiquetas', value: [] },
    ];

    it('are refused to users with 403 unauthorized-role, alone or mixed with their own fields, and change nothing', async () => {
      for (const op of adminOperations) {
        for (const body of [[op], [{ path: '/favorito', value: true }, op]]) {
          const res = await patchVideo(server(), ana.session, videoId, body);
          expect(res.statusCode, op.path).toBe(403);
          expect(res.json()).toMatchObject({ type: 'unauthorized-role', status: 403 });
        }
      }
      const video = (await getVideo(server(), ana.session, videoId)).json() as Video;
      expect(video).toMatchObject({ titulo: 'Bienvenida', isVisible: true, favorito: false });
    });

    it('administrators change them, and the search follows', async () => {
      const [nueva] = await ensureTags(server().db.kysely, ['Novedades'], new Date().toISOString());
      const res = await patchVideo(server(), admin.session, bareId, [
        { path: '/titulo', value: '  Orientación  ' },
        { path: '/shortDescription', value: 'Guía rápida' },
        { path: '/descripcion', value: 'Texto largo' },
        { path: '/etiquetas', value: [nueva!.id] },
        { path: '/isVisible', value: false },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        titulo: 'Orientación',
        descripcionCorta: 'Guía rápida',
        descripcion: 'Texto largo',
        etiquetas: [{ id: nueva!.id, nombre: 'Novedades' }],
        isVisible: false,
      });
      expect(await titles(server(), admin.session, { q: 'orientacion novedades' })).toEqual(['Orientación']);
      expect(await titles(server(), admin.session, { q: 'sin miniatura' })).toEqual([]);
      // not visible to all: its organisation still sees it, others do not
      expect((await getVideo(server(), ana.session, bareId)).statusCode).toBe(200);
      expect((await getVideo(server(), bruno.session, bareId)).statusCode).toBe(404);

      const cleared = await patchVideo(server(), admin.session, bareId, [{ path: '/descripcion', value: '' }]);
      expect(cleared.json()).toMatchObject({ descripcion: null });
    });

    it('validate texts (blank counts as empty) and tag ids', async () => {
      const cases = [
        { path: '/titulo', value: '   ab   ' },
        { path: '/titulo', value: 'x'.repeat(101) },
        { path: '/shortDescription', value: '     ' },
        { path: '/descripcion', value: ' a ' },
        { path: '/etiquetas', value: [999_999] },
      ];
      for (const op of cases) {
        const res = await patchVideo(server(), admin.session, videoId, [op]);
        expect(res.statusCode, JSON.stringify(op)).toBe(400);
        expect(res.json()).toMatchObject({ type: 'validation-error' });
      }
      const res = await patchVideo(server(), admin.session, videoId, [{ path: '/favorito', value: true }, { path: '/titulo', value: ' ' }]);
      expect(res.json().errors).toEqual([{ field: 'body.1.value', message: expect.any(String) }]);
      // nothing of a refused patch is kept
      expect(((await getVideo(server(), admin.session, videoId)).json() as Video).favorito).toBe(false);
    });
  });

  it('a missing video is 404 for every operation', async () => {
    expect((await getVideo(server(), admin.session, 987_654)).statusCode).toBe(404);
    expect((await patchVideo(server(), admin.session, 987_654, [{ path: '/titulo', value: 'Nada' }])).statusCode).toBe(404);
    expect((await patchVideo(server(), ana.session, 987_654, [{ path: '/visto', value: true }])).statusCode).toBe(404);
  });
});
