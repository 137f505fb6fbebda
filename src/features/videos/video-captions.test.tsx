/**
 * R-VID-20 … R-VID-29 on the video page in the real app, only the network replaced (Mock Service
 * Worker, typed against openapi.yaml). jsdom neither plays media nor parses WebVTT: the <video>'s
 * position and duration are stubbed as in video-detail.test.tsx, and each <track>'s TextTrack is a
 * small stand-in that "loads" the cues a browser would parse from the file once its mode is not
 * 'disabled' (as browsers do), then fires the element's 'load'.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { http, problem, server, sessionToken } from '../../../tests/utils/msw.ts';
import { renderApp } from '../../../tests/utils/render-app.tsx';

type Video = components['schemas']['Video'];
type Subtitulo = components['schemas']['Subtitulo'];

const XSS = '<img src=x onerror="alert(1)">';

const VIDEO: Video = {
  id: 7,
  idExterno: 'asset-7',
  titulo: 'Charla de bienvenida',
  descripcion: 'Índice:\n0:00 Presentación\n1:30 La *canción* del equipo\n1:02:03 fuera del video\nA las 10:30h, no es un tiempo.',
  descripcionCorta: 'Bienvenida',
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
  idiomasSubtitulos: ['en', 'es'],
  capitulos: [
    { inicio: 0, titulo: 'Presentación' },
    { inicio: 90, titulo: 'La canción del equipo' },
    { inicio: 300, titulo: 'Preguntas' },
  ],
  urlVideo: '/api/media/asset-7/video.mp4?expires=1&signature=v',
  etiquetas: [],
  isVisible: true,
  organizacionId: null,
  nombreUsuarioAlta: 'admin',
  posicion: 42,
};

const TRACKS: Subtitulo[] = [
  { idioma: 'en', etiqueta: 'Inglés', url: '/api/media/asset-7/subtitulos-en.vtt?expires=1&signature=en' },
  { idioma: 'es', etiqueta: 'Español', url: '/api/media/asset-7/subtitulos-es.vtt?expires=1&signature=es' },
];

/** The cues a browser would parse from each file: `VTTCue.text` keeps the file's tags and entities. */
const CUES: Record<string, Array<{ startTime: number; endTime: number; text: string }>> = {
  es: [
    { startTime: 1, endTime: 4, text: '<v Ana>Hola a <b>todos</b></v>' },
    { startTime: 5, endTime: 9, text: 'Hoy hablamos de la canción\ndel equipo' },
    { startTime: 95, endTime: 99, text: `Código &lt;b&gt; y ${XSS.replace(/</g, '&lt;')}` },
  ],
  en: [
    { startTime: 1, endTime: 4, text: 'Hello everyone' },
    { startTime: 5, endTime: 9, text: 'Today we talk about the team song' },
  ],
};

interface FakeTrack {
  mode: TextTrackMode;
  loaded: boolean;
  cues: Array<{ startTime: number; endTime: number; text: string; line: number | 'auto' }> | null;
}
const fakes = new WeakMap<HTMLTrackElement, FakeTrack>();
const trackDescriptors = {
  track: Object.getOwnPropertyDescriptor(HTMLTrackElement.prototype, 'track'),
  readyState: Object.getOwnPropertyDescriptor(HTMLTrackElement.prototype, 'readyState'),
};

/** A browser's TextTrack, as far as the page uses it: a mode, and cues once a mode other than 'disabled' made it load. */
function fakeTrackOf(element: HTMLTrackElement): FakeTrack {
  let fake = fakes.get(element);
  if (fake) return fake;
  let mode: TextTrackMode = 'disabled';
  const state: FakeTrack = {
    loaded: false,
    cues: null,
    get mode() {
      return mode;
    },
    set mode(next) {
      mode = next;
      if (next === 'disabled' || state.loaded) return;
      queueMicrotask(() => {
        state.loaded = true;
        state.cues = (CUES[element.srclang] ?? []).map((cue) => ({ ...cue, line: 'auto' as const }));
        element.dispatchEvent(new Event('load'));
      });
    },
  };
  fake = state;
  fakes.set(element, fake);
  return fake;
}

beforeEach(() => {
  Object.defineProperty(HTMLTrackElement.prototype, 'track', { configurable: true, get: function (this: HTMLTrackElement) { return fakeTrackOf(this); } });
  Object.defineProperty(HTMLTrackElement.prototype, 'readyState', { configurable: true, get: function (this: HTMLTrackElement) { return fakeTrackOf(this).loaded ? 2 : 0; } });
});

