import { beforeAll, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../tests/utils/server-harness.ts';
import { addVideo, createUser, type LibraryUser } from '../modules/videos/videos.test-support.ts';

/**
 * Text holding U+0000 is refused with 400 naming the field, on both databases (PostgreSQL cannot store
 * it and answered such a tag name or sign-in name with a 500; found by the schema fuzzing).
 */
describeOnEachDatabase('text holding U+0000 is refused, on every operation', (server) => {
  let admin: LibraryUser;
  let video: number;
  beforeAll(async () => {
    admin = await createUser(server(), 'nul-admin', { rol: 'admin' });
    video = await addVideo(server(), { titulo: 'Sin caracteres nulos' });
  });

  const refusedNaming = (res: Awaited<ReturnType<typeof call>>, field: string) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation-error', errors: [{ field, message: 'must not contain the character U+0000' }] });
  };

  it('a tag name, a video title in a patch, a sign-in name, a search: 400 naming the field; nothing is stored', async () => {
    refusedNaming(await call(server().app, { method: 'POST', url: '/api/etiquetas', token: admin.session, payload: { nombre: 'Forma\u0000ción' } }), 'body.nombre');
    refusedNaming(
      await call(server().app, { method: 'PATCH', url: `/api/videos/${video}`, token: admin.session, payload: [{ op: 'replace', path: '/titulo', value: 'Título\u0000 nuevo' }] }),
      'body.0.value',
    );
    refusedNaming(await call(server().app, { method: 'POST', url: '/api/login', payload: { user: 'ana\u0000', password: 'whatever-1' } }), 'body.user');
    refusedNaming(await call(server().app, { method: 'GET', url: '/api/videos?q=nulo%00', token: admin.session }), 'query.q');

    const tags = await call(server().app, { method: 'GET', url: '/api/etiquetas', token: admin.session });
    expect(tags.json()).toEqual([]);
    const detail = await call(server().app, { method: 'GET', url: `/api/videos/${video}`, token: admin.session });
    expect(detail.json()).toMatchObject({ titulo: 'Sin caracteres nulos' });
  });

  it('the same texts without it are taken', async () => {
    const res = await call(server().app, { method: 'POST', url: '/api/etiquetas', token: admin.session, payload: { nombre: 'Formación' } });
    expect(res.statusCode, res.body).toBe(201);
    const search = await call(server().app, { method: 'GET', url: '/api/videos?q=nulo', token: admin.session });
    expect(search.statusCode).toBe(200);
  });
});
