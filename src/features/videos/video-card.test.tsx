import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { renderWithTheme } from '../../../tests/utils/render.tsx';
import { stubIntersectionObserver, stubMatchMedia } from '../../../tests/utils/setup-ui.ts';
import { placeholderVideos, PLACEHOLDER_COUNT } from './placeholder-videos.ts';
import { PREVIEW_SETTLE_MS, thumbnailSrcSet, TOUCH_SCREEN_QUERY, VideoCard, type VideoCardProps } from './video-card.tsx';

type Video = components['schemas']['Video'];

const video: Video = {
  id: 42,
  idExterno: 'asset-42',
  titulo: 'Paseo por el parque',
  descripcion: 'Larga',
  descripcionCorta: 'Un *paseo* con _perros_',
  duracion: 205,
  puntuacionMedia: 3.5,
  puntuacion: null,
  favorito: false,
  visto: false,
  fechaAlta: '2024-03-05T12:00:00.000Z',
  urlThumbnail: '/media/42/thumb.jpg',
  urlPreview: '/media/42/preview.mp4',
  urlHls: null,
  urlStoryboard: null,
  idiomasSubtitulos: [],
  capitulos: [],
  urlVideo: '/media/42/video.mp4',
  etiquetas: [
    { id: 3, nombre: 'Arte' },
    { id: 7, nombre: 'Música' },
  ],
  isVisible: true,
  organizacionId: null,
  nombreUsuarioAlta: 'ana',
  posicion: null,
};

function renderCard(overrides: Partial<VideoCardProps> = {}, data: Partial<Video> = {}) {
  const props: VideoCardProps = {
    video: { ...video, ...data },
    isAdmin: false,
    detailLink: (v) => ({ href: `/videos/${v.id}?tag=in:3` }),
    tagLink: (tag) => ({ href: `/videos?tag=in:${tag.id}` }),
    onFavoriteChange: vi.fn(),
    onEdit: vi.fn(),
    onDelete: vi.fn(),
    ...overrides,
  };
  renderWithTheme(<VideoCard {...props} />);
  return props;
}

