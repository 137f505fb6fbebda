import { beforeAll, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { updateVideoMedia } from './videos.service.ts';
import { addVideo, createUser, list, patchVideo, type LibraryUser } from './videos.test-support.ts';

/**
 * The total of the list without filters (X-Total-Count) is what each person may see, however the
 * library changes: videos added, hidden and shown again, finishing processing, deleted.
 */
describeOnEachDatabase('videos: the total of the unfiltered list', (server) => {
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
  const totals = async () => {
    const out: Record<string, number> = {};
    for (const [name, person] of Object.entries({ admin, ana, bruno, carla })) {
      const res = await list(server(), person.session, { limit: 1 });
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
});
