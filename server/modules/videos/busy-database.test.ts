import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/utils/server-harness.ts';
import { addVideo, createUser, getVideo, holdWriteLock, type LibraryUser } from './videos.test-support.ts';

/**
 * SQLite waits for another connection's write lock at most its busy time-out (5 s). A request whose
 * write could not start by then is a 503 service-unavailable with Retry-After, not an unexpected
 * error, and nothing of it is written; the same request a moment later succeeds. (PostgreSQL has
 * no lock time-out here: a write waits for the lock; the repeat-opening test in videos-detail.test.ts
 * covers reads not waiting on both databases.)
 */
describe('a write that cannot get the SQLite database in time', () => {
  let server: TestServer & { close(): Promise<void> };
  let ana: LibraryUser;
  let videoId: number;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    ana = await createUser(server, 'ana', { organizacion: 'TAO' });
    videoId = await addVideo(server, { titulo: 'Bienvenida', organizacion: 'TAO' });
  });
  afterAll(async () => {
    const violations = server.violations;
    await server.close();
    expect(violations, 'responses that do not match openapi.yaml').toEqual([]);
  });

  const views = async () => (await server.db.kysely.selectFrom('view_events').select('id').where('video_id', '=', videoId).execute()).length;

  it('is a 503 problem with Retry-After, records nothing, and succeeds once the lock is gone', async () => {
    const lock = await holdWriteLock(server);
    let busy;
    try {
      busy = await getVideo(server, ana.session, videoId); // a first opening records a view: a write
    } finally {
      await lock.release();
    }
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['content-type']).toContain('application/problem+json');
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json()).toMatchObject({ type: 'service-unavailable', status: 503 });
    expect(await views()).toBe(0);

    const again = await getVideo(server, ana.session, videoId);
    expect(again.statusCode).toBe(200);
    expect(await views()).toBe(1);
  }, 15_000);
});
