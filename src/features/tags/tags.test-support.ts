/**
 * The fake tag server of the tag dialog tests: Mock Service Worker handlers typed against
 * openapi.yaml over a few tags and two videos that carry them. The writes the dialogs wait for
 * (POST, PATCH and DELETE of a tag) are held until the test answers them (`answer('POST', 'ok' |
 * 'fail' | 'duplicate')`), so every state in between can be looked at; the reads answer at once
 * (the next tag list may be made to fail).
 */
import { waitFor } from '@testing-library/react';
import type { components } from '../../../contract/openapi.gen.ts';
import { http, problem, server } from '../../../tests/utils/msw.ts';

type Video = components['schemas']['Video'];
type Etiqueta = components['schemas']['Etiqueta'];

export const FORMACION: Etiqueta = { id: 3, nombre: 'Formación' };
export const VENTAS: Etiqueta = { id: 5, nombre: 'Ventas' };
export const EQUIPOS: Etiqueta = { id: 9, nombre: 'Equipos' };

const video = (id: number, titulo: string, etiquetas: Etiqueta[]): Video => ({
  id,
  idExterno: `asset-${id}`,
  titulo,
  descripcion: null,
  descripcionCorta: `Resumen de ${titulo}`,
  duracion: 600,
  puntuacionMedia: 0,
  puntuacion: null,
  favorito: false,
  visto: true,
  fechaAlta: '2026-03-05T12:00:00.000Z',
  urlThumbnail: null,
  urlPreview: null,
  urlHls: null,
  urlStoryboard: null,
  idiomasSubtitulos: [],
  capitulos: [],
  urlVideo: `/api/media/asset-${id}/video.mp4?expires=1&signature=v`,
  etiquetas,
  isVisible: true,
  organizacionId: null,
  nombreUsuarioAlta: 'admin',
  posicion: null,
});

export const MEETING = video(7, 'Reunión anual de equipos', [FORMACION, VENTAS]);
export const PRODUCT = video(8, 'Presentación de producto', [VENTAS, EQUIPOS]);

type Write = 'POST' | 'PATCH' | 'DELETE';
export type Outcome = 'ok' | 'fail' | 'duplicate';

export interface FakeTags {
  /** The tags as the server has them now, by name (Spanish order). */
  tags: () => Etiqueta[];
  /** The names of the tags a video has now. */
  tagsOf: (id: number) => string[];
  /** What the writes sent: the bodies of POST and PATCH, the ids of DELETE (held ones included). */
  posts: Array<{ nombre: string }>;
  patches: Array<{ id: number; nombre: string }>;
  deletes: number[];
  /** How many GET /api/etiquetas were answered. */
  lists: () => number;
  /** How many writes of a kind wait for the test. */
  held: (write: Write) => number;
  /** Answers the oldest held write of a kind (waits until one arrives). */
  answer: (write: Write, outcome: Outcome) => Promise<void>;
  /** The next `count` tag lists answer 500. */
  failNextLists: (count: number) => void;
}

const spanish = new Intl.Collator('es', { sensitivity: 'base' });

/** Serves the tags and videos to the app; each test calls it once. */
export function serveTags(): FakeTags {
  let tags = [FORMACION, VENTAS, EQUIPOS].map((tag) => ({ ...tag }));
  let videos = [MEETING, PRODUCT].map((entry) => ({ ...entry, etiquetas: entry.etiquetas.map((tag) => tag.id) }));
  let nextId = 20;
  let lists = 0;
  let failLists = 0;
  const held: Array<{ write: Write; settle: (outcome: Outcome) => void }> = [];
  const sorted = () => [...tags].sort((a, b) => spanish.compare(a.nombre, b.nombre));
  const named = (ids: number[]) => ids.flatMap((id) => tags.filter((tag) => tag.id === id));
  const fake: FakeTags = {
    tags: sorted,
    tagsOf: (id) => named(videos.find((entry) => entry.id === id)?.etiquetas ?? []).map((tag) => tag.nombre),
    posts: [],
    patches: [],
    deletes: [],
    lists: () => lists,
    held: (write) => held.filter((entry) => entry.write === write).length,
    answer: async (write, outcome) => {
      await waitFor(() => {
        if (!held.some((entry) => entry.write === write)) throw new Error(`No ${write} reached the server`);
      });
      const index = held.findIndex((entry) => entry.write === write);
      const [entry] = held.splice(index, 1);
      entry!.settle(outcome);
    },
    failNextLists: (count) => {
      failLists = count;
    },
  };
  const hold = (write: Write) => new Promise<Outcome>((settle) => held.push({ write, settle }));
  const refused = (outcome: Outcome) =>
    outcome === 'duplicate' ? problem(409, 'conflict', 'Ya existe una etiqueta con ese nombre') : problem(500, 'internal-server-error');

  server.use(
    http.get('/api/videos', ({ response }) => {
      const answer = [MEETING, PRODUCT]
        .filter((entry) => videos.some((stored) => stored.id === entry.id))
        .map((entry) => ({ ...entry, etiquetas: named(videos.find((stored) => stored.id === entry.id)!.etiquetas) }));
      return response(200).json(answer, { headers: { 'X-Total-Count': String(answer.length) } });
    }),
    http.get('/api/etiquetas', ({ response }) => {
      lists += 1;
      if (failLists > 0) {
        failLists -= 1;
        return problem(500, 'internal-server-error');
      }
      return response(200).json(sorted());
    }),
    http.post('/api/etiquetas', async ({ request, response }) => {
      const body = await request.json();
      fake.posts.push(body);
      const outcome = await hold('POST');
      if (outcome !== 'ok') return refused(outcome);
      const tag = { id: nextId++, nombre: body.nombre };
      tags = [...tags, tag];
      return response(201).json(tag);
    }),
    http.patch('/api/etiquetas/{id}', async ({ params, request, response }) => {
      const body = await request.json();
      const id = Number(params.id);
      const nombre = body[0]!.value;
      fake.patches.push({ id, nombre });
      const outcome = await hold('PATCH');
      if (outcome !== 'ok') return refused(outcome);
      if (!tags.some((tag) => tag.id === id)) return problem(404, 'resource-not-found');
      tags = tags.map((tag) => (tag.id === id ? { id, nombre } : tag));
      return response(200).json({ id, nombre });
    }),
    http.delete('/api/etiquetas/{id}', async ({ params, response }) => {
      const id = Number(params.id);
      fake.deletes.push(id);
      const outcome = await hold('DELETE');
      if (outcome !== 'ok') return refused(outcome);
      tags = tags.filter((tag) => tag.id !== id);
      videos = videos.map((entry) => ({ ...entry, etiquetas: entry.etiquetas.filter((tagId) => tagId !== id) }));
      return response(204).empty();
    }),
  );
  return fake;
}
