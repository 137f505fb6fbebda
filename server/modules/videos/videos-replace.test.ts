import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { call, describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { now } from '../../db/database.ts';
import { mediaTools, testVideoBytes } from '../../media/ffmpeg.ts';
import { PENDING_THUMBNAIL } from '../../media/thumbnails.ts';
import { openStorage } from '../../storage/open-storage.ts';
import type { Storage } from '../../storage/storage.ts';
import { ensureTags } from '../etiquetas/etiquetas.repository.ts';
import { insertUpload, markThumbnailPending, type NewUploadRow } from '../uploads/uploads.repository.ts';
import { replaceVideoCues } from './search-index.service.ts';
import { addVideo, assetId, createUser, getVideo, patchVideo, type LibraryUser, type Video } from './videos.test-support.ts';

type UploadSession = components['schemas']['UploadSession'];
type UploadState = components['schemas']['UploadThumbnailSession'];
type AuditEntry = components['schemas']['AuditEntry'];

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const run = promisify(execFile);
const VTT = 'WEBVTT\n\n00:00.000 --> 00:00.900\nHola a todos\n';

let LONG: Buffer;
let SHORT: Buffer;
/** A small green PNG (ffmpeg writes it to stdout). */
let GREEN: Buffer;

beforeAll(async () => {
  [LONG, SHORT, GREEN] = await Promise.all([
    testVideoBytes({ seconds: 3, pattern: 'testsrc2', toneHz: 440, width: 160, height: 96 }),
    testVideoBytes({ seconds: 1, pattern: 'smptebars', toneHz: 880, width: 160, height: 96 }),
    run(mediaTools().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=green:s=64x48', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', '-'], { encoding: 'buffer' }).then((r) => r.stdout),
  ]);
}, 120_000);

