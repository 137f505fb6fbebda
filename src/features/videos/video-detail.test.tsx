/**
 * The video detail page (/videos/{id}) in the real app, with only the network replaced: Mock
 * Service Worker answers the API with handlers typed against openapi.yaml. jsdom plays no media:
 * the <video> element's position and duration are stubbed and its events fired by the test.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { http, problem, server, sessionToken } from '../../../tests/utils/msw.ts';
import { renderApp } from '../../../tests/utils/render-app.tsx';
import { createTestQueryClient } from '../../../tests/utils/render-in-router.tsx';
import { renderWithTheme } from '../../../tests/utils/render.tsx';
import { createToastStore } from '../../lib/toasts.ts';
import { createVideoDetailLogic } from './video.actors.ts';
import { VideoDetail } from './video-detail.tsx';

type Video = components['schemas']['Video'];
type PatchOperation = components['schemas']['VideoPatchOperation'];

const XSS = '<img src=x onerror="alert(1)"><script>alert(2)</script>';

const VIDEO: Video = {
  id: 7,
  idExterno: 'asset-7',
  titulo: 'Reunión anual de equipos',
  descripcion: `*Importante*: revisen el _acta_ y el ~calendario~.\nSegunda línea ${XSS}`,
  descripcionCorta: 'Resumen de la reunión',
  duracion: 600,
  puntuacionMedia: 3.5,
  puntuacion: null,
  favorito: false,
  visto: true,
  // Midday UTC: the same calendar day in every time zone the tests may run in.
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

/** The fake server: the video as the user's state makes it, and what the page asked of it. */
let stored: Video;
let gets: number;
let patches: Array<{ body: PatchOperation[]; keepalive: boolean }>;
let failPatch: ((body: PatchOperation[]) => boolean) | null;
let user: UserEvent;

function serve(video: Partial<Video> = {}) {
  stored = { ...VIDEO, ...video };
  gets = 0;
  patches = [];
  failPatch = null;
  server.use(
    http.get('/api/videos/{id}', ({ params, response }) => {
      if (params.id !== String(stored.id)) return problem(404, 'resource-not-found');
      gets += 1;
      return response(200).json(stored);
    }),
    http.patch('/api/videos/{id}', async ({ request, response }) => {
      const body = await request.json();
      patches.push({ body, keepalive: request.keepalive });
      if (failPatch?.(body)) return problem(500, 'internal-server-error');
      for (const operation of body) {
        if (operation.path === '/puntuacion') {
          stored = { ...stored, puntuacion: operation.value, puntuacionMedia: operation.value === 1 ? 2.25 : 3.75 };
        }
        if (operation.path === '/favorito') stored = { ...stored, favorito: operation.value };
        if (operation.path === '/visto') stored = { ...stored, visto: operation.value };
        if (operation.path === '/posicion') stored = { ...stored, posicion: operation.value };
      }
      return response(200).json(stored);
    }),
    // The list, for the tests that go back to it.
    http.get('/api/videos', ({ response }) => response(200).json([])),
    http.get('/api/etiquetas', ({ response }) => response(200).json([])),
  );
}

beforeEach(() => {
  user = userEvent.setup();
});

const openPage = (path = '/videos/7') => renderApp(path, { token: sessionToken() });
const ratingGroup = () => screen.getByRole('radiogroup', { name: 'Su puntuación' });
const star = (name: string) => within(ratingGroup()).getByRole('radio', { name });
/** What a pointer user clicks: the star's label (the radio itself only previews the value). */
const starToClick = (name: string) => (star(name) as HTMLInputElement).labels![0]!;
const heart = () => screen.getByRole('button', { name: 'Favorito' });
const player = () => screen.getByLabelText(VIDEO.titulo) as HTMLVideoElement;
const patchesOf = (path: PatchOperation['path']) =>
  patches.filter(({ body }) => body.some((operation) => operation.path === path)).map(({ body }) => body);

/** The media element as a browser would have it: a position that seeks record, a duration. */
function stubMedia(element: HTMLVideoElement, duration: number) {
  const media = { currentTime: 0, seeks: [] as number[] };
  Object.defineProperties(element, {
    currentTime: {
      configurable: true,
      get: () => media.currentTime,
      set: (value: number) => {
        media.currentTime = value;
        media.seeks.push(value);
      },
    },
    duration: { configurable: true, get: () => duration },
    ended: { configurable: true, get: () => false },
  });
  return media;
}

