import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../../../tests/utils/render.tsx';
import { stubMatchMedia } from '../../../tests/utils/setup-ui.ts';
import { GRID_BREAKPOINTS, VideoGrid } from './video-grid.tsx';

interface Item {
  id: number;
  titulo: string;
}
const items = (count: number): Item[] => Array.from({ length: count }, (_, i) => ({ id: i + 1, titulo: `Video ${i + 1}` }));
const renderItem = (item: Item) => <p>{item.titulo}</p>;

/** A window as wide as `width`: the grid's media queries answer as a browser would. */
function stubWindowWidth(width: number) {
  const minWidth = (query: string) => Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? Infinity);
  stubMatchMedia((query) => width >= minWidth(query));
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.scrollY = 0;
});

const list = () => screen.getByRole('list', { name: 'Videos' });
const firstRowSize = () => list().querySelectorAll('[data-index="0"] [role="listitem"]').length;

describe('VideoGrid', () => {
  it("says 'No existen videos que se ajusten a estos filtros' when nothing matches", () => {
    renderWithTheme(<VideoGrid items={[]} renderItem={renderItem} label="Videos" />);
    expect(screen.getByText('No existen videos que se ajusten a estos filtros')).toBeVisible();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('keeps the DOM to a few rows for 10,000 videos', () => {
    renderWithTheme(<VideoGrid items={items(10_000)} renderItem={renderItem} label="Videos" columns={4} />);
    const rendered = within(list()).getAllByRole('listitem');
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThanOrEqual(40);
    expect(screen.getByText('Video 1')).toBeInTheDocument();
    expect(screen.queryByText('Video 10000')).not.toBeInTheDocument();
    expect(rendered[0]).toHaveAttribute('aria-setsize', '10000');
  });

  it.each([
    [375, 1],
    [700, 2],
    [1024, 3],
    [1440, 4],
  ])('lays out a %i px wide window in %i columns', (width, columns) => {
    stubWindowWidth(width);
    renderWithTheme(<VideoGrid items={items(12)} renderItem={renderItem} label="Videos" />);
    expect(firstRowSize()).toBe(columns);
  });

  it('uses the 639 px phone breakpoint of R-GEN-9 for one column', () => {
    expect(GRID_BREAKPOINTS.two).toBe('(min-width: 640px)');
  });

  it('asks for more when the last rows are in view, once, and not while loading or at the end', () => {
    const onEndReached = vi.fn();
    const { rerender } = renderWithTheme(
      <VideoGrid items={items(6)} renderItem={renderItem} label="Videos" columns={3} hasMore onEndReached={onEndReached} />,
    );
    expect(onEndReached).toHaveBeenCalledTimes(1);
    rerender(<VideoGrid items={items(6)} renderItem={renderItem} label="Videos" columns={3} hasMore loadingMore onEndReached={onEndReached} />);
    expect(screen.getByRole('status')).toHaveTextContent('Cargando más videos');
    expect(list()).toHaveAttribute('aria-busy', 'true');
    rerender(<VideoGrid items={items(6)} renderItem={renderItem} label="Videos" columns={3} hasMore={false} onEndReached={onEndReached} />);
    expect(onEndReached).toHaveBeenCalledTimes(1);
  });

  it('asks for more of a long list only once the user scrolled near its end', () => {
    const onEndReached = vi.fn();
    renderWithTheme(<VideoGrid items={items(400)} renderItem={renderItem} label="Videos" columns={4} hasMore onEndReached={onEndReached} />);
    expect(onEndReached).not.toHaveBeenCalled();
    act(() => {
      window.scrollY = 100 * 456 - 800;
      window.dispatchEvent(new Event('scroll'));
    });
    expect(screen.getByText('Video 400')).toBeInTheDocument();
    expect(screen.queryByText('Video 1')).not.toBeInTheDocument();
    expect(onEndReached).toHaveBeenCalledTimes(1);
  });

  it('marks a list of placeholders as busy', () => {
    renderWithTheme(<VideoGrid items={items(3)} renderItem={renderItem} label="Videos" busy />);
    expect(list()).toHaveAttribute('aria-busy', 'true');
  });
});
