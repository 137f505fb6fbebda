import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { call, describeOnEachDatabase, type TestServer } from '../../tests/utils/server-harness.ts';
import { findUserByKey } from '../modules/accounts/accounts.repository.ts';
import { sessionTokenFor } from '../modules/accounts/login.service.ts';
import { createUser, type Video } from '../modules/videos/videos.test-support.ts';
import { DEMO_USERS } from './demo-content.ts';
import { describeDemo, loadDemo, type DemoReport } from './demo.ts';

const VIDEOS = 6; // the sixth (index 5) is one of the hidden ones

describeOnEachDatabase('demo library (npm run cli -- demo)', (server: () => TestServer) => {
  let first: DemoReport;

  const ctx = () => server().app.ctx;
  const listAs = async (token: string) => {
    const res = await call(server().app, { method: 'GET', url: '/api/videos?limit=100', token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Video[];
  };
  const demoUserToken = async (name: string) => sessionTokenFor(ctx(), (await findUserByKey(server().db.kysely, name))!);

  it('makes videos, thumbnails, previews, HLS renditions and storyboards through storage, rows through the services, and users', async () => {
    first = await loadDemo(ctx(), { videos: VIDEOS, secondsOf: () => 2 });
    expect(first).toMatchObject({ videosCreated: VIDEOS, videosExisting: 0, hiddenCreated: 1, usersExisting: 0 });
    expect(first.usersCreated.map((u) => u.user)).toEqual(DEMO_USERS.map((u) => u.user));
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(first.views).toBeGreaterThan(0);
    expect(first.ratings).toBeGreaterThan(0);
    expect(first.captions).toBe(VIDEOS + 1);
    for (let i = 1; i <= VIDEOS; i++) {
      const dir = path.join(server().config.mediaDir, `demo-video-0${i}`);
      expect(fs.readdirSync(dir).sort()).toEqual([
        'hls-240p.m3u8', 'hls-240p.mp4', 'hls-360p.m3u8', 'hls-360p.mp4', 'hls-master.m3u8',
        'preview.mp4', 'storyboard.jpg', 'storyboard.vtt',
        ...(i === 1 ? ['subtitulos-en.vtt'] : []), 'subtitulos-es.vtt',
        'thumbnail-400.webp', 'thumbnail.jpg', 'thumbnail.webp', 'video.mp4',
      ]);
    }
    expect(describeDemo(first, server().config)).toContain('ana.garcia');
  }, 120_000);

  it('administrators see every video, users the visible ones and the hidden ones of their organisation; the media plays', async () => {
    const admin = await createUser(server(), 'demo-admin', { rol: 'admin' });
    const all = await listAs(admin.session);
    expect(all).toHaveLength(VIDEOS);
    const hidden = all.filter((v) => !v.isVisible);
    expect(hidden).toHaveLength(1);
    const [sameOrganisation, otherOrganisation] = hidden[0]!.organizacionId === 'Organización Sur' ? ['marta.lopez', 'ana.garcia'] : ['ana.garcia', 'marta.lopez'];
    const other = await listAs(await demoUserToken(otherOrganisation));
    expect(other).toHaveLength(VIDEOS - 1);
    expect(other.every((v) => v.isVisible)).toBe(true);
    expect(await listAs(await demoUserToken(sameOrganisation))).toHaveLength(VIDEOS);

    for (const video of all) {
      expect(video.duracion).toBeGreaterThan(1.9);
      expect(video.duracion).toBeLessThan(2.2);
      expect(video.etiquetas.length).toBeGreaterThan(0);
      expect(video.organizacionId).toMatch(/^Organización (Norte|Sur)$/);
      // the streaming route is the media module's: here, that the demo's rows offer both (R-MED-5)
      expect(video.urlHls).toMatch(/\/s\/\d+\/[A-Za-z0-9_-]{43}\/hls-master\.m3u8$/);
      expect(video.urlStoryboard).toMatch(/\/storyboard\.vtt$/);
      for (const [url, type] of [
        [video.urlVideo, 'video/mp4'],
        [video.urlPreview, 'video/mp4'],
        [video.urlThumbnail, 'image/jpeg'],
      ] as const) {
        expect(url).toBeTruthy();
        const res = await server().app.inject({ method: 'GET', url: url! });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(type);
        if (type === 'video/mp4') expect(res.rawPayload.toString('latin1', 4, 8)).toBe('ftyp');
        else expect(res.rawPayload.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]))).toBe(true);
      }
    }
    expect(all.some((v) => v.descripcion?.includes('*'))).toBe(true);
    // R-MED-15: Spanish captions on every demo video, English also on the first; played from their signed files
    const welcome = all.find((v) => v.idExterno === 'demo-video-01')!;
    expect(welcome.idiomasSubtitulos).toEqual(['en', 'es']);
    expect(all.filter((v) => v !== welcome).every((v) => v.idiomasSubtitulos.join() === 'es')).toBe(true);
    const tracks = await call(server().app, { method: 'GET', url: `/api/videos/${welcome.id}/subtitulos`, token: admin.session });
    expect((tracks.json() as Array<{ idioma: string; etiqueta: string }>).map((t) => [t.idioma, t.etiqueta])).toEqual([['en', 'Inglés'], ['es', 'Español']]);
    const spanish = await server().app.inject({ method: 'GET', url: (tracks.json() as Array<{ url: string }>)[1]!.url });
    expect(spanish.statusCode).toBe(200);
    expect(spanish.body).toMatch(/^WEBVTT\n\n00:00:00\.000 --> [\s\S]*Hola, esto es «Bienvenida a la organización»\.\n[\s\S]*terraza del tercer piso\.\n$/);
    expect(spanish.body).not.toMatch(/[*_~]/);
    expect(all.some((v) => v.puntuacionMedia > 0)).toBe(true);
    const tags = await call(server().app, { method: 'GET', url: '/api/etiquetas', token: admin.session });
    expect((tags.json() as Array<{ nombre: string }>).map((t) => t.nombre)).toEqual(expect.arrayContaining(['Bienvenida', 'Formación', 'Seguridad']));
  });

  it('demo users sign in with the printed password (the second factor comes next)', async () => {
    const res = await call(server().app, { method: 'POST', url: '/api/login', payload: { user: 'marta.lopez', password: first.password } });
    expect(res.statusCode, res.body).toBe(200);
    const wrong = await call(server().app, { method: 'POST', url: '/api/login', payload: { user: 'jorge.ruiz', password: 'not-the-password' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('is idempotent: a second run changes nothing, a larger one adds only the missing videos', async () => {
    const again = await loadDemo(ctx(), { videos: VIDEOS, secondsOf: () => 2 });
    expect(again).toMatchObject({ videosCreated: 0, videosExisting: VIDEOS, usersCreated: [], usersExisting: DEMO_USERS.length, password: undefined });
    expect(describeDemo(again, server().config)).toContain('already loaded');
    const more = await loadDemo(ctx(), { videos: VIDEOS + 1, secondsOf: () => 2 });
    expect(more).toMatchObject({ videosCreated: 1, videosExisting: VIDEOS, usersCreated: [] });
    const admin = await createUser(server(), 'demo-admin-2', { rol: 'admin' });
    expect(await listAs(admin.session)).toHaveLength(VIDEOS + 1);
  }, 60_000);
});