afterEach(() => {
  for (const [name, descriptor] of Object.entries(trackDescriptors)) {
    if (descriptor) Object.defineProperty(HTMLTrackElement.prototype, name, descriptor);
    else delete (HTMLTrackElement.prototype as unknown as Record<string, unknown>)[name];
  }
});

let subtitleGets: number;
let user: UserEvent;

function serve(video: Partial<Video> = {}) {
  const stored = { ...VIDEO, ...video };
  subtitleGets = 0;
  server.use(
    http.get('/api/videos/{id}', ({ response }) => response(200).json(stored)),
    http.get('/api/videos/{id}/subtitulos', ({ params, response }) => {
      if (params.id !== String(stored.id)) return problem(404, 'resource-not-found');
      subtitleGets += 1;
      return response(200).json(TRACKS.filter((track) => stored.idiomasSubtitulos.includes(track.idioma)));
    }),
    http.patch('/api/videos/{id}', ({ response }) => response(200).json(stored)),
    http.get('/api/videos', ({ response }) => response(200).json([])),
    http.get('/api/etiquetas', ({ response }) => response(200).json([])),
  );
}

beforeEach(() => {
  user = userEvent.setup();
});

const openPage = (path = '/videos/7') => renderApp(path, { token: sessionToken() });
const player = () => screen.getByLabelText(VIDEO.titulo) as HTMLVideoElement;
const tracks = () => [...player().querySelectorAll('track')];
const trackOf = (language: string) => tracks().find((track) => track.srclang === language)!;
const transcript = () => screen.getByRole('region', { name: 'Transcripción' });
const cueButtons = () => within(transcript()).queryAllByRole('button').filter((button) => button.closest('li'));

