import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { call, describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { PAYLOADS as corpus } from '../../../tests/e2e/xss-corpus.ts';
import type { Storage } from '../../storage/storage.ts';
import { findVideoCues } from '../videos/search-index.service.ts';
import { addVideo, assetId, createUser, getVideo, type LibraryUser } from '../videos/videos.test-support.ts';
import { isForeignKeyViolation } from '../../db/database-errors.ts';
import { insertSubtitleRow } from './subtitulos.repository.ts';
import { putSubtitles } from './subtitulos.service.ts';

type Subtitulo = components['schemas']['Subtitulo'];
type AuditEntry = components['schemas']['AuditEntry'];

/**
 * The subtitles API through the real app, on both databases (R-MED-12…15, R-ADM-5…6): every file
 * shape accepted and how it is normalised, every shape refused with the line named, the limits, who
 * may do what, the signed locations, replacing, removing, the audit log, and the XSS corpus in cue text.
 */

const SRT_CRLF = '1\r\n00:00:01,000 --> 00:00:02,500\r\nHola, <i>mundo</i>\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nSegunda línea\r\ny tercera\r\n';
const SRT_AS_VTT = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHola, <i>mundo</i>\n\n00:00:03.000 --> 00:00:04.000\nSegunda línea\ny tercera\n';

const WEBVTT_WITH_BLOCKS = [
  'WEBVTT - Charla de prueba',
  'Kind: captions',
  '',
  'STYLE',
  '::cue { color: yellow }',
  '',
  'REGION',
  'id:abajo width:40%',
  '',
  'NOTE revisado por el equipo',
  'en diciembre',
  '',
  'saludo',
  '00:01.000 --> 00:02.000 align:start line:10% region:abajo position:250% size:50%',
  '<v.alto Roger &amp; Ana>¡Hola &lt;todos&gt;!</v>',
  '',
  '00:00:03.000 --> 00:00:04.500 vertical:rl X1:40',
  'adiós',
  '',
].join('\n');
const WEBVTT_NORMALISED = [
  'WEBVTT',
  '',
  '00:00:01.000 --> 00:00:02.000 align:start line:10% size:50%',
  '<v.alto Roger &amp; Ana>¡Hola !</v>',
  '',
  '00:00:03.000 --> 00:00:04.500 vertical:rl',
  'adiós',
  '',
].join('\n');

const MARKUP = [
  'WEBVTT',
  '',
  '00:00:01.000 --> 00:00:03.000',
  '<font color="red">Rojo</font> <b onclick="x()">negrita</b> <u>sub</u> <c.amarillo.x<y>z</c>',
  '<lang en-GB>colour</lang> <ruby>漢<rt>kan</rt></ruby> <00:00:02.000>a &#233;&nbsp;b&lrm; {\\an8}<span style="x">fin</span> <i>abierta',
  '',
].join('\n');
const MARKUP_NORMALISED = [
  'WEBVTT',
  '',
  '00:00:01.000 --> 00:00:03.000',
  'Rojo <b>negrita</b> <u>sub</u> &lt;c.amarillo.xz',
  '<lang en-GB>colour</lang> <ruby>漢<rt>kan</rt></ruby> a é&nbsp;b&lrm; fin <i>abierta</i>',
  '',
].join('\n');

/** Every tag WebVTT defines, as the normalised file writes them: no attribute, classes and annotations only. */
const WEBVTT_TAG = /^<(\/(b|i|u|c|v|lang|ruby|rt)|(b|i|u|ruby|rt)(\.[A-Za-z0-9_-]+)*|c(\.[A-Za-z0-9_-]+)*|v(\.[A-Za-z0-9_-]+)* [^<>="']+|lang(\.[A-Za-z0-9_-]+)* [A-Za-z0-9-]+)>$/;

describeOnEachDatabase('subtitulos: adding, listing, replacing and removing a video\'s tracks', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser;
  let videoId: number;
  let asset: string;
  let hiddenId: number;

  beforeAll(async () => {
    admin = await createUser(server(), 'gestora', { rol: 'admin' });
    ana = await createUser(server(), 'ana', { organizacion: 'org-a' });
    asset = assetId();
    videoId = await addVideo(server(), { titulo: 'Charla con subtítulos', idExterno: asset, duracion: 60 });
    hiddenId = await addVideo(server(), { titulo: 'Reunión interna', isVisible: false, organizacion: 'org-b' });
  });

  const put = (id: number, idioma: string, body: string | Buffer, type = 'text/vtt', token = admin.session) =>
    call(server().app, { method: 'PUT', url: `/api/videos/${id}/subtitulos/${idioma}`, token, headers: { 'content-type': type }, payload: body });
  const list = (id: number, token = ana.session) => call(server().app, { method: 'GET', url: `/api/videos/${id}/subtitulos`, token });
  const remove = (id: number, idioma: string, token = admin.session) => call(server().app, { method: 'DELETE', url: `/api/videos/${id}/subtitulos/${idioma}`, token });
  /** The file behind a signed location, fetched as a <track> element does: no session. */
  const download = (url: string) => server().app.inject({ method: 'GET', url });
  const storedVtt = async (idioma: string, id = videoId) => {
    const track = ((await list(id, admin.session)).json() as Subtitulo[]).find((t) => t.idioma === idioma);
    expect(track, `a track in ${idioma}`).toBeDefined();
    const res = await download(track!.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/vtt; charset=utf-8');
    return res.body;
  };
  const cueTexts = async (idioma: string, id = videoId) => (await findVideoCues(server().db.kysely, id, idioma)).map((c) => c.texto);

  it('stores an SRT with CRLF ends as WebVTT (201), lists it in Spanish with a signed location that downloads the normalised file', async () => {
    const res = await put(videoId, 'es', SRT_CRLF, 'application/x-subrip');
    expect(res.statusCode).toBe(201);
    const track = res.json() as Subtitulo;
    expect(track).toMatchObject({ idioma: 'es', etiqueta: 'Español' });
    expect(track.url).toMatch(new RegExp(`^/api/media/${asset}/subtitulos-es\\.vtt\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}&v=\\d+$`));

    const listed = await list(videoId);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([track]);
    expect(await storedVtt('es')).toBe(SRT_AS_VTT);
    expect(await findVideoCues(server().db.kysely, videoId, 'es')).toEqual([
      { inicio: 1, fin: 2.5, texto: 'Hola, mundo' },
      { inicio: 3, fin: 4, texto: 'Segunda línea y tercera' },
    ]);
    expect((await getVideo(server(), ana.session, videoId)).json()).toMatchObject({ idiomasSubtitulos: ['es'] });
  });

  it('refuses a forged or altered signature on the file (403 invalid-signature)', async () => {
    const [track] = (await list(videoId)).json() as Subtitulo[];
    const forged = track!.url.replace(/signature=[^&]+/, `signature=${'A'.repeat(43)}`);
    const res = await download(forged);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ type: 'invalid-signature' });
    const otherLanguage = await download(track!.url.replace('subtitulos-es.vtt', 'subtitulos-en.vtt'));
    expect(otherLanguage.statusCode).toBe(403);
  });

  it('replaces the track in the same language (200): one track, the new file, the new cues only', async () => {
    const res = await put(videoId, 'es', 'WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nNueva versión\n');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ idioma: 'es', etiqueta: 'Español' });
    expect(((await list(videoId)).json() as Subtitulo[]).map((t) => t.idioma)).toEqual(['es']);
    expect(await storedVtt('es')).toBe('WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nNueva versión\n');
    expect(await cueTexts('es')).toEqual(['Nueva versión']);
  });

  it('names each language in Spanish and sorts the tracks by tag', async () => {
    const id = await addVideo(server(), { titulo: 'Vídeo en varios idiomas', duracion: 60 });
    const cue = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nTexto\n';
    for (const idioma of ['gl', 'fr', 'eu', 'en', 'ca', 'pt-BR', 'es']) expect((await put(id, idioma, cue)).statusCode).toBe(201);
    const tracks = (await list(id)).json() as Subtitulo[];
    expect(tracks.map((t) => [t.idioma, t.etiqueta])).toEqual([
      ['ca', 'Catalán'],
      ['en', 'Inglés'],
      ['es', 'Español'],
      ['eu', 'Euskera'],
      ['fr', 'Francés'],
      ['gl', 'Gallego'],
      ['pt-BR', 'Portugués de Brasil'],
    ]);
    expect(await storedVtt('pt-BR', id)).toBe(cue);
    expect((await getVideo(server(), ana.session, id)).json()).toMatchObject({ idiomasSubtitulos: ['ca', 'en', 'es', 'eu', 'fr', 'gl', 'pt-BR'] });
  });

  describe('accepted shapes, stored normalised', () => {
    it('UTF-8 with a byte order mark', async () => {
      const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nAñadido con BOM\n')]);
      expect((await put(videoId, 'ca', body)).statusCode).toBe(201);
      expect(await storedVtt('ca')).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nAñadido con BOM\n');
    });

    it('Windows-1252 (é, ñ, € as single bytes), converted to UTF-8', async () => {
      // latin1 is Windows-1252 but for 0x80–0x9F: the euro sign is 0x80 in Windows-1252
      const body = Buffer.concat([Buffer.from('1\r\n00:00:01,000 --> 00:00:02,000\r\nCanción de España, año «único» ', 'latin1'), Buffer.from([0x80]), Buffer.from('\r\n')]);
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(body)).toThrow();
      expect((await put(videoId, 'eu', body, 'application/x-subrip')).statusCode).toBe(201);
      expect(await storedVtt('eu')).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nCanción de España, año «único» €\n');
      expect(await cueTexts('eu')).toEqual(['Canción de España, año «único» €']);
    });

    it('UTF-16 with its byte order mark', async () => {
      const text = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nDieciséis bits\n';
      const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      expect((await put(videoId, 'gl', body)).statusCode).toBe(201);
      expect(await storedVtt('gl')).toBe(text);
    });

    it('old Mac line ends (CR alone) and SRT stamps with a dot, in a text/vtt body', async () => {
      expect((await put(videoId, 'fr', '1\r00:00:01.000 --> 00:00:02.000\rBonjour\r\r2\r00:00:02.500 --> 00:00:03.000\rà tous\r')).statusCode).toBe(201);
      expect(await storedVtt('fr')).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nBonjour\n\n00:00:02.500 --> 00:00:03.000\nà tous\n');
    });

    it('STYLE, REGION and NOTE blocks and cue identifiers dropped; valid cue settings kept, the rest dropped', async () => {
      expect((await put(videoId, 'it', WEBVTT_WITH_BLOCKS)).statusCode).toBe(201);
      expect(await storedVtt('it')).toBe(WEBVTT_NORMALISED);
      expect(await cueTexts('it')).toEqual(['¡Hola !', 'adiós']);
    });

    it('markup reduced to WebVTT\'s own tags, balanced; entities kept as WebVTT escapes', async () => {
      expect((await put(videoId, 'de', MARKUP)).statusCode).toBe(201);
      expect(await storedVtt('de')).toBe(MARKUP_NORMALISED);
      expect(await cueTexts('de')).toEqual(['Rojo negrita sub <c.amarillo.xz colour 漢 a é b fin abierta']);
    });
  });

  describe('refused shapes: 400 invalid-subtitles naming the line, nothing stored', () => {
    const cases: Array<[string, string | Buffer, string]> = [
      ['an HTML page', '<!DOCTYPE html>\n<html><body><p>Hola</p></body></html>\n', 'line 1: not a subtitle file (WebVTT or SRT): expected «WEBVTT» or a cue timing such as «00:00:01,000 --> 00:00:04,000», found «<!DOCTYPE html>»'],
      ['random text', 'Querida Ana:\n\nte escribo para contarte…\n', 'line 1: not a subtitle file (WebVTT or SRT): expected «WEBVTT» or a cue timing such as «00:00:01,000 --> 00:00:04,000», found «Querida Ana:»'],
      ['binary data (a PNG)', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'line 2: not a subtitle file (WebVTT or SRT): it holds binary data'],
      ['a malformed timing', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nBien\n\n00:01:xx,000 --> 00:01:02,000\nMal\n', 'line 6: malformed timing «00:01:xx,000 --> 00:01:02,000» (expected such as «00:00:01,000 --> 00:00:04,000»)'],
      ['a timing with 61 seconds', '1\n00:00:61,000 --> 00:01:02,000\nMal\n', 'line 2: malformed timing «00:00:61,000 --> 00:01:02,000» (expected such as «00:00:01,000 --> 00:00:04,000»)'],
      ['a cue that ends before it starts', '1\n00:00:05,000 --> 00:00:04,000\nAl revés\n', 'line 2: the cue ends before it starts «00:00:05,000 --> 00:00:04,000»'],
      ['a cue past the video\'s end (60 s, 1 s of tolerance)', 'WEBVTT\n\n00:00:58.000 --> 00:01:01.000\nFin\n\n00:00:59.000 --> 00:01:01.001\nDemasiado\n', 'line 6: the cue ends at 00:01:01.001, past the end of the video (00:01:00.000)'],
      ['no cues at all', 'WEBVTT\n\nNOTE solo una nota\n', 'line 3: the file has no cues'],
      ['cues whose text is only markup', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<script></script>\n', 'line 4: the file has no cues'],
      ['a block without a timing', '1\n00:00:01,000 --> 00:00:02,000\nUno\n\nsuelto\n', 'line 5: a block without a cue timing (such as «00:00:01,000 --> 00:00:04,000»): «suelto»'],
      ['"-->" inside cue text', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nuna flecha --> aquí\n', 'line 4: malformed timing «una flecha --> aquí» (expected such as «00:00:01,000 --> 00:00:04,000»)'],
    ];
    for (const [name, body, detail] of cases) {
      it(name, async () => {
        const res = await put(videoId, 'ja', body);
        expect(res.statusCode).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.json()).toMatchObject({ type: 'invalid-subtitles', status: 400, detail });
        expect(((await list(videoId)).json() as Subtitulo[]).map((t) => t.idioma)).not.toContain('ja');
        expect(await cueTexts('ja')).toEqual([]);
      });
    }

    it('a cue ending within the tolerance is accepted', async () => {
      expect((await put(videoId, 'ja', 'WEBVTT\n\n00:00:59.000 --> 00:01:01.000\nÚltima\n')).statusCode).toBe(201);
      expect((await remove(videoId, 'ja')).statusCode).toBe(204);
    });
  });

  describe('limits and refusals', () => {
    it('413 payload-too-large above 2 MiB', async () => {
      const cue = '00:00:01.000 --> 00:00:02.000\nrelleno de prueba para pasar del límite\n\n';
      const res = await put(videoId, 'nl', `WEBVTT\n\n${cue.repeat(Math.ceil((2 * 1024 * 1024) / cue.length) + 1)}`);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ type: 'payload-too-large' });
    });

    it('415 unsupported-media-type for another content type', async () => {
      for (const type of ['text/plain', 'application/json', 'text/html']) {
        const res = await put(videoId, 'nl', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHola\n', type);
        expect(res.statusCode, type).toBe(415);
        expect(res.json()).toMatchObject({ type: 'unsupported-media-type' });
      }
    });

    it('a charset parameter is accepted (the bytes decide the encoding)', async () => {
      const res = await put(videoId, 'nl', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHallo\n', 'text/vtt; charset=iso-8859-1');
      expect(res.statusCode).toBe(201);
      expect((await remove(videoId, 'nl')).statusCode).toBe(204);
    });

    it('400 validation-error on params.idioma for a tag that names no language', async () => {
      for (const idioma of ['xx', 'qaa', 'zz-ES']) {
        const res = await put(videoId, idioma, SRT_CRLF, 'application/x-subrip');
        expect(res.statusCode, idioma).toBe(400);
        expect(res.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'params.idioma', message: 'is not a known language' }] });
      }
      const badShape = await put(videoId, 'ES', SRT_CRLF, 'application/x-subrip');
      expect(badShape.statusCode).toBe(400);
      expect(badShape.json()).toMatchObject({ type: 'validation-error', errors: [{ field: 'params.idioma' }] });
    });

    it('403 for a user who is not an administrator (put and delete), and nothing changes', async () => {
      const putRes = await put(videoId, 'es', SRT_CRLF, 'application/x-subrip', ana.session);
      expect(putRes.statusCode).toBe(403);
      expect(putRes.json()).toMatchObject({ type: 'unauthorized-role' });
      const delRes = await remove(videoId, 'es', ana.session);
      expect(delRes.statusCode).toBe(403);
      expect(await cueTexts('es')).toEqual(['Nueva versión']);
    });

    it('404 for a video the caller may not see, or that does not exist', async () => {
      expect((await put(hiddenId, 'es', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nSecreto\n', 'text/vtt')).statusCode).toBe(201);
      const unseen = await list(hiddenId, ana.session);
      expect(unseen.statusCode).toBe(404);
      expect(unseen.json()).toMatchObject({ type: 'resource-not-found' });
      expect(((await list(hiddenId, admin.session)).json() as Subtitulo[]).map((t) => t.idioma)).toEqual(['es']);
      expect((await list(999_999, ana.session)).statusCode).toBe(404);
      expect((await put(999_999, 'es', SRT_CRLF, 'application/x-subrip')).statusCode).toBe(404);
      expect((await remove(999_999, 'es')).statusCode).toBe(404);
    });

    it('401 without a session', async () => {
      const res = await server().app.inject({ method: 'GET', url: `/api/videos/${videoId}/subtitulos` });
      expect(res.statusCode).toBe(401);
    });
  });

  it('removes a track (204): the row, its cues and its file; then 404 resource-not-found', async () => {
    const [track] = ((await list(videoId)).json() as Subtitulo[]).filter((t) => t.idioma === 'fr');
    expect((await download(track!.url)).statusCode).toBe(200);
    const res = await remove(videoId, 'fr');
    expect(res.statusCode).toBe(204);
    expect(((await list(videoId)).json() as Subtitulo[]).map((t) => t.idioma)).not.toContain('fr');
    expect(await cueTexts('fr')).toEqual([]);
    expect((await download(track!.url)).statusCode).toBe(404);
    expect(await server().app.ctx.storage.list(asset)).not.toContain('subtitulos-fr.vtt');
    const again = await remove(videoId, 'fr');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ type: 'resource-not-found' });
    expect((await getVideo(server(), ana.session, videoId)).json()).not.toMatchObject({ idiomasSubtitulos: expect.arrayContaining(['fr']) });
  });

  it('audits every change: subtitles.put (added, replaced) and subtitles.delete, with the language', async () => {
    const id = await addVideo(server(), { titulo: 'Vídeo auditado', duracion: 60 });
    await put(id, 'en', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOne\n');
    await put(id, 'en', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOne\n\n00:00:03.000 --> 00:00:04.000\nTwo\n');
    await remove(id, 'en');
    await put(id, 'en', 'no es un subtítulo'); // refused: not audited
    const res = await call(server().app, { method: 'GET', url: '/api/audit?limit=100', token: admin.session });
    expect(res.statusCode).toBe(200);
    const entries = (res.json() as AuditEntry[]).filter((e) => e.subjectType === 'video' && e.subjectId === String(id)).reverse();
    expect(entries.map((e) => ({ actorNombre: e.actorNombre, action: e.action, before: e.before, after: e.after, detail: e.detail }))).toEqual([
      { actorNombre: 'gestora', action: 'subtitles.put', before: null, after: { idioma: 'en', cues: 1 }, detail: 'en' },
      { actorNombre: 'gestora', action: 'subtitles.put', before: { idioma: 'en', cues: 1 }, after: { idioma: 'en', cues: 2 }, detail: 'en' },
      { actorNombre: 'gestora', action: 'subtitles.delete', before: { idioma: 'en', cues: 2 }, after: null, detail: 'en' },
    ]);
  });

  it('the XSS corpus in cue text: the stored file keeps only WebVTT tags (no attribute, no javascript:), the cue words no tag', async () => {
    const id = await addVideo(server(), { titulo: 'Vídeo con subtítulos hostiles', duracion: 3600 });
    // A cue's text may not hold "-->" (it would start a cue): a WebVTT author writes "--&gt;".
    const payloads = corpus.map((p) => p.text.replace(/-->/g, '--&gt;').replace(/\n\s*\n/g, '\n'));
    const srt = payloads.map((text, i) => `${i + 1}\n00:00:${String(i % 60).padStart(2, '0')},000 --> 00:00:${String(i % 60).padStart(2, '0')},900\n${text}\n`).join('\n');
    const res = await put(id, 'es', srt, 'application/x-subrip');
    expect(res.statusCode, res.body).toBe(201);
    const vtt = await storedVtt('es', id);
    for (const tag of vtt.match(/<[^>]*>/g) ?? []) expect(tag).toMatch(WEBVTT_TAG);
    expect(vtt).not.toMatch(/javascript\s*:/i);
    expect(vtt).not.toMatch(/<(?!\/?(b|i|u|c|v|lang|ruby|rt)[\s.>])/);
    const texts = await cueTexts('es', id);
    expect(texts.length).toBeGreaterThan(corpus.length / 2);
    for (const text of texts) {
      expect(text).not.toMatch(/<[/!?A-Za-z][^<>]*>/);
      expect(text).not.toMatch(/javascript\s*:/i);
    }
  });
});

