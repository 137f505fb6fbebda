/**
 * What a card shows of captions (R-LIB-23…25): the administrators' 'Sin subtítulos' badge, and the
 * snippets of what was said that matches the search — «…», the matched words in <mark> from the
 * offsets, 'en 12:34', a link to that second — always as text, whatever the cue holds.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { PAYLOADS } from '../../../tests/e2e/xss-corpus.ts';
import { renderWithTheme } from '../../../tests/utils/render.tsx';
import { markedText, snippetWindow } from './caption-snippets.tsx';
import { VideoCard, type VideoCardProps } from './video-card.tsx';

type Video = components['schemas']['Video'];
type Coincidencia = components['schemas']['Coincidencia'];

const video: Video = {
  id: 42,
  idExterno: 'asset-42',
  titulo: 'Charla de seguridad',
  descripcion: null,
  descripcionCorta: 'Normas del laboratorio',
  duracion: 1800,
  puntuacionMedia: 0,
  puntuacion: null,
  favorito: false,
  visto: true,
  fechaAlta: '2026-11-05T12:00:00.000Z',
  urlThumbnail: null,
  urlPreview: null,
  urlHls: null,
  urlStoryboard: null,
  idiomasSubtitulos: [],
  capitulos: [],
  urlVideo: '/media/42/video.mp4',
  etiquetas: [],
  isVisible: true,
  organizacionId: null,
  nombreUsuarioAlta: 'ana',
  posicion: null,
};

const match = (inicio: number, texto: string, marcas: Coincidencia['marcas']): Coincidencia => ({ idioma: 'es', inicio, fin: inicio + 3, texto, marcas });

function renderCard(data: Partial<Video>, isAdmin = false) {
  const props: VideoCardProps = {
    video: { ...video, ...data },
    isAdmin,
    detailLink: (v) => ({ href: `/videos/${v.id}` }),
    momentLink: (v, second) => ({ href: `/videos/${v.id}?t=${second}` }),
    tagLink: (tag) => ({ href: `/videos?tag=in:${tag.id}` }),
    onFavoriteChange: vi.fn(),
  };
  renderWithTheme(<VideoCard {...props} />);
}

const card = () => within(screen.getByRole('article', { name: 'Charla de seguridad' }));
const snippets = () => within(card().getByRole('list', { name: 'Coincidencias en lo que se dice' }));

describe("the 'Sin subtítulos' badge", () => {
  it('shows to administrators on a video without captions, and to nobody else', () => {
    renderCard({ idiomasSubtitulos: [] }, true);
    expect(card().getByText('Sin subtítulos')).toBeVisible();
  });

  it('is not on a captioned video', () => {
    renderCard({ idiomasSubtitulos: ['es'] }, true);
    expect(card().queryByText('Sin subtítulos')).not.toBeInTheDocument();
  });

  it('is not shown to users', () => {
    renderCard({ idiomasSubtitulos: [] }, false);
    expect(card().queryByText('Sin subtítulos')).not.toBeInTheDocument();
  });
});

describe('the snippets of what was said', () => {
  it('show «…text…» with the matched words marked from the offsets and the time, linking to that second (floored)', () => {
    renderCard({
      coincidencias: [match(754.6, 'hay que llevar gafas de protección siempre', [{ desde: 15, hasta: 20 }, { desde: 24, hasta: 34 }]), match(1201, 'las gafas, otra vez', [{ desde: 4, hasta: 9 }])],
    });
    const links = snippets().getAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveTextContent('«…hay que llevar gafas de protección siempre…» en 12:34');
    expect(links[0]).toHaveAttribute('href', '/videos/42?t=754');
    expect([...links[0]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['gafas', 'protección']);
    expect(links[1]).toHaveTextContent('en 20:01');
    expect(links[1]).toHaveAttribute('href', '/videos/42?t=1201');
  });

  it('show at most two of the three the server may send', () => {
    renderCard({ coincidencias: [match(1, 'uno', [{ desde: 0, hasta: 3 }]), match(2, 'dos', [{ desde: 0, hasta: 3 }]), match(3, 'tres', [{ desde: 0, hasta: 4 }])] });
    expect(snippets().getAllByRole('link')).toHaveLength(2);
  });

  it('are not there without coincidencias', () => {
    renderCard({});
    expect(card().queryByRole('list', { name: 'Coincidencias en lo que se dice' })).not.toBeInTheDocument();
  });

  it('render every XSS payload in a cue as the text it is: no element, no handler, marks still from offsets', () => {
    const coincidencias = PAYLOADS.map((payload) => match(payload.n, payload.text, [{ desde: 0, hasta: Math.min(3, payload.text.length) }]));
    for (const coincidencia of coincidencias) {
      const { unmount } = renderWithTheme(<p data-testid="snippet">{markedText(coincidencia.texto, coincidencia.marcas)}</p>);
      const paragraph = screen.getByTestId('snippet');
      expect(paragraph.textContent).toBe(coincidencia.texto);
      // Only the one <mark> React built; nothing of the payload's markup became an element.
      expect([...paragraph.querySelectorAll('*')].map((element) => element.tagName)).toEqual(['MARK']);
      expect(paragraph.querySelector('[data-xss], [onerror], [onload], script, img, svg, iframe')).toBeNull();
      unmount();
    }
  });

  it('drop offsets outside the text or overlapping, and cut a long cue around its first match', () => {
    const nodes = markedText('abcdef', [{ desde: 4, hasta: 99 }, { desde: 1, hasta: 3 }, { desde: 2, hasta: 5 }, { desde: 9, hasta: 12 }]);
    const { container } = renderWithTheme(<p>{nodes}</p>);
    expect(container.querySelector('p')!.innerHTML).toBe('a<mark>bc</mark>d<mark>ef</mark>');
    const long = `${'x'.repeat(200)} palabra ${'y'.repeat(200)}`;
    const cut = snippetWindow(long, [{ desde: 201, hasta: 208 }]);
    expect(cut.texto.length).toBe(120);
    expect(cut.texto.slice(cut.marcas[0]!.desde, cut.marcas[0]!.hasta)).toBe('palabra');
  });
});
