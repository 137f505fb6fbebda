import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import type { AppContext } from '../../context.ts';
import { now } from '../../db/database.ts';
import { mediaTools } from '../../media/ffmpeg.ts';
import { PENDING_THUMBNAIL } from '../../media/thumbnails.ts';
import { openStorage } from '../../storage/open-storage.ts';
import type { Storage } from '../../storage/storage.ts';
import { ensureTags } from '../etiquetas/etiquetas.repository.ts';
import { insertUpload, markThumbnailPending, type NewUploadRow } from '../uploads/uploads.repository.ts';
import { deleteVideo } from './videos-manage.service.ts';
import { addVideo, assetId, createUser, getVideo, list, patchVideo, titles, type LibraryUser, type Video } from './videos.test-support.ts';

const run = promisify(execFile);

/** A small real image (PNG or anything ffmpeg writes by extension) of one colour. */
async function makeImage(dir: string, color: string, extension = 'png'): Promise<Buffer> {
  const out = path.join(dir, `${color}.${extension}`);
  await run(mediaTools().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${color}:s=64x48`, '-frames:v', '1', out]);
  return fs.promises.readFile(out);
}

const isJpeg = (bytes: Buffer) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

describeOnEachDatabase('videos: creating, changing and deleting them (administrators)', (server: () => TestServer) => {
  let admin: LibraryUser;
  let ana: LibraryUser;
  let tagIds: number[];
  let storage: Storage;
  let imageDir: string;
  let red: Buffer;
  let blue: Buffer;

  beforeAll(async () => {
    admin = await createUser(server(), 'gestora', { rol: 'admin', organizacion: 'TAO' });
    await server().db.kysely.updateTable('users').set({ nombre: 'Gestora Principal' }).where('id', '=', admin.id).execute();
    ana = await createUser(server(), 'ana', { organizacion: 'Otra' });
    const tags = await ensureTags(server().db.kysely, ['Formación', 'Acogida'], now());
    tagIds = tags.map((t) => t.id);
    storage = openStorage(server().config);
    imageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-manage-'));
    [red, blue] = await Promise.all([makeImage(imageDir, 'red'), makeImage(imageDir, 'blue')]);
  });

  afterAll(() => {
    fs.rmSync(imageDir, { recursive: true, force: true });
  });

  /** An upload session row (ready by default) and the files processing would have left, written through the storage. */
  async function addUpload(row: Partial<NewUploadRow> = {}, files: Record<string, Buffer> = {}): Promise<string> {
    const asset = assetId();
    const at = now();
    await insertUpload(server().db.kysely, {
      asset_id: asset,
      created_by: admin.id,
      created_at: at,
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
      video_state: 'ready',
      video_content_type: 'video/mp4',
      video_size: 1000,
      duracion: 12.5,
      has_thumbnail: 0,
      has_preview: 0,
      updated_at: at,
      ...row,
    });
    for (const [file, bytes] of Object.entries(files)) await storage.write(asset, file, Readable.from([bytes]));
    return asset;
  }

  /** A thumbnail uploaded to the asset's thumbnail location, waiting to be adopted. */
  async function uploadThumbnail(asset: string, bytes: Buffer): Promise<void> {
    await storage.write(asset, PENDING_THUMBNAIL, Readable.from([bytes]));
    await markThumbnailPending(server().db.kysely, asset, now(), new Date(Date.now() + 3600_000).toISOString());
  }

  const create = (token: string, body: Record<string, unknown>) => call(server().app, { method: 'POST', url: '/api/videos', token, payload: body });
  const remove = (token: string, id: number) => call(server().app, { method: 'DELETE', url: `/api/videos/${id}`, token });
  const media = (url: string) => server().app.inject({ method: 'GET', url });
  const countVideos = async () => Number((await server().db.kysely.selectFrom('videos').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  const body = (asset: string, fields: Record<string, unknown> = {}) => ({
    isVisible: true,
    titulo: 'Bienvenida al equipo',
    descripcionCorta: 'Primeros pasos en la casa',
    tags: [],
    idExterno: asset,
    ...fields,
  });

  describe('POST /api/videos', () => {
    it('creates the video from a ready upload: 201 with its Location; author and organisation from the administrator; duration, preview and thumbnail from processing; listed at once', async () => {
      const processedThumbnail = crypto.randomBytes(500);
      const asset = await addUpload({ duracion: 93.5, has_thumbnail: 1, has_preview: 1 }, {
        'video.mp4': crypto.randomBytes(2000),
        'thumbnail.jpg': processedThumbnail,
        'preview.mp4': crypto.randomBytes(800),
      });
      expect(await titles(server(), ana.session)).not.toContain('Bienvenida al equipo'); // the list is remembered now

      const res = await create(admin.session, {
        ...body(asset, { tags: [tagIds[0]], descripcion: '  Texto *largo*  ' }),
        nombreUsuarioAlta: 'Alguien que no es',
      });
      expect(res.statusCode, res.body).toBe(201);
      const video = res.json() as Video;
      expect(res.headers.location).toBe(`/api/videos/${video.id}`);
      expect(video).toMatchObject({
        idExterno: asset,
        titulo: 'Bienvenida al equipo',
        descripcionCorta: 'Primeros pasos en la casa',
        descripcion: 'Texto *largo*',
        duracion: 93.5,
        puntuacionMedia: 0,
        isVisible: true,
        nombreUsuarioAlta: 'Gestora Principal',
        organizacionId: 'TAO',
        etiquetas: [{ id: tagIds[0], nombre: 'Formación' }],
      });
      expect(video.urlThumbnail).toMatch(/\/thumbnail\.jpg\?expires=\d+&signature=[\w-]{43}$/); // no version yet
      expect((await media(video.urlThumbnail!)).rawPayload.equals(processedThumbnail)).toBe(true);
      expect((await media(video.urlPreview!)).statusCode).toBe(200);

      expect(await titles(server(), ana.session)).toContain('Bienvenida al equipo');
      expect(await titles(server(), ana.session, { q: 'bienvenida equipo' })).toEqual(['Bienvenida al equipo']);
      expect((await getVideo(server(), ana.session, video.id)).json()).toMatchObject({ id: video.id, nombreUsuarioAlta: 'Gestora Principal' });
    });

    it('without thumbnail or preview from processing the video has none; not visible to all is seen by the administrator’s organisation only', async () => {
      const asset = await addUpload({ duracion: null });
      const res = await create(admin.session, body(asset, { titulo: 'Solo para TAO', isVisible: false }));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ urlThumbnail: null, urlPreview: null, duracion: 0, isVisible: false, descripcion: null });
      const tao = await createUser(server(), 'taoista', { organizacion: 'TAO' });
      expect(await titles(server(), tao.session)).toContain('Solo para TAO');
      expect(await titles(server(), ana.session)).not.toContain('Solo para TAO');
    });

    describe('checks the texts as R-ADM-2 says (trimmed; blank is empty)', () => {
      const accepted: Array<[string, Record<string, unknown>, Partial<Video>]> = [
        ['titulo of 3', { titulo: 'abc' }, { titulo: 'abc' }],
        ['titulo of 100', { titulo: 't'.repeat(100) }, { titulo: 't'.repeat(100) }],
        ['titulo of 100 with spaces around', { titulo: `  ${'t'.repeat(100)}\n ` }, { titulo: 't'.repeat(100) }],
        ['titulo of 100 characters outside the BMP', { titulo: '🎬'.repeat(100) }, { titulo: '🎬'.repeat(100) }],
        ['descripcionCorta of 3', { descripcionCorta: 'abc' }, { descripcionCorta: 'abc' }],
        ['descripcionCorta of 255', { descripcionCorta: 'c'.repeat(255) }, { descripcionCorta: 'c'.repeat(255) }],
        ['descripcionCorta padded', { descripcionCorta: '\t  corta  ' }, { descripcionCorta: 'corta' }],
        ['descripcion of 3', { descripcion: 'abc' }, { descripcion: 'abc' }],
        ['descripcion of 1024', { descripcion: 'd'.repeat(1024) }, { descripcion: 'd'.repeat(1024) }],
        ['descripcion of 1024 with a line break after', { descripcion: `${'d'.repeat(1024)}\n` }, { descripcion: 'd'.repeat(1024) }],
        ['descripcion empty', { descripcion: '' }, { descripcion: null }],
        ['descripcion only spaces', { descripcion: '   \n ' }, { descripcion: null }],
        ['descripcion null', { descripcion: null }, { descripcion: null }],
        ['descripcion left out', {}, { descripcion: null }],
      ];
      it.each(accepted)('accepts %s', async (_name, fields, expected) => {
        const res = await create(admin.session, body(await addUpload(), fields));
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject(expected);
      });

      const refused: Array<[string, Record<string, unknown>, string]> = [
        ['titulo of 2', { titulo: 'ab' }, 'body.titulo'],
        ['titulo of 2 with spaces around (5 in all)', { titulo: ' ab  ' }, 'body.titulo'],
        ['titulo of 101', { titulo: 't'.repeat(101) }, 'body.titulo'],
        ['titulo of 101 characters outside the BMP', { titulo: '🎬'.repeat(101) }, 'body.titulo'],
        ['titulo empty', { titulo: '' }, 'body.titulo'],
        ['titulo only spaces', { titulo: '     ' }, 'body.titulo'],
        ['titulo missing', { titulo: undefined }, 'body.titulo'],
        ['descripcionCorta of 2', { descripcionCorta: 'ab' }, 'body.descripcionCorta'],
        ['descripcionCorta of 256', { descripcionCorta: 'c'.repeat(256) }, 'body.descripcionCorta'],
        ['descripcionCorta only spaces', { descripcionCorta: ' \t\n ' }, 'body.descripcionCorta'],
        ['descripcion of 2', { descripcion: 'ab' }, 'body.descripcion'],
        ['descripcion of 2 with spaces around', { descripcion: '  ab  ' }, 'body.descripcion'],
        ['descripcion of 1025', { descripcion: 'd'.repeat(1025) }, 'body.descripcion'],
      ];
      it.each(refused)('refuses %s with 400 validation-error naming the field, creating nothing', async (_name, fields, field) => {
        const asset = await addUpload();
        const before = await countVideos();
        const res = await create(admin.session, body(asset, fields));
        expect(res.statusCode, res.body).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.json()).toMatchObject({ type: 'validation-error', status: 400 });
        expect(res.json().errors).toContainEqual({ field, message: expect.any(String) });
        expect(await countVideos()).toBe(before);
        // the asset is still free
        expect((await create(admin.session, body(asset))).statusCode).toBe(201);
      });
    });

    it('takes tags by id; an unknown id is 400 validation-error naming it', async () => {
      const asset = await addUpload();
      const refused = await create(admin.session, body(asset, { tags: [tagIds[0], 987_654] }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'body.tags', message: expect.stringContaining('987654') }] });
      const res = await create(admin.session, body(asset, { tags: tagIds }));
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json() as Video).etiquetas.map((t) => t.nombre)).toEqual(['Acogida', 'Formación']);
    });

    it('needs an upload whose video is ready: unknown 404, not complete or processing 409, failed 422, already used 409', async () => {
      const before = await countVideos();
      const expectProblem = async (asset: string, status: number, type: string) => {
        const res = await create(admin.session, body(asset));
        expect(res.statusCode, `${asset}: ${res.body}`).toBe(status);
        expect(res.json()).toMatchObject({ type, status });
      };
      await expectProblem(assetId(), 404, 'resource-not-found');
      await expectProblem(await addUpload({ video_state: 'pending', duracion: null }), 409, 'conflict');
      await expectProblem(await addUpload({ video_state: 'receiving', duracion: null }), 409, 'conflict');
      await expectProblem(await addUpload({ video_state: 'processing', duracion: null }), 409, 'conflict');
      await expectProblem(await addUpload({ video_state: 'failed', duracion: null, error: 'no es un video' }), 422, 'invalid-media');
      expect(await countVideos()).toBe(before);

      const used = await addUpload();
      expect((await create(admin.session, body(used))).statusCode).toBe(201);
      await expectProblem(used, 409, 'conflict');
      // an asset of a video made without an upload session (the demo's)
      const demo = await addVideo(server(), { titulo: 'Demo' });
      const demoAsset = (await getVideo(server(), admin.session, demo)).json().idExterno as string;
      await expectProblem(demoAsset, 409, 'conflict');
      expect(await countVideos()).toBe(before + 2);
    });

    it('of two concurrent creations from one asset, one is created and the other is 409', async () => {
      const asset = await addUpload();
      const answers = await Promise.all([create(admin.session, body(asset)), create(admin.session, body(asset, { titulo: 'Otra vez' }))]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const rows = await server().db.kysely.selectFrom('videos').select('id').where('id_externo', '=', asset).execute();
      expect(rows).toHaveLength(1);
    });

    it('adopts a thumbnail uploaded to the session’s thumbnail location instead of the processed one', async () => {
      const processed = crypto.randomBytes(300);
      const asset = await addUpload({ has_thumbnail: 1 }, { 'thumbnail.jpg': processed });
      await uploadThumbnail(asset, red);
      const res = await create(admin.session, body(asset, { titulo: 'Con miniatura propia' }));
      expect(res.statusCode, res.body).toBe(201);
      const served = await media((res.json() as Video).urlThumbnail!);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(isJpeg(served.rawPayload)).toBe(true);
      expect(served.rawPayload.equals(processed)).toBe(false);
      expect(await storage.list(asset)).not.toContain(PENDING_THUMBNAIL);
      const upload = await server().db.kysely.selectFrom('uploads').select('thumbnail_pending').where('asset_id', '=', asset).executeTakeFirstOrThrow();
      expect(upload.thumbnail_pending).toBe(0);
    });

    it('a thumbnail upload without processed one gives the video its thumbnail', async () => {
      const asset = await addUpload({ has_thumbnail: 0 });
      await uploadThumbnail(asset, blue);
      const res = await create(admin.session, body(asset, { titulo: 'Solo la subida' }));
      expect(res.statusCode, res.body).toBe(201);
      expect(isJpeg((await media((res.json() as Video).urlThumbnail!)).rawPayload)).toBe(true);
    });

    it('refuses an uploaded thumbnail that is not an image with 422 invalid-media, creating nothing', async () => {
      const asset = await addUpload();
      await uploadThumbnail(asset, Buffer.from('\x89PNG\r\n\x1a\n but not really an image'));
      const before = await countVideos();
      const res = await create(admin.session, body(asset));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ type: 'invalid-media', title: 'Unprocessable Content', status: 422 });
      expect(await countVideos()).toBe(before);
    });
  });

  describe('PATCH /api/videos/{id}', () => {
    let videoId: number;
    let asset: string;

    beforeAll(async () => {
      asset = await addUpload({ has_thumbnail: 1 }, { 'thumbnail.jpg': crypto.randomBytes(400) });
      const res = await create(admin.session, body(asset, { titulo: 'Para editar' }));
      videoId = (res.json() as Video).id;
    });

    it('/thumbnail adopts the uploaded picture: urlThumbnail carries the new version, in the detail and in lists, and serves the new bytes', async () => {
      const before = (await getVideo(server(), admin.session, videoId)).json() as Video;
      const oldBytes = (await media(before.urlThumbnail!)).rawPayload;
      expect(await titles(server(), admin.session)).toContain('Para editar'); // the list is remembered now

      await uploadThumbnail(asset, red);
      let res = await patchVideo(server(), admin.session, videoId, [{ path: '/thumbnail', value: true }]);
      expect(res.statusCode, res.body).toBe(200);
      const first = res.json() as Video;
      expect(first.urlThumbnail).toBe(`${before.urlThumbnail}&v=1`);
      const served = await media(first.urlThumbnail!);
      expect(served.statusCode).toBe(200);
      expect(isJpeg(served.rawPayload)).toBe(true);
      expect(served.rawPayload.equals(oldBytes)).toBe(false);
      const listed = (await list(server(), admin.session)).json() as Video[];
      expect(listed.find((v) => v.id === videoId)?.urlThumbnail).toBe(first.urlThumbnail);

      await uploadThumbnail(asset, blue);
      res = await patchVideo(server(), admin.session, videoId, [{ path: '/thumbnail', value: true }, { path: '/titulo', value: 'Editado' }]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ titulo: 'Editado', urlThumbnail: `${before.urlThumbnail}&v=2` });
      const again = (await media((res.json() as Video).urlThumbnail!)).rawPayload;
      expect(again.equals(served.rawPayload)).toBe(false);
      expect((await getVideo(server(), ana.session, videoId)).json()).toMatchObject({ urlThumbnail: `${before.urlThumbnail}&v=2` });
    });

    it('/thumbnail without an uploaded picture is 409 conflict', async () => {
      const res = await patchVideo(server(), admin.session, videoId, [{ path: '/thumbnail', value: true }]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ type: 'conflict' });
      const demo = await addVideo(server(), { titulo: 'Sin sesión de subida' });
      expect((await patchVideo(server(), admin.session, demo, [{ path: '/thumbnail', value: true }])).statusCode).toBe(409);
    });

    it('/thumbnail only takes true', async () => {
      const res = await patchVideo(server(), admin.session, videoId, [{ path: '/thumbnail', value: false }]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation-error' });
    });

    it('a refused patch with /thumbnail converts nothing and keeps the version', async () => {
      const before = (await getVideo(server(), admin.session, videoId)).json() as Video;
      await uploadThumbnail(asset, red);
      const res = await patchVideo(server(), admin.session, videoId, [{ path: '/thumbnail', value: true }, { path: '/etiquetas', value: [987_654] }]);
      expect(res.statusCode).toBe(400);
      expect(await storage.list(asset)).toContain(PENDING_THUMBNAIL);
      expect(((await getVideo(server(), admin.session, videoId)).json() as Video).urlThumbnail).toBe(before.urlThumbnail);
      // still waiting: the next patch adopts it
      expect((await patchVideo(server(), admin.session, videoId, [{ path: '/thumbnail', value: true }])).statusCode).toBe(200);
    });

    it('/thumbnail of a picture that is not an image is 422 invalid-media, and the thumbnail stays', async () => {
      const before = (await getVideo(server(), admin.session, videoId)).json() as Video;
      await uploadThumbnail(asset, Buffer.from('GIF89a not an image at all'));
      const res = await patchVideo(server(), admin.session, videoId, [{ path: '/thumbnail', value: true }]);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ type: 'invalid-media' });
      expect(((await getVideo(server(), admin.session, videoId)).json() as Video).urlThumbnail).toBe(before.urlThumbnail);
      expect((await media(before.urlThumbnail!)).statusCode).toBe(200);
    });

    describe('the administrators’ texts reach the R-ADM-2 boundaries', () => {
      const accepted: Array<[string, string | null, Partial<Video>]> = [
        ['/titulo', 'abc', { titulo: 'abc' }],
        ['/titulo', 't'.repeat(100), { titulo: 't'.repeat(100) }],
        ['/titulo', ` ${'t'.repeat(100)} `, { titulo: 't'.repeat(100) }],
        ['/shortDescription', 'abc', { descripcionCorta: 'abc' }],
        ['/shortDescription', 'c'.repeat(255), { descripcionCorta: 'c'.repeat(255) }],
        ['/shortDescription', `\n${'c'.repeat(255)}\n`, { descripcionCorta: 'c'.repeat(255) }],
        ['/descripcion', 'abc', { descripcion: 'abc' }],
        ['/descripcion', 'd'.repeat(1024), { descripcion: 'd'.repeat(1024) }],
        ['/descripcion', `  ${'d'.repeat(1024)}  `, { descripcion: 'd'.repeat(1024) }],
        ['/descripcion', '   ', { descripcion: null }],
        ['/descripcion', null, { descripcion: null }],
      ];
      it.each(accepted)('%s %j is accepted', async (p, value, expected) => {
        const res = await patchVideo(server(), admin.session, videoId, [{ path: p, value }]);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject(expected);
      });

      const refused: Array<[string, string]> = [
        ['/titulo', 'ab'],
        ['/titulo', 't'.repeat(101)],
        ['/titulo', '      '],
        ['/shortDescription', 'ab'],
        ['/shortDescription', 'c'.repeat(256)],
        ['/shortDescription', '   '],
        ['/descripcion', 'ab'],
        ['/descripcion', ' ab '],
        ['/descripcion', 'd'.repeat(1025)],
      ];
      it.each(refused)('%s %j is 400 validation-error naming body.0.value', async (p, value) => {
        const res = await patchVideo(server(), admin.session, videoId, [{ path: p, value }]);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'body.0.value', message: expect.any(String) }] });
      });
    });
  });

  describe('DELETE /api/videos/{id}', () => {
    it('deletes the video with its tags, the users’ state, views and upload row, then its files: its media locations answer 404', async () => {
      const asset = await addUpload({ has_thumbnail: 1, has_preview: 1 }, {
        'video.mp4': crypto.randomBytes(1000),
        'thumbnail.jpg': crypto.randomBytes(100),
        'preview.mp4': crypto.randomBytes(200),
      });
      const created = await create(admin.session, body(asset, { titulo: 'Para borrar', tags: tagIds }));
      const video = created.json() as Video;
      // ratings, favourites, seen marks, positions and views of it
      expect((await getVideo(server(), ana.session, video.id)).statusCode).toBe(200);
      expect((await patchVideo(server(), ana.session, video.id, [{ path: '/puntuacion', value: 4 }, { path: '/favorito', value: true }, { path: '/posicion', value: 3 }])).statusCode).toBe(200);
      expect(await titles(server(), ana.session)).toContain('Para borrar'); // remembered by the list
      const rowsOf = async () => {
        const db = server().db.kysely;
        const [videos, tags, states, views, uploads] = await Promise.all([
          db.selectFrom('videos').select('id').where('id', '=', video.id).execute(),
          db.selectFrom('video_tags').select('tag_id').where('video_id', '=', video.id).execute(),
          db.selectFrom('video_user_states').select('user_id').where('video_id', '=', video.id).execute(),
          db.selectFrom('view_events').select('id').where('video_id', '=', video.id).execute(),
          db.selectFrom('uploads').select('asset_id').where('asset_id', '=', asset).execute(),
        ]);
        return { videos: videos.length, tags: tags.length, states: states.length, views: views.length, uploads: uploads.length };
      };
      expect(await rowsOf()).toEqual({ videos: 1, tags: 2, states: 1, views: 1, uploads: 1 });

      const res = await remove(admin.session, video.id);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      expect(await rowsOf()).toEqual({ videos: 0, tags: 0, states: 0, views: 0, uploads: 0 });
      expect(await storage.list(asset)).toEqual([]);
      for (const url of [video.urlVideo, video.urlThumbnail!, video.urlPreview!]) {
        const served = await media(url);
        expect(served.statusCode, url).toBe(404);
        expect(served.json()).toMatchObject({ type: 'resource-not-found' });
      }
      expect((await getVideo(server(), admin.session, video.id)).statusCode).toBe(404);
      expect(await titles(server(), ana.session)).not.toContain('Para borrar');
      expect(await titles(server(), admin.session, { q: 'borrar' })).toEqual([]);
      expect((await remove(admin.session, video.id)).statusCode).toBe(404);
    });

    it('deletes a video made without an upload session (the demo’s)', async () => {
      const id = await addVideo(server(), { titulo: 'Demo para borrar' });
      expect((await remove(admin.session, id)).statusCode).toBe(204);
      expect((await getVideo(server(), admin.session, id)).statusCode).toBe(404);
    });

    it('an unknown video is 404 resource-not-found', async () => {
      const res = await remove(admin.session, 987_654);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ type: 'resource-not-found' });
    });

    it('when the files cannot be deleted, the video is deleted all the same and the failure is logged', async () => {
      const asset = await addUpload({}, { 'video.mp4': crypto.randomBytes(100) });
      const { id } = (await create(admin.session, body(asset, { titulo: 'Archivos rebeldes' }))).json() as Video;
      const failing: Storage = { ...storage, deleteAsset: () => Promise.reject(new Error('disk says no')) };
      const warn = vi.fn();
      const ctx = { ...server().app.ctx, log: { warn } as unknown as AppContext['log'] };
      await deleteVideo(ctx, failing, id);
      expect((await getVideo(server(), admin.session, id)).statusCode).toBe(404);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ assetId: asset, videoId: id }), expect.any(String));
      expect(await storage.list(asset)).toEqual(['video.mp4']); // left for a later sweep
    });
  });

  describe('users are not administrators', () => {
    it('403 unauthorized-role for creating, the administrators’ changes and deleting; nothing changes', async () => {
      const asset = await addUpload();
      let res = await create(ana.session, body(asset));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ type: 'unauthorized-role' });

      const { id } = (await create(admin.session, body(asset, { titulo: 'Intocable' }))).json() as Video;
      await uploadThumbnail(asset, red);
      for (const op of [
        { path: '/titulo', value: 'Cambiado' },
        { path: '/shortDescription', value: 'Cambiado' },
        { path: '/descripcion', value: 'Cambiado' },
        { path: '/isVisible', value: false },
        { path: '/etiquetas', value: [] },
        { path: '/thumbnail', value: true },
      ]) {
        res = await patchVideo(server(), ana.session, id, [op]);
        expect(res.statusCode, op.path).toBe(403);
        expect(res.json()).toMatchObject({ type: 'unauthorized-role' });
      }
      res = await remove(ana.session, id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ type: 'unauthorized-role' });

      const video = (await getVideo(server(), ana.session, id)).json() as Video;
      expect(video).toMatchObject({ titulo: 'Intocable', isVisible: true });
      expect(video.urlThumbnail).toBeNull();
      expect(await storage.list(asset)).toContain(PENDING_THUMBNAIL);
      // their own fields stay open to them
      expect((await patchVideo(server(), ana.session, id, [{ path: '/favorito', value: true }])).statusCode).toBe(200);
    });
  });

  describe('GET /api/media/{id}/{file} and the v parameter', () => {
    it('accepts and ignores v; refuses a v that is not a whole number', async () => {
      const asset = await addUpload({ has_thumbnail: 1 }, { 'thumbnail.jpg': Buffer.from('jpeg bytes') });
      const { urlThumbnail } = (await create(admin.session, body(asset, { titulo: 'Versiones' }))).json() as Video;
      expect((await media(`${urlThumbnail}&v=7`)).rawPayload.toString()).toBe('jpeg bytes');
      for (const v of ['-1', 'x', '1.5']) expect((await media(`${urlThumbnail}&v=${v}`)).statusCode, v).toBe(400);
    });
  });
});
