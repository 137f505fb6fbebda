/**
 * The fake library server of the edit and delete dialog tests: Mock Service Worker handlers typed
 * against openapi.yaml over a small in-memory library. The writes the dialogs wait for (PATCH and
 * DELETE of a video) are held until the test answers them (`answer('PATCH', 'ok' | 'fail')`), so
 * every state in between can be looked at; the reads, the upload location and the picture's PUT
 * answer at once (a test may make them fail).
 */
import { waitFor } from '@testing-library/react';
import type { components } from '../../../../contract/openapi.gen.ts';
import { http, problem, server } from '../../../../tests/utils/msw.ts';

type Video = components['schemas']['Video'];
type Etiqueta = components['schemas']['Etiqueta'];
type PatchOperation = components['schemas']['VideoPatchOperation'];

export const TAGS: Etiqueta[] = [
  { id: 3, nombre: 'Formación' },
  { id: 5, nombre: 'Ventas' },
  { id: 9, nombre: 'Equipos' },
];

const tagById = new Map(TAGS.map((tag) => [tag.id, tag]));

export const VIDEO: Video = {
  id: 7,
  idExterno: 'asset-7',
  titulo: 'Reunión anual de equipos',
  descripcion: 'Acta completa de la reunión',
  descripcionCorta: 'Resumen de la reunión',
  duracion: 600,
  puntuacionMedia: 3.5,
  puntuacion: null,
  favorito: false,
  visto: true,
  fechaAlta: '2026-03-05T12:00:00.000Z',
  urlThumbnail: '/api/media/asset-7/thumbnail.jpg?expires=1&signature=t',
  urlPreview: null,
  urlHls: null,
  urlStoryboard: null,
  idiomasSubtitulos: [],
  capitulos: [],
  urlVideo: '/api/media/asset-7/video.mp4?expires=1&signature=v',
  etiquetas: [
    { id: 3, nombre: 'Formación' },
    { id: 9, nombre: 'Equipos' },
  ],
  isVisible: true,
  organizacionId: null,
  nombreUsuarioAlta: 'admin',
  posicion: null,
};

export const OTHER_VIDEO: Video = {
  ...VIDEO,
  id: 8,
  idExterno: 'asset-8',
  titulo: 'Presentación de producto',
  descripcion: null,
  descripcionCorta: 'La nueva línea',
  etiquetas: [{ id: 5, nombre: 'Ventas' }],
  urlThumbnail: null,
  urlVideo: '/api/media/asset-8/video.mp4?expires=1&signature=v',
};

export const THUMBNAIL_LOCATION = '/api/uploads/asset-7/thumbnail?expires=1&signature=s';

type Write = 'PATCH' | 'DELETE';
type Outcome = 'ok' | 'fail';

export interface FakeLibrary {
  /** The videos as the server has them now (the list answers them, newest change included). */
  videos: () => Video[];
  /** Bodies of the PATCH requests received, oldest first (held ones included). */
  patches: PatchOperation[][];
  /** Ids of the DELETE requests received. */
  deletes: number[];
  /** Assets whose upload location was asked for (GET /api/uploads/{id}). */
  uploadsAsked: string[];
  /** The pictures PUT to upload locations: where, with which content type, which bytes. */
  puts: Array<{ path: string; contentType: string | null; bytes: Uint8Array }>;
  /** Everything the server received, in order ('GET /api/uploads/asset-7', 'PUT …', 'PATCH 7'…). */
  log: string[];
  /** How many writes of a kind wait for the test. */
  held: (write: Write) => number;
  /** Answers the oldest held write of a kind (waits until one arrives). */
  answer: (write: Write, outcome: Outcome) => Promise<void>;
  /** The next picture PUT is refused with this problem. */
  refuseNextPut: (status: number) => void;
  /** Each video's subtitle tracks as the server has them (GET / PUT / DELETE /api/videos/{id}/subtitulos…). */
  tracks: Map<number, Subtitulo[]>;
  /** The subtitle files PUT: video, language, content type, text. */
  subtitlePuts: Array<{ id: number; idioma: string; contentType: string | null; text: string }>;
  /** The next subtitle PUT is refused as invalid, naming this line. */
  refuseNextSubtitles: (detail: string) => void;
}

const ETIQUETAS: Record<string, string> = { es: 'Español', en: 'Inglés', ca: 'Catalán', fr: 'Francés' };

type Subtitulo = components['schemas']['Subtitulo'];
const trackOf = (video: Video, idioma: string): Subtitulo => ({
  idioma,
  etiqueta: ETIQUETAS[idioma] ?? idioma,
  url: `/api/media/${video.idExterno}/subtitulos-${idioma}.vtt?expires=1&signature=s`,
});

