import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { call, describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { now } from '../../db/database.ts';
import { ensureTags } from '../etiquetas/etiquetas.repository.ts';
import { insertUpload } from '../uploads/uploads.repository.ts';
import { assetId, createUser, patchVideo, type LibraryUser, type Video } from '../videos/videos.test-support.ts';
import { describeChange, formatAuditLog } from './audit.cli.ts';
import { recordAudit } from './audit.repository.ts';

type AuditEntry = components['schemas']['AuditEntry'];

/** The audit rows, oldest first, as the list operation answers them. */
async function allEntries(server: TestServer, admin: LibraryUser): Promise<AuditEntry[]> {
  const res = await call(server.app, { method: 'GET', url: '/api/audit?limit=500', token: admin.session });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as AuditEntry[]).reverse();
}

describeOnEachDatabase('audit: videos created, edited and deleted are recorded in their transaction', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser;
  let tagIds: number[];

  beforeAll(async () => {
    admin = await createUser(server(), 'gestora', { rol: 'admin' });
    ana = await createUser(server(), 'ana');
    tagIds = (await ensureTags(server().db.kysely, ['Formación', 'Acogida'], now())).map((t) => t.id);
  });

  /** A processed upload, ready to become a video. */
  async function readyUpload(): Promise<string> {
    const asset = assetId();
    const at = now();
    await insertUpload(server().db.kysely, {
      asset_id: asset, created_by: admin.id, created_at: at, expires_at: new Date(Date.now() + 3600_000).toISOString(),
      video_state: 'ready', video_content_type: 'video/mp4', video_size: 1000, duracion: 10, updated_at: at,
    });
    return asset;
  }

  const createVideo = (body: Record<string, unknown>) => call(server().app, { method: 'POST', url: '/api/videos', token: admin.session, payload: body });

  it('records a creation with its fields, an edit with the changed fields before and after, a deletion with what was deleted', async () => {
    const asset = await readyUpload();
    const created = await createVideo({ idExterno: asset, titulo: 'Bienvenida', descripcionCorta: 'Primer día', tags: [tagIds[0]], isVisible: true });
    expect(created.statusCode, created.body).toBe(201);
    const video = created.json() as Video;

    const edited = await patchVideo(server(), admin.session, video.id, [
      { path: '/titulo', value: 'Bienvenida 2027' },
      { path: '/descripcion', value: null }, // unchanged (none before): not recorded
      { path: '/etiquetas', value: [tagIds[1], tagIds[0]] },
      { path: '/isVisible', value: false },
    ]);
    expect(edited.statusCode, edited.body).toBe(200);
    const removed = await call(server().app, { method: 'DELETE', url: `/api/videos/${video.id}`, token: admin.session });
    expect(removed.statusCode).toBe(204);

    const entries = (await allEntries(server(), admin)).filter((e) => e.subjectType === 'video' && e.subjectId === String(video.id));
    expect(entries.map((e) => e.action)).toEqual(['video.created', 'video.edited', 'video.deleted']);
    const [creation, edit, deletion] = entries;
    expect(creation).toMatchObject({
      actorId: admin.id, actorNombre: 'gestora', before: null,
      after: { idExterno: asset, titulo: 'Bienvenida', descripcionCorta: 'Primer día', descripcion: null, isVisible: true, tags: [tagIds[0]] },
    });
    expect(edit).toMatchObject({
      actorId: admin.id, actorNombre: 'gestora',
      before: { titulo: 'Bienvenida', tags: [tagIds[0]], isVisible: true },
      after: { titulo: 'Bienvenida 2027', tags: [...tagIds].sort((a, b) => a - b), isVisible: false },
    });
    expect(Object.keys(edit!.after!).sort()).toEqual(['isVisible', 'tags', 'titulo']);
    expect(deletion).toMatchObject({
      actorId: admin.id, after: null,
      before: { idExterno: asset, titulo: 'Bienvenida 2027', isVisible: false, tags: [...tagIds].sort((a, b) => a - b) },
    });
  });

  it('records nothing for a refused change nor for a user\'s own rating, favourite or seen mark', async () => {
    const asset = await readyUpload();
    const video = (await createVideo({ idExterno: asset, titulo: 'Seguridad', descripcionCorta: 'Normas', tags: [], isVisible: true })).json() as Video;
    const count = (await allEntries(server(), admin)).length;

    expect((await patchVideo(server(), admin.session, video.id, [{ path: '/titulo', value: 'ab' }])).statusCode).toBe(400);
    expect((await patchVideo(server(), admin.session, video.id, [{ path: '/etiquetas', value: [999_999] }])).statusCode).toBe(400);
    expect((await patchVideo(server(), ana.session, video.id, [{ path: '/titulo', value: 'Intrusa' }])).statusCode).toBe(403);
    expect((await call(server().app, { method: 'DELETE', url: `/api/videos/${video.id}`, token: ana.session })).statusCode).toBe(403);
    expect((await createVideo({ idExterno: asset, titulo: 'Otra vez', descripcionCorta: 'Repetido', tags: [], isVisible: true })).statusCode).toBe(409);
    expect((await patchVideo(server(), ana.session, video.id, [{ path: '/puntuacion', value: 4 }, { path: '/favorito', value: true }])).statusCode).toBe(200);
    expect((await patchVideo(server(), admin.session, video.id, [{ path: '/titulo', value: 'Seguridad' }])).statusCode).toBe(200); // same title
    expect((await patchVideo(server(), admin.session, video.id, [{ path: '/etiquetas', value: [] }])).statusCode).toBe(200); // had none

    expect(await allEntries(server(), admin)).toHaveLength(count);
  });
});

