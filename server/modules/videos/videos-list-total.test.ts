import { beforeAll, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { ensureTags } from '../etiquetas/etiquetas.repository.ts';
import { updateVideoMedia } from './videos.service.ts';
import { addVideo, createUser, list, patchVideo, type LibraryUser } from './videos.test-support.ts';

/**
 * The totals of the list (X-Total-Count) without filters and with tags and a score are what each
 * person may see, however the library changes: videos added, hidden and shown again, finishing
 * processing, retagged, rated, deleted.
 */
describeOnEachDatabase('videos: the totals of the list', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser; // organisation TAO
  let bruno: LibraryUser; // organisation Otra
  let carla: LibraryUser; // no organisation

  beforeAll(async () => {
    admin = await createUser(server(), 'admin', { rol: 'admin', organizacion: 'TAO' });
    ana = await createUser(server(), 'ana', { organizacion: 'TAO' });
    bruno = await createUser(server(), 'bruno', { organizacion: 'Otra' });
    carla = await createUser(server(), 'carla');
  });

  /** The totals each person sees, asking for one video per page (the page never shows the total). */
  const totals = async (filters: Record<string, string> = {}) => {
    const out: Record<string, number> = {};
    for (const [name, person] of Object.entries({ admin, ana, bruno, carla })) {
      const res = await list(server(), person.session, { ...filters, limit: 1 });
      expect(res.statusCode, res.body).toBe(200);
      out[name] = Number(res.headers['x-total-count']);
    }
    return out;
  };

  it('follows additions, hiding, processing and deletion for every kind of viewer', async () => {
    expect(await totals()).toEqual({ admin: 0, ana: 0, bruno: 0, carla: 0 });

    await addVideo(server(), { titulo: 'Público TAO', organizacion: 'TAO' });
    await addVideo(server(), { titulo: 'Público sin organización', organizacion: null });
    const internal = await addVideo(server(), { titulo: 'Interno TAO', organizacion: 'TAO', isVisible: false });
    await addVideo(server(), { titulo: 'Interno sin organización', organizacion: null, isVisible: false });
    const processing = await addVideo(server(), { titulo: 'En proceso', organizacion: 'Otra', isVisible: false, status: 'processing' });
    expect(await totals()).toEqual({ admin: 4, ana: 3, bruno: 2, carla: 2 });

    // ready after processing: Otra's people and administrators see it
    await updateVideoMedia(server().db, processing, { status: 'ready', duracion: 12 });
    expect(await totals()).toEqual({ admin: 5, ana: 3, bruno: 3, carla: 2 });

    // shown to everyone, then hidden again
    expect((await patchVideo(server(), admin.session, internal, [{ path: '/isVisible', value: true }])).statusCode).toBe(200);
    expect(await totals()).toEqual({ admin: 5, ana: 3, bruno: 4, carla: 3 });
    expect((await patchVideo(server(), admin.session, internal, [{ path: '/isVisible', value: false }])).statusCode).toBe(200);
    expect(await totals()).toEqual({ admin: 5, ana: 3, bruno: 3, carla: 2 });

    // deleted
    const deleted = await call(server().app, { method: 'DELETE', url: `/api/videos/${internal}`, token: admin.session });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await totals()).toEqual({ admin: 4, ana: 2, bruno: 3, carla: 2 });
  });

  it('with tags and a score, follows retagging, ratings, visibility, processing and deletion', async () => {
    const [cine, teatro] = await ensureTags(server().db.kysely, ['Cine', 'Teatro'], new Date().toISOString());
    const tags = { tag: `in:${cine!.id},${teatro!.id}` };
    const scored = { ...tags, score: 'gte:4' };
    const both = await addVideo(server(), { titulo: 'Ambas', organizacion: 'TAO', tagIds: [cine!.id, teatro!.id] });
    const hidden = await addVideo(server(), { titulo: 'Oculta', organizacion: 'TAO', isVisible: false, tagIds: [teatro!.id] });
    const later = await addVideo(server(), { titulo: 'Luego', organizacion: 'Otra', status: 'processing', tagIds: [cine!.id] });
    const untagged = await addVideo(server(), { titulo: 'Sin etiquetas', organizacion: null });
    expect(await totals(tags)).toEqual({ admin: 2, ana: 2, bruno: 1, carla: 1 }); // a video with both tags counts once
    expect(await totals(scored)).toEqual({ admin: 0, ana: 0, bruno: 0, carla: 0 });

    await updateVideoMedia(server().db, later, { status: 'ready', duracion: 5 });
    expect(await totals(tags)).toEqual({ admin: 3, ana: 3, bruno: 2, carla: 2 });

    // rated 5 by one person, then 4 by another (rounded average 5, then 4.5 → 5), then 1 by a third (10 / 3 → 3)
    for (const [person, value] of [[ana, 5], [bruno, 4]] as const) {
      expect((await patchVideo(server(), person.session, both, [{ path: '/puntuacion', value }])).statusCode).toBe(200);
    }
    expect(await totals(scored)).toEqual({ admin: 1, ana: 1, bruno: 1, carla: 1 });
    expect((await patchVideo(server(), carla.session, both, [{ path: '/puntuacion', value: 1 }])).statusCode).toBe(200);
    expect(await totals({ ...tags, score: 'eq:3' })).toEqual({ admin: 1, ana: 1, bruno: 1, carla: 1 });
    expect(await totals(scored)).toEqual({ admin: 0, ana: 0, bruno: 0, carla: 0 });

    // retagged: the untagged video gets one, the hidden one loses its only one
    expect((await patchVideo(server(), admin.session, untagged, [{ path: '/etiquetas', value: [cine!.id] }])).statusCode).toBe(200);
    expect((await patchVideo(server(), admin.session, hidden, [{ path: '/etiquetas', value: [] }])).statusCode).toBe(200);
    expect(await totals(tags)).toEqual({ admin: 3, ana: 3, bruno: 3, carla: 3 });

    // shown to everyone, then deleted
    expect((await patchVideo(server(), admin.session, later, [{ path: '/isVisible', value: false }])).statusCode).toBe(200);
    expect(await totals(tags)).toEqual({ admin: 3, ana: 2, bruno: 3, carla: 2 });
    const deleted = await call(server().app, { method: 'DELETE', url: `/api/videos/${both}`, token: admin.session });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await totals(tags)).toEqual({ admin: 2, ana: 1, bruno: 2, carla: 1 });
  });
});
