import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { call, describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { now } from '../../db/database.ts';
import { openStorage } from '../../storage/open-storage.ts';
import type { Storage } from '../../storage/storage.ts';
import { ensureTags } from '../etiquetas/etiquetas.repository.ts';
import { insertUpload } from '../uploads/uploads.repository.ts';
import { addVideo, assetId, createUser, getVideo, list, titles, type LibraryUser, type Video } from './videos.test-support.ts';

type BatchResult = components['schemas']['VideosBatchResult'];
type AuditEntry = components['schemas']['AuditEntry'];

/** R-ADM-10 … R-ADM-12, R-API-4, R-API-5: the batch edit and delete of a selection (docs/decisions/0127-batch-video-operations.md). */
describeOnEachDatabase('videos: batch edit and delete of a selection (administrators)', (server: () => TestServer) => {
  let admin: LibraryUser;
  let ana: LibraryUser;
  let storage: Storage;
  /** Formación, Acogida, Seguridad */
  let tag: { formacion: number; acogida: number; seguridad: number };

  beforeAll(async () => {
    admin = await createUser(server(), 'gestora', { rol: 'admin', organizacion: 'TAO' });
    ana = await createUser(server(), 'ana', { organizacion: 'Otra' });
    const tags = await ensureTags(server().db.kysely, ['Formación', 'Acogida', 'Seguridad'], now());
    const id = (name: string) => tags.find((t) => t.nombre === name)!.id;
    tag = { formacion: id('Formación'), acogida: id('Acogida'), seguridad: id('Seguridad') };
    storage = openStorage(server().config);
  });

  const patch = (token: string, body: unknown) => call(server().app, { method: 'PATCH', url: '/api/videos', token, payload: body as object });
  const remove = (token: string, ids: string) => call(server().app, { method: 'DELETE', url: `/api/videos?ids=${ids}`, token });
  const video = async (id: number) => (await getVideo(server(), admin.session, id)).json() as Video;
  const tagNames = async (id: number) => (await video(id)).etiquetas.map((t) => t.nombre);
  /** The audit entries of a video, oldest first. */
  async function auditOf(id: number): Promise<AuditEntry[]> {
    const res = await call(server().app, { method: 'GET', url: '/api/audit?limit=500', token: admin.session });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as AuditEntry[]).filter((e) => e.subjectType === 'video' && e.subjectId === String(id)).reverse();
  }
  /** A video id that existed and was deleted. */
  async function goneId(): Promise<number> {
    const id = await addVideo(server(), { titulo: 'Ya no está' });
    expect((await call(server().app, { method: 'DELETE', url: `/api/videos/${id}`, token: admin.session })).statusCode).toBe(204);
    return id;
  }

  describe('PATCH /api/videos', () => {
    it('adds and removes tags and sets the visibility of every video, in one go; a missing id is 404 on its own and the others are applied and audited', async () => {
      const word = `lote${crypto.randomBytes(3).toString('hex')}`;
      const [a, b, c] = [
        await addVideo(server(), { titulo: `Primero ${word}`, organizacion: 'TAO', tagIds: [tag.formacion] }),
        await addVideo(server(), { titulo: `Segundo ${word}`, organizacion: 'TAO', tagIds: [tag.formacion, tag.acogida] }),
        await addVideo(server(), { titulo: `Tercero ${word}`, organizacion: 'TAO', isVisible: false }),
      ];
      const missing = await goneId();

      const res = await patch(admin.session, {
        ids: [b, missing, a, c],
        operaciones: [
          { op: 'add', path: '/etiquetas/-', value: tag.seguridad },
          { op: 'remove', path: `/etiquetas/${tag.formacion}` },
          { op: 'replace', path: '/isVisible', value: true },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        resultados: [
          { id: b, status: 200 },
          { id: missing, status: 404, type: 'resource-not-found', detail: 'no such video' },
          { id: a, status: 200 },
          { id: c, status: 200 },
        ],
      });
      expect(await tagNames(a)).toEqual(['Seguridad']);
      expect(await tagNames(b)).toEqual(['Acogida', 'Seguridad']);
      expect(await tagNames(c)).toEqual(['Seguridad']);
      expect((await video(c)).isVisible).toBe(true);

      // the search index follows the tags; a user of another organisation now sees the third one
      expect((await titles(server(), admin.session, { q: `${word} seguridad` })).sort()).toEqual([`Primero ${word}`, `Segundo ${word}`, `Tercero ${word}`]);
      expect(await titles(server(), admin.session, { q: `${word} formacion` })).toEqual([]);
      expect(await titles(server(), ana.session, { q: word })).toContain(`Tercero ${word}`);

      // one audit entry per changed video, naming only what changed, by the administrator
      const edits = async (id: number) => (await auditOf(id)).filter((e) => e.action === 'video.edited');
      expect(await edits(a)).toEqual([
        expect.objectContaining({ actorId: admin.id, actorNombre: 'gestora', before: { tags: [tag.formacion] }, after: { tags: [tag.seguridad] }, detail: `Primero ${word}` }),
      ]);
      expect(await edits(b)).toEqual([expect.objectContaining({ before: { tags: [tag.formacion, tag.acogida].sort((x, y) => x - y) }, after: { tags: [tag.acogida, tag.seguridad].sort((x, y) => x - y) } })]);
      expect(await edits(c)).toEqual([expect.objectContaining({ before: { isVisible: false, tags: [] }, after: { isVisible: true, tags: [tag.seguridad] } })]);

      // the same again changes nothing: answered 200, nothing more in the audit log
      const again = await patch(admin.session, { ids: [a, b, c], operaciones: [{ op: 'add', path: '/etiquetas/-', value: tag.seguridad }, { op: 'replace', path: '/isVisible', value: true }] });
      expect(again.json()).toEqual({ resultados: [a, b, c].map((id) => ({ id, status: 200 })) });
      for (const id of [a, b, c]) expect(await edits(id)).toHaveLength(1);
    });

    it('operations apply in order to each video: adding then removing a tag leaves it off', async () => {
      const id = await addVideo(server(), { titulo: 'En orden', tagIds: [tag.acogida] });
      const res = await patch(admin.session, {
        ids: [id],
        operaciones: [
          { op: 'add', path: '/etiquetas/-', value: tag.formacion },
          { op: 'remove', path: `/etiquetas/${tag.formacion}` },
          { op: 'remove', path: `/etiquetas/${tag.seguridad}` },
        ],
      });
      expect(res.json()).toEqual({ resultados: [{ id, status: 200 }] });
      expect(await tagNames(id)).toEqual(['Acogida']);
      expect((await auditOf(id)).filter((e) => e.action === 'video.edited')).toEqual([]);
    });

    it('refuses a batch that would leave a video with more than 50 tags (400 naming body.operaciones), applying nothing', async () => {
      const many = await ensureTags(server().db.kysely, Array.from({ length: 50 }, (_, i) => `Tema ${i + 1}`), now());
      const full = await addVideo(server(), { titulo: 'Llena de etiquetas', tagIds: many.map((t) => t.id) });
      const other = await addVideo(server(), { titulo: 'Casi sin etiquetas' });
      const res = await patch(admin.session, { ids: [other, full], operaciones: [{ op: 'add', path: '/etiquetas/-', value: tag.seguridad }] });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'body.operaciones', message: expect.stringContaining(`video ${full}`) }] });
      expect(await tagNames(other)).toEqual([]);
      expect(await tagNames(full)).toHaveLength(50);
    });

    it('a bulk hide reaches the pages a user has listed already, plain and searched', async () => {
      const word = `oculto${crypto.randomBytes(3).toString('hex')}`;
      const ids = [
        await addVideo(server(), { titulo: `Charla uno ${word}`, organizacion: 'TAO' }),
        await addVideo(server(), { titulo: `Charla dos ${word}`, organizacion: 'TAO' }),
      ];
      const shown = await titles(server(), ana.session, { limit: 500 });
      expect(shown).toEqual(expect.arrayContaining([`Charla uno ${word}`, `Charla dos ${word}`]));
      expect((await titles(server(), ana.session, { q: word })).sort()).toEqual([`Charla dos ${word}`, `Charla uno ${word}`]);
      const before = Number((await list(server(), ana.session)).headers['x-total-count']);

      const res = await patch(admin.session, { ids, operaciones: [{ op: 'replace', path: '/isVisible', value: false }] });
      expect(res.statusCode, res.body).toBe(200);

      expect(await titles(server(), ana.session, { q: word })).toEqual([]);
      expect(await titles(server(), ana.session, { limit: 500 })).not.toContain(`Charla uno ${word}`);
      expect(Number((await list(server(), ana.session)).headers['x-total-count'])).toBe(before - 2);
      // the administrator's organisation still sees them
      expect((await titles(server(), admin.session, { q: word })).sort()).toEqual([`Charla dos ${word}`, `Charla uno ${word}`]);
    });

    it('is for administrators only: 403 unauthorized-role, nothing changed', async () => {
      const id = await addVideo(server(), { titulo: 'No para usuarios' });
      const res = await patch(ana.session, { ids: [id], operaciones: [{ op: 'replace', path: '/isVisible', value: false }] });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ type: 'unauthorized-role' });
      expect((await video(id)).isVisible).toBe(true);
    });

    describe('refuses a malformed batch with 400 validation-error naming the field, applying nothing', () => {
      const cases: Array<[string, (ids: number[]) => unknown, string]> = [
        ['an unknown tag to add', (ids) => ({ ids, operaciones: [{ op: 'replace', path: '/isVisible', value: false }, { op: 'add', path: '/etiquetas/-', value: 987_654 }] }), 'body.operaciones.1.value'],
        ['an unknown tag to remove', (ids) => ({ ids, operaciones: [{ op: 'replace', path: '/isVisible', value: false }, { op: 'remove', path: '/etiquetas/987654' }] }), 'body.operaciones.1.path'],
        ['a tag id past the range', (ids) => ({ ids, operaciones: [{ op: 'replace', path: '/isVisible', value: false }, { op: 'remove', path: '/etiquetas/9999999999' }] }), 'body.operaciones.1.path'],
        ['an operation JSON Patch has but the batch does not', (ids) => ({ ids, operaciones: [{ op: 'move', from: '/etiquetas/1', path: '/etiquetas/-' }] }), 'body.operaciones.0'],
        ['a path the batch does not change', (ids) => ({ ids, operaciones: [{ op: 'replace', path: '/titulo', value: 'Nuevo título' }] }), 'body.operaciones.0.path'],
        ['a visibility that is not a boolean', (ids) => ({ ids, operaciones: [{ op: 'replace', path: '/isVisible', value: 'no' }] }), 'body.operaciones.0.value'],
        ['a remove with a path that is no tag id', (ids) => ({ ids, operaciones: [{ op: 'remove', path: '/etiquetas/-' }] }), 'body.operaciones.0.path'],
        ['no operations', (ids) => ({ ids, operaciones: [] }), 'body.operaciones'],
        ['no ids', () => ({ ids: [], operaciones: [{ op: 'replace', path: '/isVisible', value: false }] }), 'body.ids'],
        ['an id twice', (ids) => ({ ids: [ids[0], ids[0]], operaciones: [{ op: 'replace', path: '/isVisible', value: false }] }), 'body.ids'],
        ['101 ids', (ids) => ({ ids: [...ids, ...Array.from({ length: 100 }, (_, i) => 1_000_000 + i)], operaciones: [{ op: 'replace', path: '/isVisible', value: false }] }), 'body.ids'],
      ];
      it.each(cases)('%s', async (_name, body, field) => {
        const id = await addVideo(server(), { titulo: 'Intacto', tagIds: [tag.acogida] });
        const res = await patch(admin.session, body([id]));
        expect(res.statusCode, res.body).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.json()).toMatchObject({ type: 'validation-error' });
        expect((res.json() as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toContain(field);
        expect(await video(id)).toMatchObject({ isVisible: true, etiquetas: [{ id: tag.acogida, nombre: 'Acogida' }] });
        expect(await auditOf(id)).toEqual([]);
      });
    });
  });

  describe('DELETE /api/videos', () => {
    /** A video with its files in storage and its upload session. */
    async function videoWithFiles(titulo: string): Promise<{ id: number; asset: string; url: string }> {
      const asset = assetId();
      await insertUpload(server().db.kysely, { asset_id: asset, created_at: now(), expires_at: new Date(Date.now() + 3600_000).toISOString(), video_state: 'ready', updated_at: now() });
      for (const file of ['video.mp4', 'thumbnail.jpg']) await storage.write(asset, file, Readable.from([crypto.randomBytes(300)]));
      const id = await addVideo(server(), { titulo, idExterno: asset, hasThumbnail: true, tagIds: [tag.formacion] });
      return { id, asset, url: (await video(id)).urlVideo };
    }
    const media = (url: string) => server().app.inject({ method: 'GET', url });

    it('deletes every video named with its files, in one go; an id with no video is 404 on its own; each is audited', async () => {
      const first = await videoWithFiles('Borrar uno');
      const second = await videoWithFiles('Borrar dos');
      const kept = await videoWithFiles('Se queda');
      const missing = await goneId();
      expect((await media(first.url)).statusCode).toBe(200);

      const res = await remove(admin.session, `${second.id},${missing},${first.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json() as BatchResult).toEqual({
        resultados: [
          { id: second.id, status: 204 },
          { id: missing, status: 404, type: 'resource-not-found', detail: 'no such video' },
          { id: first.id, status: 204 },
        ],
      });
      for (const gone of [first, second]) {
        expect((await getVideo(server(), admin.session, gone.id)).statusCode).toBe(404);
        expect((await media(gone.url)).statusCode).toBe(404);
        expect(await storage.list(gone.asset)).toEqual([]);
        const upload = await server().db.kysely.selectFrom('uploads').select('asset_id').where('asset_id', '=', gone.asset).executeTakeFirst();
        expect(upload).toBeUndefined();
        expect((await auditOf(gone.id)).map((e) => [e.action, e.actorNombre, e.after, (e.before as { idExterno: string }).idExterno])).toEqual([['video.deleted', 'gestora', null, gone.asset]]);
      }
      expect((await media(kept.url)).statusCode).toBe(200);
      expect((await getVideo(server(), ana.session, kept.id)).statusCode).toBe(200);
    });

    it('is for administrators only: 403 unauthorized-role, nothing deleted', async () => {
      const one = await videoWithFiles('No lo borra un usuario');
      const res = await remove(ana.session, String(one.id));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ type: 'unauthorized-role' });
      expect((await media(one.url)).statusCode).toBe(200);
    });

    it.each([
      ['an id twice', (id: number) => `${id},${id}`],
      ['an id past the range', (id: number) => `${id},2147483648`],
      ['101 ids', (id: number) => [id, ...Array.from({ length: 100 }, (_, i) => 1_000_000 + i)].join(',')],
      ['a list that is not ids', (id: number) => `${id},,3`],
      ['nothing', () => ''],
    ])('refuses %s with 400 validation-error naming query.ids, deleting nothing', async (_name, ids) => {
      const one = await videoWithFiles('No se borra');
      const res = await remove(admin.session, ids(one.id));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation-error', errors: [expect.objectContaining({ field: 'query.ids' })] });
      expect((await media(one.url)).statusCode).toBe(200);
    });
  });
});
