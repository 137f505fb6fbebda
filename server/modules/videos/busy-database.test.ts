import { beforeAll, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { LOCK_TIMEOUT_MS } from '../../db/database.ts';
import { addVideo, createUser, getVideo, holdWriteLock, type LibraryUser } from './videos.test-support.ts';

/**
 * A write waits for another connection's lock at most LOCK_TIMEOUT_MS (5 s: SQLite's busy time-out,
 * PostgreSQL's lock_timeout). A request whose write could not start by then is a 503
 * service-unavailable with Retry-After, not an unexpected error or a request held for as long as the
 * lock is, and nothing of it is written; the same request a moment later succeeds. (Reads wait for
 * no writer: the repeat-opening test in videos-detail.test.ts.)
 */
describeOnEachDatabase('a write that cannot get its lock in time', (server) => {
  let ana: LibraryUser;
  let videoId: number;

  beforeAll(async () => {
    ana = await createUser(server(), 'ana', { organizacion: 'TAO' });
    videoId = await addVideo(server(), { titulo: 'Bienvenida', organizacion: 'TAO' });
  });

  const views = async () => (await server().db.kysely.selectFrom('view_events').select('id').where('video_id', '=', videoId).execute()).length;

  it('is a 503 problem with Retry-After, records nothing, and succeeds once the lock is gone', async () => {
    const lock = await holdWriteLock(server());
    let busy;
    const started = Date.now();
    try {
      busy = await getVideo(server(), ana.session, videoId); // a first opening records a view: a write
    } finally {
      await lock.release();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS - 100);
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['content-type']).toContain('application/problem+json');
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json()).toMatchObject({ type: 'service-unavailable', status: 503 });
    expect(await views()).toBe(0);

    const again = await getVideo(server(), ana.session, videoId);
    expect(again.statusCode).toBe(200);
    expect(await views()).toBe(1);
  }, 15_000);
});