describeOnEachDatabase('audit: the list operation (administrators) and the command line', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser;

  beforeAll(async () => {
    admin = await createUser(server(), 'gestora', { rol: 'admin' });
    ana = await createUser(server(), 'ana');
    const kysely = server().db.kysely;
    await recordAudit(kysely, { actor: null, action: 'user.role-changed', subjectType: 'user', subjectId: ana.id, before: { rol: 'user' }, after: { rol: 'admin' }, at: '2026-11-20T09:00:00.000Z' });
    await recordAudit(kysely, { actor: { id: admin.id, nombre: 'gestora' }, action: 'tag.created', subjectType: 'tag', subjectId: 7, after: { nombre: 'Formación' }, at: '2026-11-21T10:00:00.000Z' });
    await recordAudit(kysely, { actor: { id: admin.id, nombre: 'gestora' }, action: 'tag.renamed', subjectType: 'tag', subjectId: 7, before: { nombre: 'Formación' }, after: { nombre: 'Cursos' }, at: '2026-11-22T08:30:00.000Z' });
    await recordAudit(kysely, { actor: { id: admin.id, nombre: 'gestora' }, action: 'tag.deleted', subjectType: 'tag', subjectId: 7, before: { nombre: 'Cursos' }, detail: 'removed from 2 videos', at: '2026-11-22T12:00:00.000Z' });
  });

  const get = (query: string, token = admin.session) => call(server().app, { method: 'GET', url: `/api/audit${query}`, token });

  it('answers the changes newest first, with who, when, what and before/after', async () => {
    const res = await get('');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('4');
    const entries = res.json() as AuditEntry[];
    expect(entries.map((e) => e.action)).toEqual(['tag.deleted', 'tag.renamed', 'tag.created', 'user.role-changed']);
    expect(entries[1]).toEqual({
      id: expect.any(Number) as number, at: '2026-11-22T08:30:00.000Z', actorId: admin.id, actorNombre: 'gestora', action: 'tag.renamed',
      subjectType: 'tag', subjectId: '7', before: { nombre: 'Formación' }, after: { nombre: 'Cursos' }, detail: null,
    });
    expect(entries[3]).toMatchObject({ actorId: null, actorNombre: null, subjectId: String(ana.id) });
  });

  it('is paged: limit and offset, X-Total-Count the number of all matching', async () => {
    const first = await get('?limit=2');
    const second = await get('?limit=2&offset=2');
    const past = await get('?limit=2&offset=4');
    expect((first.json() as AuditEntry[]).map((e) => e.action)).toEqual(['tag.deleted', 'tag.renamed']);
    expect((second.json() as AuditEntry[]).map((e) => e.action)).toEqual(['tag.created', 'user.role-changed']);
    expect(past.json()).toEqual([]);
    for (const res of [first, second, past]) expect(res.headers['x-total-count']).toBe('4');
  });

  it('filters from a date (its start, UTC) or an instant on; an impossible date is a 400', async () => {
    const fromDate = await get('?since=2026-11-22');
    expect((fromDate.json() as AuditEntry[]).map((e) => e.action)).toEqual(['tag.deleted', 'tag.renamed']);
    expect(fromDate.headers['x-total-count']).toBe('2');
    const fromInstant = await get('?since=2026-11-22T09:00:00Z&limit=1');
    expect((fromInstant.json() as AuditEntry[]).map((e) => e.action)).toEqual(['tag.deleted']);
    expect(fromInstant.headers['x-total-count']).toBe('1');
    // refused by the contract's pattern or, as not a real day, by the service: named alike
    for (const since of ['2026-02-31', 'yesterday', '2026-11-22T10:00']) {
      const res = await get(`?since=${encodeURIComponent(since)}`);
      expect(res.statusCode, since).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'query.since' }], detail: expect.stringMatching(/^query\.since: /) as string });
    }
  });

  it('is for administrators: 403 unauthorized-role for a user, 401 without a session', async () => {
    const res = await get('', ana.session);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ type: 'unauthorized-role' });
    expect((await server().app.inject({ method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
  });

  describe('npm run cli -- audit', () => {
    it('prints every change oldest first: when, who ((cli) for the command line), what, subject, before → after', async () => {
      const lines = (await formatAuditLog(server().app.ctx)).split('\n');
      expect(lines[0]).toMatch(/^at\s+actor\s+action\s+subject\s+change$/);
      expect(lines.slice(2)).toEqual([
        expect.stringMatching(/^2026-11-20T09:00:00\.000Z\s+\(cli\)\s+user\.role-changed\s+user \d+\s+rol: "user" → "admin"$/),
        expect.stringMatching(/^2026-11-21T10:00:00\.000Z\s+gestora\s+tag\.created\s+tag 7\s+nombre: "Formación"$/),
        expect.stringMatching(/^2026-11-22T08:30:00\.000Z\s+gestora\s+tag\.renamed\s+tag 7\s+nombre: "Formación" → "Cursos"$/),
        expect.stringMatching(/^2026-11-22T12:00:00\.000Z\s+gestora\s+tag\.deleted\s+tag 7\s+nombre: "Cursos" → \(gone\) — removed from 2 videos$/),
      ]);
    });

    it('--since keeps the changes from that date on; a wrong date is refused', async () => {
      const out = await formatAuditLog(server().app.ctx, { since: '2026-11-22' });
      expect(out.split('\n').slice(2).map((l) => l.split(/\s{2,}/)[2])).toEqual(['tag.renamed', 'tag.deleted']);
      expect(await formatAuditLog(server().app.ctx, { since: '2030-01-01' })).toBe('No changes recorded since 2030-01-01T00:00:00.000Z.');
      await expect(formatAuditLog(server().app.ctx, { since: '22/11/2026' })).rejects.toThrow('--since must be a date');
    });
  });
});

describe('describeChange', () => {
  it('shows creations, changes and deletions field by field', () => {
    expect(describeChange({ before: null, after: '{"nombre":"A b c"}' })).toBe('nombre: "A b c"');
    expect(describeChange({ before: '{"rol":"user"}', after: '{"rol":"admin"}' })).toBe('rol: "user" → "admin"');
    expect(describeChange({ before: '{"bloqueado":false}', after: null })).toBe('bloqueado: false → (gone)');
    expect(describeChange({ before: null, after: null })).toBe('');
  });
});
