import { beforeAll, expect, it } from 'vitest';
import { PAYLOADS } from '../../../tests/e2e/xss-corpus.ts';
import { describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { replaceVideoCues, type CueText } from './search-index.service.ts';
import { addVideo, createUser, list, type LibraryUser, type Video } from './videos.test-support.ts';

/** R-LIB-19, R-LIB-20, R-LIB-21, R-LIB-22: the list's `q` searches what is said too, and `subtitulos=con|sin`. */

type Coincidencia = NonNullable<Video['coincidencias']>[number];

async function setCues(server: TestServer, videoId: number, idioma: string, cues: CueText[]): Promise<void> {
  await server.db.kysely.transaction().execute((trx) => replaceVideoCues(trx, server.db.dialect, videoId, idioma, cues));
}

/** The words a coincidencia marks, as the client would cut them out of `texto`. */
const marked = (c: Coincidencia) => c.marcas.map((m) => c.texto.slice(m.desde, m.hasta));

async function search(server: TestServer, token: string, query: Record<string, string | number>): Promise<{ videos: Video[]; total: number }> {
  const res = await list(server, token, query);
  expect(res.statusCode, res.body).toBe(200);
  return { videos: res.json() as Video[], total: Number(res.headers['x-total-count']) };
}

describeOnEachDatabase('videos: searching what is said (q in the cues)', (server) => {
  let ana: LibraryUser;
  let admin: LibraryUser;
  let spoken: number;
  let english: number;
  let titled: number;
  let hidden: number;
  let many: number;

  beforeAll(async () => {
    ana = await createUser(server(), 'ana', { organizacion: 'TAO' });
    admin = await createUser(server(), 'admin', { rol: 'admin' });
    const day = (d: number) => `2026-04-${String(d).padStart(2, '0')}T10:00:00.000Z`;
    spoken = await addVideo(server(), { titulo: 'Charla de los lunes', descripcionCorta: 'Una charla cualquiera', fechaAlta: day(1) });
    await setCues(server(), spoken, 'es', [
      { inicio: 0, fin: 3.5, texto: 'Buenos días a todos.' },
      { inicio: 754, fin: 757.25, texto: 'Hoy hablamos del PRESUPUESTO de la campaña de Almería.' },
      { inicio: 800, fin: 803, texto: 'La campaña termina en marzo; el presupuesto no.' },
    ]);
    english = await addVideo(server(), { titulo: 'Visita de la delegación', descripcionCorta: 'Recepción', fechaAlta: day(2) });
    await setCues(server(), english, 'es', [{ inicio: 1, fin: 2, texto: 'Bienvenidos a la fábrica.' }]);
    await setCues(server(), english, 'en', [{ inicio: 12, fin: 15, texto: 'The warehouse opens at dawn.' }]);
    // newer than `spoken`, and its title says what `spoken` only says aloud
    titled = await addVideo(server(), { titulo: 'Presupuesto de la campaña', descripcionCorta: 'Cifras del año', fechaAlta: day(3) });
    hidden = await addVideo(server(), { titulo: 'Comité interno', descripcionCorta: 'Solo otra organización', isVisible: false, organizacion: 'Otra', fechaAlta: day(4) });
    await setCues(server(), hidden, 'es', [{ inicio: 5, fin: 9, texto: 'El presupuesto secreto de la campaña.' }]);
    many = await addVideo(server(), { titulo: 'Asamblea', descripcionCorta: 'Muchas intervenciones', fechaAlta: day(5) });
    await setCues(
      server(),
      many,
      'es',
      Array.from({ length: 6 }, (_, i) => ({ inicio: 10 * i, fin: 10 * i + 4, texto: `Intervención ${i + 1}: la zarzamora${i % 2 ? ' madura' : ''}.` })),
    );
  });

  it('a word only spoken finds the video, with the cue, its times and the word marked', async () => {
    const { videos, total } = await search(server(), ana.session, { q: 'almeria' });
    expect(videos.map((v) => v.id)).toEqual([spoken]);
    expect(total).toBe(1);
    const [c] = videos[0]!.coincidencias!;
    expect(c).toEqual({
      idioma: 'es',
      inicio: 754,
      fin: 757.25,
      texto: 'Hoy hablamos del PRESUPUESTO de la campaña de Almería.',
      marcas: [{ desde: 46, hasta: 53 }],
    });
    expect(marked(c!)).toEqual(['Almería']);
  });

  it('ignores accents and case both ways, and the last word matches as a prefix', async () => {
    for (const q of ['ALMERÍA', 'almería', 'Almeria', 'campana almer', 'campaña alm']) {
      const { videos } = await search(server(), ana.session, { q });
      expect(videos.map((v) => v.id), q).toEqual([spoken]);
      expect(marked(videos[0]!.coincidencias![0]!), q).toContain('Almería');
    }
    const [c] = (await search(server(), ana.session, { q: 'campana almer' })).videos[0]!.coincidencias!;
    expect(marked(c!)).toEqual(['campaña', 'Almería']);
    // an earlier word is whole, not a prefix
    expect((await search(server(), ana.session, { q: 'camp almeria' })).videos).toEqual([]);
  });

  it('takes a last word of any length as a prefix, said in the same cue as the other words (R-LIB-19)', async () => {
    // one letter, exactly a short word, four letters, a whole word: the prefix's lengths are indexed apart on PostgreSQL
    for (const q of ['hablamos d', 'hablamos del', 'hablamos camp', 'hablamos campana', 'termina m', 'termina marz']) {
      expect((await search(server(), ana.session, { q })).videos.map((v) => v.id), q).toEqual([spoken]);
    }
    // "días" is said, and words starting with c, m and camp, but never in its cue
    for (const q of ['dias c', 'dias m', 'dias camp', 'dias campana']) expect((await search(server(), ana.session, { q })).videos, q).toEqual([]);
  });

  it('needs every word within one cue', async () => {
    // "días" and "marzo" are both said, but in different cues
    expect((await search(server(), ana.session, { q: 'dias marzo' })).videos).toEqual([]);
    const { videos } = await search(server(), ana.session, { q: 'marzo presupuesto' });
    expect(videos.map((v) => v.id)).toEqual([spoken]);
    expect(videos[0]!.coincidencias!.map((c) => c.inicio)).toEqual([800]);
    expect(marked(videos[0]!.coincidencias![0]!)).toEqual(['marzo', 'presupuesto']);
  });

  it('searches every language a video has', async () => {
    const { videos } = await search(server(), ana.session, { q: 'warehouse' });
    expect(videos.map((v) => v.id)).toEqual([english]);
    expect(videos[0]!.coincidencias).toEqual([{ idioma: 'en', inicio: 12, fin: 15, texto: 'The warehouse opens at dawn.', marcas: [{ desde: 4, hasta: 13 }] }]);
    expect((await search(server(), ana.session, { q: 'fabrica' })).videos[0]!.coincidencias![0]!.idioma).toBe('es');
  });

  it('a video whose own texts match comes before one that matches only in what is said', async () => {
    // `spoken` says "presupuesto" twice and is older; `titled` has it in its title only
    const { videos, total } = await search(server(), ana.session, { q: 'presupuesto campaña' });
    expect(videos.map((v) => v.id)).toEqual([titled, spoken]);
    expect(total).toBe(2);
    expect(videos[0]!.coincidencias).toBeUndefined();
    // both of its cues say both words (best first: the engines' ranks, which differ a little)
    expect(videos[1]!.coincidencias!.map((c) => c.inicio).sort((a, b) => a - b)).toEqual([754, 800]);
  });

  it('gives at most three coincidencias, and a video with more matching cues first among caption-only ones', async () => {
    const { videos } = await search(server(), ana.session, { q: 'zarzamora' });
    expect(videos.map((v) => v.id)).toEqual([many]);
    const cues = videos[0]!.coincidencias!;
    expect(cues).toHaveLength(3);
    for (const c of cues) expect(marked(c)).toEqual(['zarzamora']);
    // "la" is in two titles; it is said in six cues of `many`, two of `spoken`, one of `hidden`
    const la = (await search(server(), admin.session, { q: 'la' })).videos.map((v) => v.id);
    expect(la.slice(0, 2).sort()).toEqual([titled, english].sort());
    expect(la.slice(2)).toEqual([many, spoken, hidden]);
    // every word of a cue that folds like the query's is marked, and only those
    const both = (await search(server(), ana.session, { q: 'zarzamora madura' })).videos[0]!.coincidencias!;
    expect(both).toHaveLength(3);
    for (const c of both) expect(marked(c)).toEqual(['zarzamora', 'madura']);
  });

  it('does not list a video the viewer may not see because of what is said in it', async () => {
    const { videos, total } = await search(server(), ana.session, { q: 'secreto' });
    expect(videos).toEqual([]);
    expect(total).toBe(0);
    const forAdmin = await search(server(), admin.session, { q: 'secreto' });
    expect(forAdmin.videos.map((v) => v.id)).toEqual([hidden]);
    expect(forAdmin.total).toBe(1);
    expect((await search(server(), admin.session, { q: 'presupuesto' })).total).toBe(3);
    expect((await search(server(), ana.session, { q: 'presupuesto' })).total).toBe(2);
  });

  it('counts the union of both kinds of match in X-Total-Count, also past the last page and with other filters', async () => {
    const first = await search(server(), admin.session, { q: 'presupuesto', limit: 1 });
    expect(first.videos.map((v) => v.id)).toEqual([titled]);
    expect(first.total).toBe(3);
    const second = await search(server(), admin.session, { q: 'presupuesto', limit: 1, offset: 1 });
    expect(second.total).toBe(3);
    expect(second.videos[0]!.coincidencias).toBeDefined();
    expect((await search(server(), admin.session, { q: 'presupuesto', limit: 1, offset: 10 })).total).toBe(3);
    expect((await search(server(), admin.session, { q: 'presupuesto', subtitulos: 'con', limit: 1, offset: 10 })).total).toBe(2);
    expect((await search(server(), admin.session, { q: 'presupuesto', subtitulos: 'sin' })).videos.map((v) => v.id)).toEqual([titled]);
  });

  it('carries no coincidencias without q', async () => {
    const { videos } = await search(server(), ana.session, {});
    expect(videos.length).toBeGreaterThan(0);
    for (const v of videos) expect(v.coincidencias).toBeUndefined();
  });

  it('finds what was just said: replacing a track forgets remembered pages', async () => {
    expect((await search(server(), ana.session, { q: 'ornitorrinco' })).videos).toEqual([]);
    expect((await search(server(), ana.session, { q: 'bienvenidos' })).videos.map((v) => v.id)).toEqual([english]);
    await setCues(server(), english, 'es', [{ inicio: 3, fin: 6, texto: 'Un ornitorrinco en la fábrica.' }]);
    expect((await search(server(), ana.session, { q: 'ornitorrinco' })).videos.map((v) => v.id)).toEqual([english]);
    expect((await search(server(), ana.session, { q: 'bienvenidos' })).videos).toEqual([]);
    await setCues(server(), english, 'es', []);
    expect((await search(server(), ana.session, { q: 'ornitorrinco' })).videos).toEqual([]);
    // the other language stays
    expect((await search(server(), ana.session, { q: 'warehouse' })).videos.map((v) => v.id)).toEqual([english]);
  });
});

describeOnEachDatabase('videos: cue text comes back as data (XSS corpus)', (server) => {
  let ana: LibraryUser;

  beforeAll(async () => {
    ana = await createUser(server(), 'ana');
    const id = await addVideo(server(), { titulo: 'Corpus', descripcionCorta: 'Cargas útiles' });
    await setCues(server(), id, 'es', PAYLOADS.map((p, i) => ({ inicio: i, fin: i + 1, texto: `${p.text} palabra${p.n}x` })));
  });

  it('answers each payload exactly as stored, with the offsets on the searched word', async () => {
    for (const p of PAYLOADS) {
      const { videos } = await search(server(), ana.session, { q: `palabra${p.n}x` });
      const cues = videos[0]?.coincidencias;
      expect(cues, p.text).toHaveLength(1);
      const [c] = cues!;
      expect(c!.texto).toBe(`${p.text} palabra${p.n}x`);
      expect(marked(c!)).toEqual([`palabra${p.n}x`]);
      expect(c!.marcas).toEqual([{ desde: p.text.length + 1, hasta: c!.texto.length }]);
    }
  });
});

describeOnEachDatabase('videos: the subtitles filter (subtitulos=con|sin)', (server) => {
  let admin: LibraryUser;
  const captioned: number[] = [];
  const bare: number[] = [];

  beforeAll(async () => {
    admin = await createUser(server(), 'admin', { rol: 'admin' });
    for (let i = 0; i < 5; i++) {
      const id = await addVideo(server(), { titulo: `Vídeo ${i}`, fechaAlta: `2026-05-0${i + 1}T10:00:00.000Z`, tagNames: ['Formación'] });
      if (i % 2 === 0) {
        await setCues(server(), id, i === 4 ? 'en' : 'es', [{ inicio: 0, fin: 1, texto: 'Hola.' }]);
        captioned.unshift(id);
      } else bare.unshift(id);
    }
  });

  it('keeps the videos with at least one track, or those without, and counts them', async () => {
    const con = await search(server(), admin.session, { subtitulos: 'con' });
    expect(con.videos.map((v) => v.id)).toEqual(captioned);
    expect(con.videos.every((v) => v.idiomasSubtitulos.length > 0)).toBe(true);
    expect(con.total).toBe(3);
    const sin = await search(server(), admin.session, { subtitulos: 'sin' });
    expect(sin.videos.map((v) => v.id)).toEqual(bare);
    expect(sin.videos.every((v) => v.idiomasSubtitulos.length === 0)).toBe(true);
    expect(sin.total).toBe(2);
    // counted apart (a full page does not tell the total), also beside the tag filter's own count
    expect((await search(server(), admin.session, { subtitulos: 'con', limit: 1 })).total).toBe(3);
    const tag = (await search(server(), admin.session, {})).videos[0]!.etiquetas[0]!.id;
    expect((await search(server(), admin.session, { subtitulos: 'sin', tag: `in:${tag}`, limit: 1 })).total).toBe(2);
  });

  it('follows a track removed', async () => {
    const last = captioned[0]!;
    await setCues(server(), last, 'en', []);
    expect((await search(server(), admin.session, { subtitulos: 'con' })).total).toBe(2);
    expect((await search(server(), admin.session, { subtitulos: 'sin' })).videos.map((v) => v.id)).toContain(last);
  });

  it('refuses another value', async () => {
    const res = await list(server(), admin.session, { subtitulos: 'si' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: expect.stringContaining('validation-error') });
  });
});
