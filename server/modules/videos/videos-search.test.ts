import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { addVideo, createUser, list, titles, type LibraryUser, type Video } from './videos.test-support.ts';

describeOnEachDatabase('videos: full-text search (q)', (server) => {
  let ana: LibraryUser;

  beforeAll(async () => {
    ana = await createUser(server(), 'ana', { organizacion: 'TAO' });
    const day = (d: number) => `2026-03-${String(d).padStart(2, '0')}T10:00:00.000Z`;
    await addVideo(server(), { titulo: 'Camión de bomberos', descripcionCorta: 'Un vehículo rojo', fechaAlta: day(1) });
    await addVideo(server(), { titulo: 'Reunión anual de socios', descripcionCorta: 'Asamblea general', fechaAlta: day(2) });
    await addVideo(server(), {
      titulo: 'Informe trimestral',
      descripcionCorta: 'Cifras del trimestre',
      descripcion: 'Se habló de la próxima *reunión* y del camión nuevo',
      fechaAlta: day(3),
    });
    await addVideo(server(), { titulo: 'Taller de soldadura', descripcionCorta: 'Práctica guiada', tagNames: ['Formación'], fechaAlta: day(4) });
    // same text, different dates: the newer one comes first
    await addVideo(server(), { titulo: 'Seguridad eléctrica', descripcionCorta: 'Curso básico', fechaAlta: day(5) });
    await addVideo(server(), { titulo: 'Seguridad eléctrica', descripcionCorta: 'Curso básico', fechaAlta: day(6), idExterno: 'seguridad_newer' });
    await addVideo(server(), { titulo: 'Presentación (versión 2.0) — "beta"', descripcionCorta: 'Notas: A&B, C|D, -menos, *estrella*', fechaAlta: day(7) });
  });

  it('ignores accents and case, in both directions', async () => {
    expect(await titles(server(), ana.session, { q: 'camion bomberos' })).toEqual(['Camión de bomberos']);
    expect(await titles(server(), ana.session, { q: 'CAMIÓN BOMBEROS' })).toEqual(['Camión de bomberos']);
    expect(await titles(server(), ana.session, { q: 'REUNION ANUAL' })).toEqual(['Reunión anual de socios']);
    expect(await titles(server(), ana.session, { q: 'electrica' })).toHaveLength(2);
  });

  it('needs every word; the last one also matches as a prefix, the others only whole', async () => {
    expect(await titles(server(), ana.session, { q: 'reunión anu' })).toEqual(['Reunión anual de socios']);
    expect(await titles(server(), ana.session, { q: 'reun' })).toEqual(['Reunión anual de socios', 'Informe trimestral']);
    // an earlier word is not a prefix
    expect(await titles(server(), ana.session, { q: 'reun anual' })).toEqual([]);
    // a word that is in no video leaves nothing
    expect(await titles(server(), ana.session, { q: 'camión helicóptero' })).toEqual([]);
  });

  it('searches the short and long descriptions and the tag names', async () => {
    expect(await titles(server(), ana.session, { q: 'vehiculo rojo' })).toEqual(['Camión de bomberos']);
    expect(await titles(server(), ana.session, { q: 'proxima' })).toEqual(['Informe trimestral']);
    expect(await titles(server(), ana.session, { q: 'formacion' })).toEqual(['Taller de soldadura']);
    expect(await titles(server(), ana.session, { q: 'FORMAC' })).toEqual(['Taller de soldadura']);
  });

  it('ranks the best matches first (title before long description), then the newest', async () => {
    // "camión" is in one title and in another video's long description (that video is newer)
    expect(await titles(server(), ana.session, { q: 'camion' })).toEqual(['Camión de bomberos', 'Informe trimestral']);
    expect(await titles(server(), ana.session, { q: 'reunion' })).toEqual(['Reunión anual de socios', 'Informe trimestral']);
    // equal matches: newest first
    const res = await list(server(), ana.session, { q: 'seguridad' });
    expect((res.json() as Video[]).map((v) => v.idExterno)[0]).toBe('seguridad_newer');
    expect(res.headers['x-total-count']).toBe('2');
  });

  describe('search syntax in q is only text, never an error', () => {
    const inputs = [
      '"', '""', '"camión', 'camión"', '*', 'cam*', '-camión', 'camión -bomberos', ':', 'titulo:camión', '&', 'camión & bomberos',
      '|', '!camión', '(', ')', '(camión', 'camión)', 'NOT', 'camión NOT bomberos', 'AND', 'OR', 'NEAR(camión bomberos)',
      '^camión', '+camión', 'camión:*', "'camión'", '\\', '%', '_', '<->', 'a & (b | !c)', '{}', '[]', '..', '—',
    ];
    for (const q of inputs) {
      it(`q=${q}`, async () => {
        const res = await list(server(), ana.session, { q });
        expect(res.statusCode, res.body).toBe(200);
      });
    }

    it('words around the syntax characters still match', async () => {
      expect(await titles(server(), ana.session, { q: '"camión"' })).toEqual(['Camión de bomberos', 'Informe trimestral']);
      expect(await titles(server(), ana.session, { q: 'camión* -bomberos' })).toEqual(['Camión de bomberos']);
      expect(await titles(server(), ana.session, { q: '(versión 2.0) "beta"' })).toEqual(['Presentación (versión 2.0) — "beta"']);
      expect(await titles(server(), ana.session, { q: 'A&B C|D estrella' })).toEqual(['Presentación (versión 2.0) — "beta"']);
      // operators of the engines are words like any other ("NOT" is the prefix of "Notas")
      expect(await titles(server(), ana.session, { q: 'NOT' })).toEqual(['Presentación (versión 2.0) — "beta"']);
      expect(await titles(server(), ana.session, { q: 'camión AND' })).toEqual([]);
    });

    it('a query without any word filters nothing (newest first)', async () => {
      const all = await titles(server(), ana.session);
      expect(await titles(server(), ana.session, { q: '*' })).toEqual(all);
      expect(await titles(server(), ana.session, { q: '" - ( ) :' })).toEqual(all);
    });
  });
});