/** R-ADM-13, R-ADM-14: replacing a video's file (docs/decisions/0128-video-file-replacement.md). */
describeOnEachDatabase('videos: replacing a video\'s file (administrators)', (server: () => TestServer) => {
  let admin: LibraryUser;
  let ana: LibraryUser;
  let storage: Storage;

  beforeAll(async () => {
    admin = await createUser(server(), 'gestora', { rol: 'admin', organizacion: 'TAO' });
    ana = await createUser(server(), 'ana', { organizacion: 'Otra' });
    storage = openStorage(server().config);
  });

  /** An upload session through the API, the file sent whole, processed: its asset id. */
  async function uploaded(bytes: Buffer): Promise<string> {
    const created = await call(server().app, { method: 'POST', url: '/api/uploads', token: admin.session, payload: { video: { contentType: 'video/mp4', size: bytes.length } } });
    expect(created.statusCode, created.body).toBe(201);
    const session = created.json() as UploadSession;
    const sent = await server().app.inject({ method: 'PUT', url: session.video.uploadUrl, headers: { 'content-type': 'video/mp4' }, payload: bytes });
    expect(sent.statusCode, sent.body).toBe(204);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
      const state = (await call(server().app, { method: 'GET', url: `/api/uploads/${session.assetId}`, token: admin.session })).json() as UploadState;
      if (state.estado === 'ready') return session.assetId;
      if (state.estado === 'failed') throw new Error(`processing failed: ${state.error}`);
    }
    throw new Error('not processed within a minute');
  }

  async function videoOf(asset: string, tags: number[]): Promise<Video> {
    const res = await call(server().app, { method: 'POST', url: '/api/videos', token: admin.session, payload: { isVisible: true, titulo: 'Charla de bienvenida', descripcionCorta: 'La primera grabación', tags, idExterno: asset } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Video;
  }

  const replace = (token: string, id: number, idExterno: string) => call(server().app, { method: 'PUT', url: `/api/videos/${id}/archivo`, token, payload: { idExterno } });
  const media = (url: string, headers: Record<string, string> = {}) => server().app.inject({ method: 'GET', url, headers });
  const audit = async () => (await call(server().app, { method: 'GET', url: '/api/audit?limit=500', token: admin.session })).json() as AuditEntry[];

  it('keeps the id, texts, tags, ratings, favourites, views and subtitles; takes the new file and duration; clears positions past it; removes the old files', async () => {
    const [tag] = await ensureTags(server().db.kysely, ['Acogida'], now());
    const old = await videoOf(await uploaded(LONG), [tag!.id]);
    expect(old.duracion).toBeGreaterThan(2.5);
    // the users' own marks, a view, a subtitle track (its row and its file beside the video's)
    expect((await patchVideo(server(), ana.session, old.id, [{ path: '/puntuacion', value: 4 }, { path: '/favorito', value: true }, { path: '/posicion', value: 2.5 }])).statusCode).toBe(200);
    expect((await patchVideo(server(), admin.session, old.id, [{ path: '/posicion', value: 0.5 }])).statusCode).toBe(200);
    await storage.write(old.idExterno, 'subtitulos-es.vtt', Readable.from([Buffer.from(VTT)]));
    await server().db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('video_subtitles').values({ video_id: old.id, idioma: 'es', cue_count: 1, updated_at: now() }).execute();
      await replaceVideoCues(trx, server().db.dialect, old.id, 'es', [{ inicio: 0, fin: 0.9, texto: 'Hola a todos' }]);
    });
    const views = async () => Number((await server().db.kysely.selectFrom('view_events').select((eb) => eb.fn.countAll().as('n')).where('video_id', '=', old.id).executeTakeFirstOrThrow()).n);
    expect((await getVideo(server(), ana.session, old.id)).statusCode).toBe(200); // a view
    const viewsBefore = await views();
    expect(viewsBefore).toBe(1);

    // the new file is uploaded and processed while the old one still plays
    const asset = await uploaded(SHORT);
    expect((await media(old.urlVideo)).statusCode).toBe(200);

    const res = await replace(admin.session, old.id, asset);
    expect(res.statusCode, res.body).toBe(200);
    const video = res.json() as Video;
    expect(await views()).toBe(viewsBefore);
    expect(video).toMatchObject({ id: old.id, idExterno: asset, titulo: 'Charla de bienvenida', descripcionCorta: 'La primera grabación', puntuacionMedia: 4, etiquetas: [{ id: tag!.id, nombre: 'Acogida' }], idiomasSubtitulos: ['es'] });
    expect(video.duracion).toBeGreaterThan(0.5);
    expect(video.duracion).toBeLessThan(1.5);
    expect(video.urlThumbnail).toMatch(new RegExp(`/api/media/${asset}/thumbnail\\.jpg\\?.*&v=1$`));

    // the users keep their marks; a position past the new end is gone, one before it stays
    const seen = (await getVideo(server(), ana.session, old.id)).json() as Video;
    expect(seen).toMatchObject({ puntuacion: 4, favorito: true, posicion: null, idExterno: asset });
    expect(((await getVideo(server(), admin.session, old.id)).json() as Video).posicion).toBe(0.5);
    const subtitles = await server().db.kysely.selectFrom('video_subtitles').select(['idioma', 'cue_count']).where('video_id', '=', old.id).execute();
    expect(subtitles).toEqual([{ idioma: 'es', cue_count: 1 }]);
    const copied = await storage.open(asset, 'subtitulos-es.vtt');
    expect(copied?.size).toBe(Buffer.byteLength(VTT));
    await copied?.close();

    // the new file plays, by ranges; the old files and upload session are gone
    const played = await media(video.urlVideo, { range: 'bytes=0-99' });
    expect(played.statusCode).toBe(206);
    expect(played.headers['content-range']).toBe(`bytes 0-99/${(await storage.stat(asset, 'video.mp4'))!.size}`);
    expect(played.rawPayload.length).toBe(100);
    expect((await media(old.urlVideo)).statusCode).toBe(404);
    expect(await storage.list(old.idExterno)).toEqual([]);
    expect(await server().db.kysely.selectFrom('uploads').select('asset_id').where('asset_id', '=', old.idExterno).executeTakeFirst()).toBeUndefined();

    // audited, with the asset and the duration before and after
    const entry = (await audit()).find((e) => e.action === 'video.file-replaced' && e.subjectId === String(old.id));
    expect(entry).toMatchObject({ actorNombre: 'gestora', before: { idExterno: old.idExterno, duracion: old.duracion }, after: { idExterno: asset, duracion: video.duracion }, detail: 'Charla de bienvenida' });

    // the new upload's HLS stage lands on the video (it finds it by asset id)
    let hls: string | null = null;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline && !hls; await sleep(200)) hls = ((await getVideo(server(), admin.session, old.id)).json() as Video).urlHls;
    expect(hls).toMatch(new RegExp(`/api/media/${asset}/s/`));
    expect((await media(hls!)).statusCode).toBe(200);
  }, 120_000);

  /** An upload session row in a given state (no file: the refusals come before any is read). */
  async function uploadRow(row: Partial<NewUploadRow>): Promise<string> {
    const asset = assetId();
    await insertUpload(server().db.kysely, { asset_id: asset, created_at: now(), expires_at: new Date(Date.now() + 3600_000).toISOString(), video_state: 'ready', duracion: 5, updated_at: now(), ...row });
    return asset;
  }

  it('adopts a thumbnail uploaded to the new session as the video\'s thumbnail, at a new location', async () => {
    const id = await addVideo(server(), { titulo: 'Con portada nueva', hasThumbnail: false });
    const asset = await uploadRow({});
    await storage.write(asset, PENDING_THUMBNAIL, Readable.from([GREEN]));
    await markThumbnailPending(server().db.kysely, asset, now(), new Date(Date.now() + 3600_000).toISOString());
    const res = await replace(admin.session, id, asset);
    expect(res.statusCode, res.body).toBe(200);
    const thumbnail = await media((res.json() as Video).urlThumbnail!);
    expect(thumbnail.statusCode).toBe(200);
    expect([...thumbnail.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]); // converted to JPEG
    expect(await server().db.kysely.selectFrom('uploads').select('thumbnail_pending').where('asset_id', '=', asset).executeTakeFirstOrThrow()).toEqual({ thumbnail_pending: 0 });
  });

  it('refuses an asset that is not usable: another video\'s or its own 409, not complete or processing 409, failed 422, unknown 404; an unknown video 404; a user 403; nothing changes', async () => {
    const id = await addVideo(server(), { titulo: 'Sin cambios', duracion: 42 });
    const other = ((await getVideo(server(), admin.session, await addVideo(server(), { titulo: 'Otro' }))).json() as Video).idExterno;
    const own = ((await getVideo(server(), admin.session, id)).json() as Video).idExterno;
    const ready = await uploadRow({});
    const expectProblem = async (token: string, videoId: number, asset: string, status: number, type: string) => {
      const res = await replace(token, videoId, asset);
      expect(res.statusCode, `${asset}: ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ type, status });
    };
    await expectProblem(admin.session, id, other, 409, 'conflict');
    await expectProblem(admin.session, id, own, 409, 'conflict');
    await expectProblem(admin.session, id, await uploadRow({ video_state: 'pending', duracion: null }), 409, 'conflict');
    await expectProblem(admin.session, id, await uploadRow({ video_state: 'receiving', duracion: null }), 409, 'conflict');
    await expectProblem(admin.session, id, await uploadRow({ video_state: 'processing', duracion: null }), 409, 'conflict');
    await expectProblem(admin.session, id, await uploadRow({ video_state: 'failed', duracion: null, error: 'no es un video' }), 422, 'invalid-media');
    await expectProblem(admin.session, id, assetId(), 404, 'resource-not-found');
    await expectProblem(admin.session, 987_654, ready, 404, 'resource-not-found');
    await expectProblem(ana.session, id, ready, 403, 'unauthorized-role');
    expect((await getVideo(server(), admin.session, id)).json()).toMatchObject({ idExterno: own, duracion: 42 });
    expect((await audit()).filter((e) => e.action === 'video.file-replaced' && e.subjectId === String(id))).toEqual([]);
    // the ready one is still free to be used
    const res = await replace(admin.session, id, ready);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, idExterno: ready, duracion: 5 });
  });
});