describeOnEachDatabase('subtitulos: deleting a video removes its tracks', (server) => {
  it('the rows, the cues (and SQLite\'s cues_fts entries) and the files go with the video', async () => {
    const admin = await createUser(server(), 'gestora', { rol: 'admin' });
    const asset = assetId();
    const id = await addVideo(server(), { titulo: 'Vídeo que se borra', idExterno: asset, duracion: 60 });
    for (const idioma of ['es', 'en']) {
      const res = await call(server().app, {
        method: 'PUT',
        url: `/api/videos/${id}/subtitulos/${idioma}`,
        token: admin.session,
        headers: { 'content-type': 'text/vtt' },
        payload: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nMurciélago trashumante\n',
      });
      expect(res.statusCode).toBe(201);
    }
    expect((await server().app.ctx.storage.list(asset)).sort()).toEqual(['subtitulos-en.vtt', 'subtitulos-es.vtt']);

    expect((await call(server().app, { method: 'DELETE', url: `/api/videos/${id}`, token: admin.session })).statusCode).toBe(204);
    expect(await server().app.ctx.storage.list(asset)).toEqual([]);
    expect(await countRows(server(), id)).toEqual({ subtitles: 0, cues: 0 });
    if (server().kind === 'sqlite') await expectCueIndexIntact(server());
  });

  it('a track of a video deleted meanwhile is refused by the foreign key, which the service answers as 404', async () => {
    const row = { video_id: 987_654, idioma: 'es', cue_count: 1, updated_at: new Date().toISOString() };
    const error = await insertSubtitleRow(server().db.kysely, row).catch((e: unknown) => e);
    expect(isForeignKeyViolation(error)).toBe(true);
  });
});

