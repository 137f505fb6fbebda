import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { call, describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { addVideo, createUser, getVideo, titles, type LibraryUser, type Video } from '../videos/videos.test-support.ts';
import { ensureTags } from './etiquetas.repository.ts';
import { patchEtiqueta } from './etiquetas.service.ts';

type Etiqueta = components['schemas']['Etiqueta'];

describeOnEachDatabase('etiquetas: the list of tags', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser;

  beforeAll(async () => {
    admin = await createUser(server(), 'admin', { rol: 'admin' });
    ana = await createUser(server(), 'ana');
  });

  it('is empty at first', async () => {
    const res = await call(server().app, { method: 'GET', url: '/api/etiquetas', token: ana.session });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('lists every tag by name as Spanish readers sort it (case and accents do not separate)', async () => {
    await ensureTags(server().db.kysely, ['zoología', 'Ética', 'árbol', 'Casa', 'Ñandú', 'nube', 'Etapa'], new Date().toISOString());
    for (const user of [ana, admin]) {
      const res = await call(server().app, { method: 'GET', url: '/api/etiquetas', token: user.session });
      expect(res.statusCode).toBe(200);
      expect((res.json() as Array<{ nombre: string }>).map((t) => t.nombre)).toEqual(['árbol', 'Casa', 'Etapa', 'Ética', 'nube', 'Ñandú', 'zoología']);
    }
  });

  it('names are unique ignoring case and accents: ensuring an existing name gives the same tag', async () => {
    const [first] = await ensureTags(server().db.kysely, ['CASA'], new Date().toISOString());
    const [arbol] = await ensureTags(server().db.kysely, ['ARBOL'], new Date().toISOString());
    const list = (await call(server().app, { method: 'GET', url: '/api/etiquetas', token: ana.session })).json() as Etiqueta[];
    expect(list.filter((t) => t.nombre.toLowerCase() === 'casa')).toEqual([{ id: first!.id, nombre: 'Casa' }]);
    expect(list.filter((t) => ['arbol', 'árbol'].includes(t.nombre.toLowerCase()))).toEqual([{ id: arbol!.id, nombre: 'árbol' }]);
  });

  it('needs a session', async () => {
    const res = await server().app.inject({ method: 'GET', url: '/api/etiquetas' });
    expect(res.statusCode).toBe(401);
  });
});

/** The audit rows of tags, oldest first. */
async function tagAudit(server: TestServer) {
  const rows = await server.db.kysely.selectFrom('audit_log').selectAll().where('subject_type', '=', 'tag').orderBy('id').execute();
  return rows.map((r) => ({
    actor: r.actor_nombre,
    actorId: r.actor_id,
    action: r.action,
    subjectId: r.subject_id,
    before: r.before === null ? null : (JSON.parse(r.before) as unknown),
    after: r.after === null ? null : (JSON.parse(r.after) as unknown),
  }));
}

describeOnEachDatabase('etiquetas: administrators create, rename and delete tags', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser;

  beforeAll(async () => {
    admin = await createUser(server(), 'gestora', { rol: 'admin' });
    ana = await createUser(server(), 'ana');
  });

  const create = (nombre: unknown, token = admin.session) =>
    call(server().app, { method: 'POST', url: '/api/etiquetas', token, payload: { nombre } });
  const rename = (id: number, nombre: unknown, token = admin.session) =>
    call(server().app, {
      method: 'PATCH',
      url: `/api/etiquetas/${id}`,
      token,
      headers: { 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify([{ op: 'replace', path: '/nombre', value: nombre }]),
    });
  const remove = (id: number, token = admin.session) => call(server().app, { method: 'DELETE', url: `/api/etiquetas/${id}`, token });
  const names = async () => ((await call(server().app, { method: 'GET', url: '/api/etiquetas', token: ana.session })).json() as Etiqueta[]).map((t) => t.nombre);
  const auditCount = async () => Number((await server().db.kysely.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  describe('create', () => {
    it('answers 201 with the tag, trimmed, listed at once, and records who created it', async () => {
      const res = await create('  Formación  ');
      expect(res.statusCode, res.body).toBe(201);
      const tag = res.json() as Etiqueta;
      expect(tag).toEqual({ id: expect.any(Number) as number, nombre: 'Formación' });
      expect(await names()).toContain('Formación');
      expect((await tagAudit(server())).at(-1)).toEqual({
        actor: 'gestora', actorId: admin.id, action: 'tag.created', subjectId: String(tag.id), before: null, after: { nombre: 'Formación' },
      });
    });

    it('takes 3 to 50 characters (without the spaces at either end): 2, blank and 51 are a 400 validation-error', async () => {
      expect((await create('abc')).statusCode).toBe(201);
      expect((await create('x'.repeat(50))).statusCode).toBe(201);
      const before = await auditCount();
      for (const nombre of ['ab', '  ab  ', '      ', 'y'.repeat(51), '']) {
        const res = await create(nombre);
        expect(res.statusCode, JSON.stringify(nombre)).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.json()).toMatchObject({ type: 'validation-error' });
      }
      expect(await names()).not.toContain('ab');
      expect(await auditCount()).toBe(before);
    });

    it('refuses a name taken in other case or accents: 409 conflict naming the existing tag, nothing written', async () => {
      const before = await auditCount();
      for (const nombre of ['formación', 'FORMACION', 'formacion', ' Formación ']) {
        const res = await create(nombre);
        expect(res.statusCode, nombre).toBe(409);
        expect(res.json()).toMatchObject({ type: 'conflict', detail: expect.stringContaining('"Formación"') as string });
      }
      expect((await names()).filter((n) => n.toLowerCase().startsWith('formaci'))).toEqual(['Formación']);
      expect(await auditCount()).toBe(before);
    });
  });

  it('lets one of several simultaneous creations of one name (in any case or accents) in; the others are 409', async () => {
    const before = await auditCount();
    const answers = await Promise.all(['Teatro Ñ', 'teatro ñ', 'TEATRO N', 'Teatro N', 'teatro n'].map((nombre) => create(nombre)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const made = (answers.find((r) => r.statusCode === 201)!.json() as Etiqueta).nombre;
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json()).toMatchObject({ type: 'conflict', detail: expect.stringContaining(`a tag named "${made}" exists`) as string });
    }
    expect((await names()).filter((n) => n.toLowerCase().startsWith('teatro'))).toHaveLength(1);
    expect(await auditCount()).toBe(before + 1);
  });

  describe('rename', () => {
    it('answers the renamed tag; its videos carry and are found by the new name; the audit has before and after', async () => {
      const tag = (await create('Deportes')).json() as Etiqueta;
      const video = await addVideo(server(), { titulo: 'Partido de la tarde', tagIds: [tag.id] });
      const res = await rename(tag.id, ' Atletismo ');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ id: tag.id, nombre: 'Atletismo' });
      expect(((await getVideo(server(), ana.session, video)).json() as Video).etiquetas).toEqual([{ id: tag.id, nombre: 'Atletismo' }]);
      expect(await titles(server(), ana.session, { q: 'atletismo' })).toEqual(['Partido de la tarde']);
      expect(await titles(server(), ana.session, { q: 'deportes' })).toEqual([]);
      expect((await tagAudit(server())).at(-1)).toEqual({
        actor: 'gestora', actorId: admin.id, action: 'tag.renamed', subjectId: String(tag.id), before: { nombre: 'Deportes' }, after: { nombre: 'Atletismo' },
      });
    });

    it('may change only the case or accents of its own name', async () => {
      const tag = (await create('Musica')).json() as Etiqueta;
      const res = await rename(tag.id, 'Música');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ id: tag.id, nombre: 'Música' });
    });

    it('refuses another tag\'s name in other case or accents (409) and bad lengths (400); nothing changes nor is recorded', async () => {
      const tag = (await create('Cocina')).json() as Etiqueta;
      const before = await auditCount();
      for (const nombre of ['FORMACION', 'formación']) {
        const res = await rename(tag.id, nombre);
        expect(res.statusCode, nombre).toBe(409);
        expect(res.json()).toMatchObject({ type: 'conflict', detail: expect.stringContaining('"Formación"') as string });
      }
      for (const nombre of ['ab', '   ', 'z'.repeat(51), 7]) {
        const res = await rename(tag.id, nombre);
        expect(res.statusCode, String(nombre)).toBe(400);
        expect(res.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'body.0.value' }] });
      }
      expect(await names()).toContain('Cocina');
      expect(await auditCount()).toBe(before);
    });

    it('names the same field when the service itself refuses the name (as for a caller without the contract)', async () => {
      const tag = (await create('Jardinería')).json() as Etiqueta;
      await expect(patchEtiqueta({ db: server().db }, { id: admin.id, nombre: 'gestora' }, tag.id, [{ op: 'replace', path: '/nombre', value: '  ab ' }])).rejects.toMatchObject({
        status: 400,
        errors: [{ field: 'body.0.value', message: 'must have 3 to 50 characters (not counting spaces at either end)' }],
      });
      const res = await rename(tag.id, '  ab ');
      expect(res.json()).toMatchObject({ errors: [{ field: 'body.0.value', message: 'must have 3 to 50 characters (not counting spaces at either end)' }] });
    });

    it('answers 404 for an unknown tag', async () => {
      const res = await rename(999_999, 'Nadie');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ type: 'resource-not-found' });
    });
  });

  describe('delete', () => {
    it('removes the tag from its videos: gone from them, from search and from the filter; recorded', async () => {
      const keep = (await create('Idiomas')).json() as Etiqueta;
      const gone = (await create('Viajes')).json() as Etiqueta;
      const video = await addVideo(server(), { titulo: 'Vuelta al mundo', tagIds: [keep.id, gone.id] });
      expect(await titles(server(), ana.session, { tag: `in:${gone.id}` })).toEqual(['Vuelta al mundo']);

      const res = await remove(gone.id);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      expect(await names()).not.toContain('Viajes');
      expect(((await getVideo(server(), ana.session, video)).json() as Video).etiquetas).toEqual([{ id: keep.id, nombre: 'Idiomas' }]);
      expect(await titles(server(), ana.session, { tag: `in:${gone.id}` })).toEqual([]);
      expect(await titles(server(), ana.session, { q: 'viajes' })).toEqual([]);
      expect(await titles(server(), ana.session, { tag: `in:${keep.id}` })).toEqual(['Vuelta al mundo']);
      expect((await tagAudit(server())).at(-1)).toEqual({
        actor: 'gestora', actorId: admin.id, action: 'tag.deleted', subjectId: String(gone.id), before: { nombre: 'Viajes', videos: [video] }, after: null,
      });
      expect((await remove(gone.id)).statusCode).toBe(404);
    });
  });

  describe('only administrators write', () => {
    it('answers 403 unauthorized-role to a user on create, rename and delete; nothing changes nor is recorded', async () => {
      const tag = (await create('Solo lectura')).json() as Etiqueta;
      const before = await auditCount();
      for (const res of [await create('Intrusa', ana.session), await rename(tag.id, 'Cambiada', ana.session), await remove(tag.id, ana.session)]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ type: 'unauthorized-role' });
      }
      expect(await names()).toContain('Solo lectura');
      expect(await names()).not.toContain('Intrusa');
      expect(await auditCount()).toBe(before);
    });

    it('needs the XSRF header on a write from a browser session', async () => {
      const res = await server().app.inject({
        method: 'POST',
        url: '/api/etiquetas',
        headers: { authorization: `Bearer ${admin.session}`, cookie: 'XSRF-TOKEN=abc' },
        payload: { nombre: 'Sin cabecera' },
      });
      expect(res.statusCode).toBe(403);
      expect(await names()).not.toContain('Sin cabecera');
    });
  });
});