/** The media element as a browser would have it: a position that seeks record and report (timeupdate), a duration. */
function stubMedia(element: HTMLVideoElement, duration = 600) {
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

/** The media moves to `seconds` as it plays (timeupdate). */
function playTo(media: { currentTime: number }, seconds: number) {
  act(() => {
    media.currentTime = seconds;
    fireEvent(player(), new Event('timeupdate'));
  });
}

describe('captions (R-VID-20, R-VID-21)', () => {
  it('gives the one <video> a <track> per language and shows the page\'s language (es)', async () => {
    serve();
    await openPage();
    const video = player();
    await waitFor(() => expect(tracks()).toHaveLength(2));
    expect(player()).toBe(video);
    expect(tracks().map((track) => [track.kind, track.srclang, track.label, track.getAttribute('src')])).toEqual([
      ['subtitles', 'en', 'Inglés', TRACKS[0]!.url],
      ['subtitles', 'es', 'Español', TRACKS[1]!.url],
    ]);
    expect(trackOf('es').track.mode).toBe('showing');
    // Not shown, but parsed (the transcript's language switch), never 'disabled' (ADR 0121).
    expect(trackOf('en').track.mode).toBe('hidden');
    expect(screen.getByRole('button', { name: 'Subtítulos: Español' })).toBeInTheDocument();
    expect(subtitleGets).toBe(1);
  });

  it('shows none by default when the video has no Spanish track', async () => {
    serve({ idiomasSubtitulos: ['en'] });
    await openPage();
    await waitFor(() => expect(tracks()).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Subtítulos: Desactivados' })).toBeInTheDocument();
    // The transcript still reads it (hidden: parsed, not drawn).
    expect(trackOf('en').track.mode).toBe('hidden');
  });

  it('asks for no tracks when the video has none, and shows no menu, no transcript', async () => {
    serve({ idiomasSubtitulos: [], capitulos: [] });
    await openPage();
    await screen.findByRole('heading', { level: 1, name: VIDEO.titulo });
    expect(tracks()).toHaveLength(0);
    expect(subtitleGets).toBe(0);
    expect(screen.queryByRole('button', { name: /^Subtítulos/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Transcripción' })).not.toBeInTheDocument();
  });

  it('c turns the captions off and on again; the menu picks a language or Desactivados', async () => {
    serve();
    await openPage();
    await waitFor(() => expect(trackOf('es').track.mode).toBe('showing'));
    await user.keyboard('c');
    expect(trackOf('es').track.mode).toBe('hidden');
    expect(screen.getByRole('button', { name: 'Subtítulos: Desactivados' })).toBeInTheDocument();
    await user.keyboard('C');
    expect(trackOf('es').track.mode).toBe('showing');

    await user.click(screen.getByRole('button', { name: 'Subtítulos: Español' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Inglés', 'Español', 'Desactivados']);
    expect(within(menu).getByRole('menuitem', { name: 'Español' })).toHaveAttribute('aria-current', 'true');
    await user.click(within(menu).getByRole('menuitem', { name: 'Inglés' }));
    expect(trackOf('en').track.mode).toBe('showing');
    expect(trackOf('es').track.mode).toBe('hidden');
    // c again: off, then back in English (the last shown).
    await user.keyboard('c');
    expect(trackOf('en').track.mode).toBe('hidden');
    await user.keyboard('c');
    expect(trackOf('en').track.mode).toBe('showing');

    await user.click(screen.getByRole('button', { name: 'Subtítulos: Inglés' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Desactivados' }));
    expect(tracks().map((track) => track.track.mode)).toEqual(['hidden', 'hidden']);
  });
});

describe('the transcript (R-VID-22 … R-VID-25)', () => {
  it('lists every cue as plain text (markup is text, never HTML) and highlights the one playing', async () => {
    serve();
    await openPage();
    const media = stubMedia(player());
    await waitFor(() => expect(cueButtons()).toHaveLength(3));
    expect(within(transcript()).getByRole('heading', { level: 2, name: 'Transcripción' })).toBeInTheDocument();
    expect(cueButtons().map((button) => button.textContent)).toEqual([
      '0:01Hola a todos',
      '0:05Hoy hablamos de la canción del equipo',
      `1:35Código <b> y ${XSS}`,
    ]);
    expect(transcript().querySelector('img, b, v')).toBeNull();

    expect(cueButtons().filter((button) => button.getAttribute('aria-current'))).toEqual([]);
    playTo(media, 6.5);
    expect(cueButtons()[1]).toHaveAttribute('aria-current', 'true');
    expect(cueButtons().filter((button) => button.getAttribute('aria-current'))).toHaveLength(1);
    // Between cues nothing is current.
    playTo(media, 4.5);
    expect(cueButtons().filter((button) => button.getAttribute('aria-current'))).toEqual([]);
  });

  it('seeks to a cue clicked, or chosen with Enter', async () => {
    serve();
    await openPage();
    const media = stubMedia(player());
    await waitFor(() => expect(cueButtons()).toHaveLength(3));
    await user.click(cueButtons()[1]!);
    expect(media.currentTime).toBe(5);
    cueButtons()[2]!.focus();
    await user.keyboard('{Enter}');
    expect(media.currentTime).toBe(95);
  });

  it('searches ignoring accents and case, and says when nothing matches', async () => {
    serve();
    await openPage();
    await waitFor(() => expect(cueButtons()).toHaveLength(3));
    const search = within(transcript()).getByRole('searchbox', { name: 'Buscar en la transcripción' });
    await user.type(search, 'CANCION');
    expect(cueButtons().map((button) => button.textContent)).toEqual(['0:05Hoy hablamos de la canción del equipo']);
    expect(within(transcript()).getByRole('status')).toHaveTextContent('1 frase');
    await user.clear(search);
    await user.type(search, 'código');
    expect(cueButtons()).toHaveLength(1);
    await user.clear(search);
    await user.type(search, 'nada parecido');
    expect(cueButtons()).toHaveLength(0);
    expect(within(transcript()).getByRole('status')).toHaveTextContent('Ninguna frase contiene «nada parecido»');
    // Typing in the search is not a player shortcut.
    await user.type(search, ' c');
    expect(trackOf('es').track.mode).toBe('showing');
  });

  it('downloads the signed .vtt and a .txt with one cue per line and its times', async () => {
    serve();
    await openPage();
    await waitFor(() => expect(cueButtons()).toHaveLength(3));
    const vtt = within(transcript()).getByRole('link', { name: 'Descargar .vtt' });
    expect(vtt).toHaveAttribute('href', TRACKS[1]!.url);
    expect(vtt).toHaveAttribute('download', 'Charla de bienvenida.es.vtt');
    const txt = within(transcript()).getByRole('link', { name: 'Descargar .txt' });
    expect(txt).toHaveAttribute('download', 'Charla de bienvenida.es.txt');
    const href = txt.getAttribute('href')!;
    expect(href.startsWith('data:text/plain;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(href.slice(href.indexOf(',') + 1))).toBe(
      `[0:01 - 0:04] Hola a todos\n[0:05 - 0:09] Hoy hablamos de la canción del equipo\n[1:35 - 1:39] Código <b> y ${XSS}\n`,
    );
  });

  it('switches its language without touching the captions shown', async () => {
    serve();
    await openPage();
    await waitFor(() => expect(cueButtons()).toHaveLength(3));
    await user.selectOptions(within(transcript()).getByRole('combobox', { name: 'Idioma de la transcripción' }), 'en');
    await waitFor(() => expect(cueButtons()).toHaveLength(2));
    expect(cueButtons()[0]).toHaveTextContent('Hello everyone');
    expect(within(transcript()).getByRole('list')).toHaveAttribute('lang', 'en');
    expect(trackOf('es').track.mode).toBe('showing');
    expect(trackOf('en').track.mode).toBe('hidden');
    expect(within(transcript()).getByRole('link', { name: 'Descargar .vtt' })).toHaveAttribute('href', TRACKS[0]!.url);
  });
});

describe('chapters (R-VID-26, R-VID-27)', () => {
  it('marks the later chapters on the seek bar and names the chapter in its value text and preview', async () => {
    serve();
    await openPage();
    const media = stubMedia(player());
    fireEvent(player(), new Event('loadedmetadata'));
    const seek = screen.getByRole('slider', { name: 'Posición' });
    const root = seek.closest('.mantine-Slider-root')!;
    const marks = [...root.querySelectorAll<HTMLElement>('.mantine-Slider-markWrapper')];
    expect(marks.map((mark) => mark.style.getPropertyValue('--mark-offset'))).toEqual(['15%', '50%']);
    playTo(media, 100);
    expect(seek).toHaveAttribute('aria-valuetext', '1:40 de 10:00, La canción del equipo');
    act(() => seek.focus());
    expect(screen.getByText('La canción del equipo', { selector: '[data-chapter-name]' })).toBeInTheDocument();
  });

  it('lists the chapters, the one playing current, each seeking to its start', async () => {
    serve();
    await openPage();
    const media = stubMedia(player());
    const chapters = await screen.findByRole('region', { name: 'Capítulos' });
    const buttons = within(chapters).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['0:00Presentación', '1:30La canción del equipo', '5:00Preguntas']);
    playTo(media, 12);
    expect(buttons[0]).toHaveAttribute('aria-current', 'true');
    await user.click(buttons[2]!);
    expect(media.currentTime).toBe(300);
    fireEvent(player(), new Event('timeupdate'));
    expect(within(chapters).getAllByRole('button')[2]).toHaveAttribute('aria-current', 'true');
  });
});

describe('timestamps in the description (R-VID-29)', () => {
  it('makes the video\'s timestamps buttons that seek, keeping the marks; others stay text', async () => {
    serve();
    await openPage();
    const media = stubMedia(player());
    const description = await screen.findByRole('region', { name: 'Descripción' });
    const buttons = within(description).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['0:00', '1:30']);
    expect(within(description).getByText('canción').tagName).toBe('STRONG');
    // 1:02:03 is past the video's end; 10:30h is a time of day.
    expect(description).toHaveTextContent('1:02:03 fuera del video');
    expect(description).toHaveTextContent('A las 10:30h, no es un tiempo.');
    await user.click(buttons[1]!);
    expect(media.currentTime).toBe(90);
    buttons[0]!.focus();
    await user.keyboard('{Enter}');
    expect(media.currentTime).toBe(0);
  });
});

describe('the moment in the address (R-VID-28)', () => {
  it('?t= starts the video there, over the saved position', async () => {
    serve({ posicion: 42 });
    await openPage('/videos/7?t=95');
    const media = stubMedia(await waitFor(player));
    fireEvent(player(), new Event('loadedmetadata'));
    expect(media.seeks).toEqual([95]);
  });

  it('a ?t= past the end is ignored: the saved position is resumed', async () => {
    serve({ posicion: 42 });
    await openPage('/videos/7?t=9999');
    const media = stubMedia(await waitFor(player));
    fireEvent(player(), new Event('loadedmetadata'));
    expect(media.seeks).toEqual([42]);
  });

  it('Copiar enlace en este momento copies the page at the current second, with a toast', async () => {
    serve();
    await openPage();
    const media = stubMedia(player());
    playTo(media, 125.8);
    await user.click(screen.getByRole('button', { name: 'Copiar enlace en este momento' }));
    expect(await screen.findByText('Enlace copiado')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/videos/7?t=125`);
  });
});