const card = () => screen.getByRole('article', { name: 'Paseo por el parque' });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('VideoCard', () => {
  it('shows the thumbnail, title, formatted short description, duration and average stars', () => {
    renderCard();
    const thumbnail = within(card()).getByRole('img', { name: 'Miniatura de Paseo por el parque' });
    expect(thumbnail).toHaveAttribute('src', '/media/42/thumb.jpg');
    expect(thumbnail).toHaveAttribute('loading', 'lazy');
    // decoded off the main thread where the browser can (docs/decisions/0040-thumbnails-previews-and-webp-copies.md)
    expect(thumbnail).toHaveAttribute('decoding', 'async');
    expect(within(card()).getByRole('heading', { level: 2 })).toHaveTextContent('Paseo por el parque');
    expect(within(card()).getByText('paseo', { selector: 'strong' })).toBeInTheDocument();
    expect(within(card()).getByText('perros', { selector: 'em' })).toBeInTheDocument();
    expect(within(card()).getByLabelText('Duración: 3:25')).toHaveTextContent('3:25');
    expect(within(card()).getByRole('img', { name: 'Puntuación media: 3,5 de 5' })).toBeInTheDocument();
  });

  it("offers the browser the thumbnail's card-sized copy beside the picture, with the card's width per window", () => {
    const url = '/api/media/asset-42/thumbnail.jpg?expires=1700000000&signature=abc&v=2';
    renderCard({}, { urlThumbnail: url });
    const thumbnail = within(card()).getByRole('img', { name: 'Miniatura de Paseo por el parque' });
    expect(thumbnail).toHaveAttribute('src', url);
    expect(thumbnail).toHaveAttribute('srcset', `${url}&w=400 400w, ${url} 640w`);
    expect(thumbnail.getAttribute('sizes')).toMatch(/^\(min-width: 1320px\) 310px, .*, calc\(100vw - 32px\)$/);
    expect(thumbnailSrcSet('/media/42/thumb.jpg')).toBe('/media/42/thumb.jpg?w=400 400w, /media/42/thumb.jpg 640w');
  });

  it('shows a placeholder image with a name when there is no thumbnail', () => {
    renderCard({}, { urlThumbnail: null });
    expect(within(card()).getByRole('img', { name: 'Miniatura de Paseo por el parque' }).tagName).not.toBe('IMG');
  });

  it("shows 'No visto' only for a video not seen", () => {
    renderCard();
    expect(within(card()).getByText('No visto')).toBeVisible();
  });

  it("has no 'No visto' chip once seen", () => {
    renderCard({}, { visto: true });
    expect(within(card()).queryByText('No visto')).not.toBeInTheDocument();
  });

  it('links the play button to the detail page and each tag to the list filtered by it', () => {
    renderCard();
    expect(within(card()).getByRole('link', { name: 'Reproducir Paseo por el parque' })).toHaveAttribute('href', '/videos/42?tag=in:3');
    const tags = within(within(card()).getByRole('list', { name: 'Etiquetas del video' }));
    expect(tags.getByRole('link', { name: 'Arte' })).toHaveAttribute('href', '/videos?tag=in:3');
    expect(tags.getByRole('link', { name: 'Música' })).toHaveAttribute('href', '/videos?tag=in:7');
  });

  it('links the picture and the title to the video, and tabs through picture, title, tags, then actions', async () => {
    renderCard({ isAdmin: true });
    const picture = within(card()).getByRole('link', { name: 'Reproducir Paseo por el parque' });
    const title = within(within(card()).getByRole('heading', { level: 2 })).getByRole('link', { name: 'Paseo por el parque' });
    expect(picture).toHaveAttribute('href', '/videos/42?tag=in:3');
    expect(title).toHaveAttribute('href', '/videos/42?tag=in:3');
    expect(within(picture).getByRole('img', { name: 'Miniatura de Paseo por el parque' })).toBeInTheDocument();
    const user = userEvent.setup();
    const order: string[] = [];
    for (let step = 0; step < 6; step += 1) {
      await user.tab();
      order.push(document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
    }
    expect(order).toEqual(['Reproducir Paseo por el parque', 'Paseo por el parque', 'Arte', 'Música', 'Favorito', 'Editar Paseo por el parque']);
  });

  it('renders the links with the given component (the router’s Link)', () => {
    const Link = ({ to, children, ...rest }: { to: string; children?: React.ReactNode }) => (
      <a data-router-link href={to} {...rest}>
        {children}
      </a>
    );
    renderCard({ linkComponent: Link, detailLink: (v) => ({ to: `/videos/${v.id}` }), tagLink: (t) => ({ to: `/videos?tag=in:${t.id}` }) });
    expect(screen.getByRole('link', { name: 'Reproducir Paseo por el parque' })).toHaveAttribute('data-router-link');
    expect(screen.getByRole('link', { name: 'Arte' })).toHaveAttribute('href', '/videos?tag=in:3');
  });

  it('toggles the favourite heart with the new value', async () => {
    const props = renderCard();
    const heart = within(card()).getByRole('button', { name: 'Favorito' });
    expect(heart).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(heart);
    expect(props.onFavoriteChange).toHaveBeenCalledWith(expect.objectContaining({ id: 42 }), true);
  });

  it('shows a favourite as a pressed heart that unfavourites', async () => {
    const props = renderCard({}, { favorito: true });
    const heart = within(card()).getByRole('button', { name: 'Favorito' });
    expect(heart).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(heart);
    expect(props.onFavoriteChange).toHaveBeenCalledWith(expect.objectContaining({ id: 42 }), false);
  });

  it('offers edit and delete to administrators only', async () => {
    renderCard();
    expect(screen.queryByRole('button', { name: 'Editar Paseo por el parque' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Eliminar Paseo por el parque' })).not.toBeInTheDocument();
  });

  it('calls edit and delete with the video for an administrator', async () => {
    const props = renderCard({ isAdmin: true });
    await userEvent.click(screen.getByRole('button', { name: 'Editar Paseo por el parque' }));
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar Paseo por el parque' }));
    expect(props.onEdit).toHaveBeenCalledWith(expect.objectContaining({ id: 42 }));
    expect(props.onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 42 }));
  });

  it('names an administrator\'s action in a tooltip under the pointer, put away once it is clicked (its dialog opens)', async () => {
    const user = userEvent.setup();
    renderCard({ isAdmin: true });
    const remove = screen.getByRole('button', { name: 'Eliminar Paseo por el parque' });
    await user.hover(remove);
    expect(await screen.findByRole('tooltip', {}, { timeout: 2000 })).toHaveTextContent('Eliminar Paseo por el parque');
    await user.unhover(remove);
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());

    const edit = screen.getByRole('button', { name: 'Editar Paseo por el parque' });
    await user.hover(edit);
    await user.click(edit);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('names every button and link', () => {
    renderCard({ isAdmin: true });
    for (const element of [...screen.getAllByRole('button'), ...screen.getAllByRole('link')]) {
      expect(element).toHaveAccessibleName();
    }
  });

  it('shows markup typed in the title and description as text', () => {
    renderCard({}, { titulo: '<img src=x onerror=alert(1)>', descripcionCorta: '<script>alert(1)</script><svg onload=alert(1)>' });
    const article = screen.getByRole('article');
    expect(article.querySelector('script, svg[onload], img[onerror]')).toBeNull();
    expect(within(article).getByRole('heading')).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(within(article).getByText('<script>alert(1)</script><svg onload=alert(1)>')).toBeInTheDocument();
  });
});

describe('VideoCard preview', () => {
  const preview = () => screen.queryByTestId('video-preview') as HTMLVideoElement | null;

  it('plays the muted looping preview while the pointer is over the card', async () => {
    renderCard();
    expect(preview()).toBeNull();
    await userEvent.hover(card());
    const element = preview()!;
    expect(element).toHaveAttribute('src', '/media/42/preview.mp4');
    expect(element.muted).toBe(true);
    expect(element).toHaveAttribute('loop');
    expect(element).toHaveAttribute('playsinline');
    expect(element).toHaveAttribute('autoplay');
    await userEvent.unhover(card());
    expect(preview()).toBeNull();
  });

  it('has no preview without a preview file', async () => {
    renderCard({}, { urlPreview: null });
    await userEvent.hover(card());
    expect(preview()).toBeNull();
  });

  /** A card on a touch screen, with fake timers (real again after each test): how much of it is in view is reported by `report`. */
  const touchScreenCard = () => {
    vi.useFakeTimers();
    stubMatchMedia((query) => query === TOUCH_SCREEN_QUERY);
    const { report } = stubIntersectionObserver();
    renderCard();
    return report;
  };

  it('on a touch screen plays the preview once most of the card has stayed in view a moment, not on hover', () => {
    const report = touchScreenCard();
    fireEvent.mouseEnter(card());
    expect(preview()).toBeNull();
    act(() => report(0.8));
    act(() => vi.advanceTimersByTime(PREVIEW_SETTLE_MS - 1));
    expect(preview()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(preview()).not.toBeNull();
    act(() => report(0.4));
    expect(preview()).toBeNull();
  });

  it('on a touch screen does not start the preview of a card the user scrolls past', () => {
    const report = touchScreenCard();
    act(() => report(0.9));
    act(() => vi.advanceTimersByTime(PREVIEW_SETTLE_MS / 2));
    expect(preview()).toBeNull();
    act(() => report(0.3));
    act(() => vi.advanceTimersByTime(PREVIEW_SETTLE_MS * 2));
    expect(preview()).toBeNull();
  });
});

describe('VideoCard placeholder (loading or failed list)', () => {
  it('provides 18 lorem samples', () => {
    const samples = placeholderVideos();
    expect(samples).toHaveLength(PLACEHOLDER_COUNT);
    expect(PLACEHOLDER_COUNT).toBe(18);
    expect(new Set(samples.map((sample) => sample.id)).size).toBe(18);
    expect(samples[0]!.titulo).toMatch(/^Lorem ipsum/);
  });

  it('shows the lorem text in a loading style, with nothing to click', () => {
    renderWithTheme(<VideoCard video={placeholderVideos(1)[0]!} placeholder />);
    const article = screen.getByRole('article');
    expect(article).toHaveAttribute('aria-busy', 'true');
    expect(within(article).getByText('Lorem ipsum dolor sit amet')).toBeInTheDocument();
    expect(article.querySelectorAll('.mantine-Skeleton-root[data-visible]').length).toBeGreaterThan(0);
    expect(within(article).queryAllByRole('link')).toEqual([]);
    expect(within(article).queryAllByRole('button')).toEqual([]);
  });
});
