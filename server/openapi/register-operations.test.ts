import { beforeAll, expect, it } from 'vitest';
import { createFirstAdmin, type TestUser } from '../../tests/utils/accounts.ts';
import { call, describeOnEachDatabase } from '../../tests/utils/server-harness.ts';

describeOnEachDatabase('operations of openapi.yaml: integer spellings and methods', (server) => {
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createFirstAdmin(server());
  });

  const invite = async (email: string) => {
    const res = await call(server().app, { method: 'POST', url: '/api/register-invitations', token: admin.session, payload: { email } });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const listedIds = async () =>
    ((await call(server().app, { method: 'GET', url: '/api/register-invitations', token: admin.session })).json() as Array<{ id: number }>).map((i) => i.id);

  it('DELETE /api/register-invitations/{id} with 0x…, 0b…, …e0, ….0, 0-padded or space-padded ids deletes nothing: 400 naming params.id', async () => {
    const id = await invite('spelled@example.org');
    const spellings = [`0x${id.toString(16)}`, `0b${id.toString(2)}`, `${id}e0`, `${id}.0`, `00${id}`, `%20${id}`, `${id}%20`, `%2B${id}`];
    for (const spelling of spellings) {
      const res = await call(server().app, { method: 'DELETE', url: `/api/register-invitations/${spelling}`, token: admin.session });
      expect(res.statusCode, spelling).toBe(400);
      expect(res.json(), spelling).toMatchObject({ type: 'validation-error', errors: [{ field: 'params.id' }] });
    }
    expect(await listedIds()).toContain(id);
    const deleted = await call(server().app, { method: 'DELETE', url: `/api/register-invitations/${id}`, token: admin.session });
    expect(deleted.statusCode).toBe(204);
    expect(await listedIds()).not.toContain(id);
  });

  it('PATCH /api/usuarios/{id} with 0x1 refuses the id before the body is read', async () => {
    const res = await call(server().app, { method: 'PATCH', url: `/api/usuarios/0x${admin.id.toString(16)}`, token: admin.session, payload: [{ op: 'replace', path: '/rol', value: 'user' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'params.id' }] });
  });

  it('GET /api/statistics?limit=… takes decimal digits only, naming query.limit or query.offset', async () => {
    for (const [name, value] of [['limit', '0x2'], ['limit', '2e0'], ['limit', '2.0'], ['limit', '002'], ['limit', '%202'], ['offset', '0x0'], ['offset', '00']] as const) {
      const res = await call(server().app, { method: 'GET', url: `/api/statistics?option=infoTable&table=uma&${name}=${value}`, token: admin.session });
      expect(res.statusCode, `${name}=${value}`).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation-error', errors: [{ field: `query.${name}` }] });
    }
    const plain = await call(server().app, { method: 'GET', url: '/api/statistics?option=infoTable&table=uma&limit=2&offset=0', token: admin.session });
    expect(plain.statusCode).not.toBe(400);
  });

  it('a known path with a method it does not have is 405 with Allow; HEAD and OPTIONS too', async () => {
    const del = await call(server().app, { method: 'DELETE', url: '/api/me', token: admin.session });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD');
    expect(del.headers['content-type']).toContain('application/problem+json');
    expect(del.json()).toMatchObject({ type: 'method-not-allowed', status: 405, title: 'Method Not Allowed' });

    const put = await call(server().app, { method: 'PUT', url: '/api/register-invitations/1', token: admin.session, payload: { email: 'x@example.org' } });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('DELETE');

    const options = await server().app.inject({ method: 'OPTIONS', url: '/api/login' });
    expect(options.statusCode).toBe(405);
    expect(options.headers.allow).toBe('POST');

    const head = await server().app.inject({ method: 'HEAD', url: '/api/login' });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('POST');

    // GET operations answer HEAD as GET does
    const health = await server().app.inject({ method: 'HEAD', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });

  it('an unknown path under /api is 404 whatever the method', async () => {
    const res = await call(server().app, { method: 'PATCH', url: '/api/nothing-here/1', token: admin.session, payload: [] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: 'resource-not-found' });
  });
});