/** The video's rows left in video_subtitles and (through the videos module's service) video_cues. */
async function countRows(server: TestServer, videoId: number) {
  const subtitles = await server.db.kysely.selectFrom('video_subtitles').select((eb) => eb.fn.countAll<number>().as('n')).where('video_id', '=', videoId).executeTakeFirstOrThrow();
  const cues = [...(await findVideoCues(server.db.kysely, videoId, 'es')), ...(await findVideoCues(server.db.kysely, videoId, 'en'))];
  return { subtitles: Number(subtitles.n), cues: cues.length };
}

/**
 * FTS5's integrity check compares an external-content index with its table: it fails when the delete
 * trigger did not fire for the cues the cascade removed (the index would still hold their words).
 */
async function expectCueIndexIntact(server: TestServer) {
  const { sql } = await import('kysely');
  await expect(sql`insert into cues_fts (cues_fts, rank) values ('integrity-check', 1)`.execute(server.db.kysely)).resolves.toBeDefined();
}

/** The real storage, but its writes lose their answer after storing the file (an object store's timeout). */
function answerLostStorage(real: Storage): Storage {
  return new Proxy(real, {
    get(target, property, receiver) {
      if (property === 'write') {
        return async (...args: Parameters<Storage['write']>) => {
          await target.write(...args);
          throw new Error('the answer of the write was lost');
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describeOnEachDatabase('subtitulos: a change that fails half-way publishes nothing', (server) => {
  it('the previous track stays whole (file, cues, no audit entry); a new language leaves no file', async () => {
    const admin = await createUser(server(), 'gestora', { rol: 'admin' });
    const caller = { userId: admin.id, role: 'admin' as const, user: admin.user };
    const asset = assetId();
    const id = await addVideo(server(), { titulo: 'Vídeo con un disco que falla', idExterno: asset, duracion: 60 });
    const original = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOriginal\n';
    const res = await call(server().app, { method: 'PUT', url: `/api/videos/${id}/subtitulos/es`, token: admin.session, headers: { 'content-type': 'text/vtt' }, payload: original });
    expect(res.statusCode).toBe(201);

    const failing = answerLostStorage(server().app.ctx.storage);
    const replacement = Buffer.from('WEBVTT\n\n00:00:03.000 --> 00:00:04.000\nReemplazo\n');
    await expect(putSubtitles(server().app.ctx, failing, caller, id, 'es', replacement)).rejects.toThrow('the answer of the write was lost');
    await expect(putSubtitles(server().app.ctx, failing, caller, id, 'en', replacement)).rejects.toThrow('the answer of the write was lost');

    const tracks = (await call(server().app, { method: 'GET', url: `/api/videos/${id}/subtitulos`, token: admin.session })).json() as Subtitulo[];
    expect(tracks.map((t) => t.idioma)).toEqual(['es']);
    expect((await server().app.inject({ method: 'GET', url: tracks[0]!.url })).body).toBe(original);
    expect((await findVideoCues(server().db.kysely, id, 'es')).map((c) => c.texto)).toEqual(['Original']);
    expect(await findVideoCues(server().db.kysely, id, 'en')).toEqual([]);
    expect(await server().app.ctx.storage.list(asset)).toEqual(['subtitulos-es.vtt']);
    const audit = (await call(server().app, { method: 'GET', url: '/api/audit?limit=100', token: admin.session })).json() as AuditEntry[];
    expect(audit.filter((e) => e.subjectId === String(id)).map((e) => e.action)).toEqual(['subtitles.put']);
  });
});