describe('/videos/{id}: what the page shows', () => {
  it('shows the player, the title, the upload date, the tags and the description with its marks; markup typed by the author is text', async () => {
    serve();
    await openPage();
    expect(await screen.findByRole('heading', { level: 1, name: VIDEO.titulo })).toBeInTheDocument();

    const video = player();
    expect(video.tagName).toBe('VIDEO');
    // The player's own Spanish controls replace the browser's (R-VID-10).
    expect(video).not.toHaveAttribute('controls');
    expect(screen.getByRole('button', { name: 'Reproducir' })).toBeInTheDocument();
    expect(video).toHaveAttribute('preload', 'metadata');
    expect(video).toHaveAttribute('src', VIDEO.urlVideo);
    expect(video).toHaveAttribute('poster', VIDEO.urlThumbnail);
    expect(screen.getByRole('region', { name: 'Reproductor de video' })).toContainElement(video);

    // jsdom's language is en-US: month/day/year.
    expect(screen.getByText('Subido el 03/05/2026')).toBeInTheDocument();

    const description = screen.getByRole('region', { name: 'Descripción' });
    expect(within(description).getByText('Importante').tagName).toBe('STRONG');
    expect(within(description).getByText('acta').tagName).toBe('EM');
    expect(within(description).getByText('calendario').tagName).toBe('U');
    expect(description.querySelectorAll('br')).toHaveLength(1);
    // The payload is shown as the characters typed: no image, no script.
    expect(description).toHaveTextContent(`Segunda línea ${XSS}`);
    expect(description.querySelector('img, script, [onerror]')).toBeNull();

    const tags = screen.getByRole('list', { name: 'Etiquetas del video' });
    expect(within(tags).getAllByRole('link').map((link) => link.textContent)).toEqual(['Formación', 'Equipos']);

    expect(screen.getByRole('img', { name: 'Puntuación media: 3,5 de 5' })).toBeInTheDocument();
    expect(star('1 estrella')).not.toBeChecked();
    expect(heart()).toHaveAttribute('aria-pressed', 'false');
    expect(gets).toBe(1);
  });

  it('Volver returns to the list as it was; a tag leads to the list filtered by it', async () => {
    serve();
    const app = await openPage('/videos/7?q=gatos&fav=eq:true');
    const back = await screen.findByRole('link', { name: 'Volver' });
    expect(back).toHaveAttribute('href', '/videos?q=gatos&fav=eq%3Atrue');
    const tagLink = screen.getByRole('link', { name: 'Formación' });
    expect(new URL(tagLink.getAttribute('href')!, window.location.origin).searchParams.get('tag')).toBe('in:3');

    await user.click(tagLink);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/videos'));
    expect(app.router.state.matches.at(-1)?.search).toMatchObject({ tag: 'in:3' });
  });

  it('answers 404 from the API with the Página no encontrada page', async () => {
    serve();
    await openPage('/videos/8');
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Página no encontrada')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it.each(['abc', '007', '0', '2147483648', '1e3'])('shows 404 for the id %s without asking the API', async (id) => {
    // No handler: a call would fail the test.
    await openPage(`/videos/${id}`);
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Página no encontrada')).toBeInTheDocument();
  });
});