/** Serves a library of `videos` to the app; each test calls it once. */
export function serveLibrary(videos: Video[] = [VIDEO, OTHER_VIDEO]): FakeLibrary {
  let stored = videos.map((video) => ({ ...video }));
  const held: Array<{ write: Write; settle: (outcome: Outcome) => void }> = [];
  let refusePut: number | null = null;
  let refuseSubtitles: string | null = null;
  const library: FakeLibrary = {
    videos: () => stored,
    patches: [],
    deletes: [],
    uploadsAsked: [],
    puts: [],
    log: [],
    held: (write) => held.filter((entry) => entry.write === write).length,
    answer: async (write, outcome) => {
      await waitFor(() => {
        if (!held.some((entry) => entry.write === write)) throw new Error(`No ${write} reached the server`);
      });
      const index = held.findIndex((entry) => entry.write === write);
      const [entry] = held.splice(index, 1);
      entry!.settle(outcome);
    },
    refuseNextPut: (status) => {
      refusePut = status;
    },
    tracks: new Map(videos.map((video) => [video.id, video.idiomasSubtitulos.map((idioma) => trackOf(video, idioma))])),
    subtitlePuts: [],
    refuseNextSubtitles: (detail) => {
      refuseSubtitles = detail;
    },
  };
  const hold = (write: Write) => new Promise<Outcome>((settle) => held.push({ write, settle }));

  server.use(
    http.get('/api/videos', ({ response }) =>
      response(200).json(stored, { headers: { 'X-Total-Count': String(stored.length) } }),
    ),
    http.get('/api/etiquetas', ({ response }) => response(200).json(TAGS)),
    http.get('/api/uploads/{id}', ({ params, response }) => {
      library.log.push(`GET /api/uploads/${params.id}`);
      library.uploadsAsked.push(params.id);
      if (!stored.some((video) => video.idExterno === params.id)) return problem(404, 'resource-not-found');
      return response(200).json({
        assetId: params.id,
        thumbnail: { uploadUrl: THUMBNAIL_LOCATION },
        estado: 'ready',
        recibido: 1000,
        duracion: 600,
        procesado: null,
        error: null,
      });
    }),
    http.put('/api/uploads/{id}/{file}', async ({ request, response }) => {
      const url = new URL(request.url);
      library.log.push(`PUT ${url.pathname}${url.search}`);
      library.puts.push({
        path: `${url.pathname}${url.search}`,
        contentType: request.headers.get('Content-Type'),
        bytes: new Uint8Array(await request.arrayBuffer()),
      });
      if (refusePut !== null) {
        const status = refusePut;
        refusePut = null;
        return problem(status, 'unsupported-media-type');
      }
      return response(204).empty();
    }),
    http.patch('/api/videos/{id}', async ({ params, request, response }) => {
      const body = await request.json();
      const id = Number(params.id);
      library.log.push(`PATCH ${id}`);
      library.patches.push(body);
      if ((await hold('PATCH')) === 'fail') return problem(500, 'internal-server-error');
      const video = stored.find((entry) => entry.id === id);
      if (!video) return problem(404, 'resource-not-found');
      const saved = { ...video };
      for (const operation of body) {
        if (operation.path === '/titulo') saved.titulo = operation.value;
        if (operation.path === '/shortDescription') saved.descripcionCorta = operation.value;
        if (operation.path === '/descripcion') saved.descripcion = operation.value ? operation.value : null;
        if (operation.path === '/etiquetas') saved.etiquetas = operation.value.map((tag) => tagById.get(tag)!);
        if (operation.path === '/isVisible') saved.isVisible = operation.value;
        if (operation.path === '/thumbnail') saved.urlThumbnail = `/api/media/${saved.idExterno}/thumbnail.jpg?expires=1&signature=t&v=2`;
      }
      stored = stored.map((entry) => (entry.id === id ? saved : entry));
      return response(200).json(saved);
    }),
    http.get('/api/videos/{id}/subtitulos', ({ params, response }) => response(200).json(library.tracks.get(Number(params.id)) ?? [])),
    http.put('/api/videos/{id}/subtitulos/{idioma}', async ({ params, request, response }) => {
      const id = Number(params.id);
      library.log.push(`PUT subtitulos ${id} ${params.idioma}`);
      library.subtitlePuts.push({ id, idioma: params.idioma, contentType: request.headers.get('Content-Type'), text: await request.text() });
      if (refuseSubtitles !== null) {
        const detail = refuseSubtitles;
        refuseSubtitles = null;
        return problem(400, 'invalid-subtitles', detail) as never;
      }
      const video = stored.find((entry) => entry.id === id)!;
      const existing = library.tracks.get(id) ?? [];
      const track = trackOf(video, params.idioma);
      library.tracks.set(id, [...existing.filter((entry) => entry.idioma !== params.idioma), track].sort((a, b) => a.idioma.localeCompare(b.idioma)));
      stored = stored.map((entry) => (entry.id === id ? { ...entry, idiomasSubtitulos: library.tracks.get(id)!.map((t) => t.idioma) } : entry));
      return response(existing.some((entry) => entry.idioma === params.idioma) ? 200 : 201).json(track);
    }),
    http.delete('/api/videos/{id}/subtitulos/{idioma}', ({ params, response }) => {
      const id = Number(params.id);
      library.log.push(`DELETE subtitulos ${id} ${params.idioma}`);
      library.tracks.set(id, (library.tracks.get(id) ?? []).filter((entry) => entry.idioma !== params.idioma));
      stored = stored.map((entry) => (entry.id === id ? { ...entry, idiomasSubtitulos: library.tracks.get(id)!.map((t) => t.idioma) } : entry));
      return response(204).empty();
    }),
    http.delete('/api/videos/{id}', async ({ params, response }) => {
      const id = Number(params.id);
      library.log.push(`DELETE ${id}`);
      library.deletes.push(id);
      if ((await hold('DELETE')) === 'fail') return problem(500, 'internal-server-error');
      stored = stored.filter((video) => video.id !== id);
      return response(204).empty();
    }),
  );
  return library;
}
