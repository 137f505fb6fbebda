import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { now } from '../../db/database.ts';
import { down, up } from '../../db/migrations/2026-11-22T2000-administration.ts';
import { addVideo, createUser, getVideo, titles, type Video } from '../videos/videos.test-support.ts';

describeOnEachDatabase('etiquetas: the administration migration makes names unique ignoring accents', (server) => {
  it('merges tags that differed only in accents into the oldest one; their videos keep it, once', async () => {
    const { kysely, dialect } = server().db;
    const untyped = kysely as unknown as Kysely<unknown>; // migrations take the database without its table types
    const ana = await createUser(server(), 'ana');
    // The schema before the migration: keys lower-cased only, so 'Formación' and 'Formacion' could both exist.
    await down(untyped);
    const at = now();
    const insert = (nombre: string) =>
      kysely.insertInto('tags').values({ nombre, nombre_key: nombre.toLowerCase(), created_at: at }).returning('id').executeTakeFirstOrThrow();
    const accented = await insert('Formación');
    const plain = await insert('Formacion');
    const other = await insert('Música');
    const first = await addVideo(server(), { titulo: 'Con acento', tagIds: [accented.id] });
    const second = await addVideo(server(), { titulo: 'Sin acento', tagIds: [plain.id, other.id] });
    const both = await addVideo(server(), { titulo: 'Con las dos', tagIds: [accented.id, plain.id] });

    await up(untyped, dialect);

    const tags = await kysely.selectFrom('tags').select(['id', 'nombre', 'nombre_key']).orderBy('id').execute();
    expect(tags).toEqual([
      { id: accented.id, nombre: 'Formación', nombre_key: 'formacion' },
      { id: other.id, nombre: 'Música', nombre_key: 'musica' },
    ]);
    const tagsOf = async (id: number) => ((await getVideo(server(), ana.session, id)).json() as Video).etiquetas.map((t) => t.nombre);
    expect(await tagsOf(first)).toEqual(['Formación']);
    expect(await tagsOf(second)).toEqual(['Formación', 'Música']);
    expect(await tagsOf(both)).toEqual(['Formación']);
    expect(await titles(server(), ana.session, { tag: `in:${accented.id}` })).toEqual(expect.arrayContaining(['Con acento', 'Sin acento', 'Con las dos']));
    expect((await sql<{ n: number }>`select count(*) as n from audit_log`.execute(kysely)).rows[0]!.n).toBe(0);
  });
});