describe('/videos/{id}: rating and favourite', () => {
  it('rates: PATCH /puntuacion with the stars, the toast, and the stars and average of the answer', async () => {
    serve();
    await openPage();
    await user.click(starToClick('4 estrellas'));
    expect(await screen.findByText('Video puntuado con 4 estrellas')).toBeInTheDocument();
    expect(patchesOf('/puntuacion')).toEqual([[{ op: 'replace', path: '/puntuacion', value: 4 }]]);
    expect(star('4 estrellas')).toBeChecked();
    expect(screen.getByRole('img', { name: 'Puntuación media: 3,8 de 5' })).toBeInTheDocument();

    await user.click(starToClick('1 estrella'));
    expect(await screen.findByText('Video puntuado con 1 estrella')).toBeInTheDocument();
    expect(patchesOf('/puntuacion').at(-1)).toEqual([{ op: 'replace', path: '/puntuacion', value: 1 }]);
    expect(star('1 estrella')).toBeChecked();
    expect(screen.getByRole('img', { name: 'Puntuación media: 2,3 de 5' })).toBeInTheDocument();
    // The writes replaced the cached detail: the page did not ask for the video again.
    expect(gets).toBe(1);
  });

  it('tells when a rating was not saved and shows the previous one again, without the loading-error dialog', async () => {
    serve({ puntuacion: 2 });
    await openPage();
    failPatch = (body) => body[0]?.path === '/puntuacion';
    await user.click(starToClick('5 estrellas'));
    expect(await screen.findByText('Error al guardar la puntuación')).toBeInTheDocument();
    expect(star('2 estrellas')).toBeChecked();
    expect(screen.queryByText('Error obteniendo datos')).not.toBeInTheDocument();
  });

  it('adds to and removes from the favourites, with their toasts', async () => {
    serve();
    await openPage();
    await user.click(await screen.findByRole('button', { name: 'Favorito' }));
    expect(await screen.findByText('Video añadido a favoritos')).toBeInTheDocument();
    expect(heart()).toHaveAttribute('aria-pressed', 'true');
    await user.click(heart());
    expect(await screen.findByText('Video quitado de favoritos')).toBeInTheDocument();
    expect(heart()).toHaveAttribute('aria-pressed', 'false');
    expect(patchesOf('/favorito')).toEqual([
      [{ op: 'replace', path: '/favorito', value: true }],
      [{ op: 'replace', path: '/favorito', value: false }],
    ]);
  });

  it('tells when the favourite was not saved, each way', async () => {
    serve();
    await openPage();
    failPatch = (body) => body[0]?.path === '/favorito';
    await user.click(await screen.findByRole('button', { name: 'Favorito' }));
    expect(await screen.findByText('Error al añadir el video a favoritos')).toBeInTheDocument();
    expect(heart()).toHaveAttribute('aria-pressed', 'false');

    failPatch = null;
    await user.click(heart());
    await screen.findByText('Video añadido a favoritos');
    failPatch = (body) => body[0]?.path === '/favorito';
    await user.click(heart());
    expect(await screen.findByText('Error al quitar el video de favoritos')).toBeInTheDocument();
    expect(heart()).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('/videos/{id}: openings', () => {
  it('marks an unseen video seen once, however the page re-renders', async () => {
    serve({ visto: false });
    await openPage();
    await waitFor(() => expect(patchesOf('/visto')).toEqual([[{ op: 'replace', path: '/visto', value: true }]]));
    // Re-renders (a rating changes the cached video) ask nothing more.
    await user.click(starToClick('3 estrellas'));
    await screen.findByText('Video puntuado con 3 estrellas');
    expect(patchesOf('/visto')).toHaveLength(1);
  });

  it('does not mark a video already seen', async () => {
    serve({ visto: true });
    await openPage();
    await screen.findByRole('heading', { level: 1, name: VIDEO.titulo });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(patchesOf('/visto')).toEqual([]);
  });

  it('asks the server for the video once per opening (each records a view)', async () => {
    serve();
    const app = await openPage();
    await screen.findByRole('heading', { level: 1, name: VIDEO.titulo });
    expect(gets).toBe(1);
    await user.click(screen.getByRole('link', { name: 'Volver' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/videos'));
    // Opening it again asks again, although the video is still cached.
    await act(() => app.router.navigate({ to: '/videos/$id', params: { id: 7 } }));
    await screen.findByRole('heading', { level: 1, name: VIDEO.titulo });
    expect(gets).toBe(2);
  });

  it('a preload (the pointer over a link) is not an opening: it asks nothing', async () => {
    serve();
    const app = await openPage('/videos');
    await act(() => app.router.preloadRoute({ to: '/videos/$id', params: { id: 7 } }));
    expect(gets).toBe(0);
  });
});

describe('/videos/{id}: playback position', () => {
  it('resumes the saved position once the media knows its duration', async () => {
    serve({ posicion: 42 });
    await openPage();
    const media = stubMedia(await waitFor(player), 600);
    fireEvent(player(), new Event('loadedmetadata'));
    expect(media.seeks).toEqual([42]);
  });

  it('starts from the beginning when the saved position is in the last seconds', async () => {
    serve({ posicion: 597 });
    await openPage();
    const media = stubMedia(await waitFor(player), 600);
    fireEvent(player(), new Event('loadedmetadata'));
    expect(media.seeks).toEqual([]);
  });

  it('saves the position on pause and, with keepalive, when the user leaves the page', async () => {
    serve();
    const app = await openPage();
    const media = stubMedia(await waitFor(player), 600);
    fireEvent(player(), new Event('loadedmetadata'));
    fireEvent(player(), new Event('playing'));
    media.currentTime = 50.3;
    fireEvent(player(), new Event('pause'));
    await waitFor(() => expect(patches).toEqual([{ body: [{ op: 'replace', path: '/posicion', value: 50 }], keepalive: false }]));

    fireEvent(player(), new Event('playing'));
    media.currentTime = 61.8;
    fireEvent(player(), new Event('timeupdate'));
    await user.click(screen.getByRole('link', { name: 'Volver' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/videos'));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toEqual({ body: [{ op: 'replace', path: '/posicion', value: 61 }], keepalive: true });
    expect(stored.posicion).toBe(61);
  });
});

describe('VideoDetail in React’s StrictMode (development: effects run twice)', () => {
  it('marks the video seen once, and the player still resumes after the double mount', async () => {
    const queryClient = createTestQueryClient();
    const logic = createVideoDetailLogic(queryClient, createToastStore());
    const markSeen = vi.fn();
    const video = { ...VIDEO, visto: false, posicion: 30 };
    const rootRoute = createRootRoute({ component: () => <VideoDetail video={video} {...logic} markSeen={markSeen} /> });
    const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/videos/7'] }) });
    await act(async () => {
      renderWithTheme(
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router as never} />
        </QueryClientProvider>,
        { reactStrictMode: true },
      );
      await router.load();
    });
    await waitFor(player);
    expect(markSeen.mock.calls).toEqual([[VIDEO.id]]);
    const media = stubMedia(player(), 600);
    fireEvent(player(), new Event('loadedmetadata'));
    expect(media.seeks).toEqual([30]);
  });
});
