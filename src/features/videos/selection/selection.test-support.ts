/**
 * The fake library server of the selection tests: typed MSW handlers over three videos, with the
 * batch writes (PATCH and DELETE /api/videos) held until the test answers them, so the busy state
 * can be looked at; an answer applies the batch to the videos still there and reports 404 for the others.
 */
import { waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import type { components } from '../../../../contract/openapi.gen.ts';
import { http, problem, server } from '../../../../tests/utils/msw.ts';
import { VIDEO } from '../manage/manage.test-support.ts';

type Video = components['schemas']['Video'];
type Etiqueta = components['schemas']['Etiqueta'];
type BatchPatch = components['schemas']['VideosBatchPatch'];
type Outcome = components['schemas']['VideosBatchResult']['resultados'][number];
type ProblemType = components['schemas']['ProblemType'];

export const SELECTION_TAGS: Etiqueta[] = [
  { id: 3, nombre: 'Formación' },
  { id: 5, nombre: 'Ventas' },
];

/** A video of the fake library: id and title, the rest as the manage tests' video. */
export function fakeVideo(id: number, titulo: string): Video {
  return { ...VIDEO, id, idExterno: `asset-${id}`, titulo, etiquetas: [SELECTION_TAGS[0]!], urlThumbnail: null };
}

export type BatchAnswer = { ok: true } | { problem: { status: number; type: string; detail?: string } } | { network: true };

export interface FakeBatchServer {
  videos: () => Video[];
  /** The batch requests received, oldest first: a PATCH's body, a DELETE's ids. */
  requests: Array<{ method: 'PATCH'; body: BatchPatch } | { method: 'DELETE'; ids: number[] }>;
  held: () => number;
  /** Answers the oldest held batch (waits until one arrives). */
  answer: (answer: BatchAnswer) => Promise<void>;
  /** Another administrator deletes a video meanwhile. */
  remove: (id: number) => void;
}

export function serveSelectionLibrary(videos: Video[]): FakeBatchServer {
  let stored = videos.map((video) => ({ ...video }));
  const held: Array<(answer: BatchAnswer) => void> = [];
  const hold = () => new Promise<BatchAnswer>((settle) => held.push(settle));
  const refused = (answer: BatchAnswer) =>
    'network' in answer ? HttpResponse.error() : 'problem' in answer ? problem(answer.problem.status, answer.problem.type as ProblemType, answer.problem.detail) : null;
  const fake: FakeBatchServer = {
    videos: () => stored,
    requests: [],
    held: () => held.length,
    answer: async (answer) => {
      await waitFor(() => {
        if (held.length === 0) throw new Error('No batch reached the server');
      });
      held.shift()!(answer);
    },
    remove: (id) => {
      stored = stored.filter((video) => video.id !== id);
    },
  };
  server.use(
    http.get('/api/videos', ({ response }) => response(200).json(stored, { headers: { 'X-Total-Count': String(stored.length) } })),
    http.get('/api/etiquetas', ({ response }) => response(200).json(SELECTION_TAGS)),
    http.patch('/api/videos', async ({ request, response }) => {
      const body = await request.json();
      fake.requests.push({ method: 'PATCH', body });
      const answer = await hold();
      const refusal = refused(answer);
      if (refusal) return refusal as never;
      const resultados: Outcome[] = body.ids.map((id) => {
        const video = stored.find((entry) => entry.id === id);
        if (!video) return { id, status: 404, type: 'resource-not-found' };
        let etiquetas = [...video.etiquetas];
        let { isVisible } = video;
        for (const operation of body.operaciones) {
          if (operation.op === 'add' && !etiquetas.some((tag) => tag.id === operation.value)) etiquetas.push(SELECTION_TAGS.find((tag) => tag.id === operation.value)!);
          if (operation.op === 'remove') etiquetas = etiquetas.filter((tag) => `/etiquetas/${tag.id}` !== operation.path);
          if (operation.op === 'replace') isVisible = operation.value;
        }
        stored = stored.map((entry) => (entry.id === id ? { ...entry, etiquetas, isVisible } : entry));
        return { id, status: 200 };
      });
      return response(200).json({ resultados });
    }),
    http.delete('/api/videos', async ({ request, response }) => {
      const ids = (new URL(request.url).searchParams.get('ids') ?? '').split(',').map(Number);
      fake.requests.push({ method: 'DELETE', ids });
      const answer = await hold();
      const refusal = refused(answer);
      if (refusal) return refusal as never;
      const resultados: Outcome[] = ids.map((id) =>
        stored.some((video) => video.id === id) ? { id, status: 204 } : { id, status: 404, type: 'resource-not-found' },
      );
      stored = stored.filter((video) => !ids.includes(video.id));
      return response(200).json({ resultados });
    }),
  );
  return fake;
}
