import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../../../tests/utils/render.tsx';
import { FavoriteToggle } from './favorite-toggle.tsx';
import { AverageStars, StarRating } from './star-rating.tsx';

const stars = () => within(screen.getByRole('radiogroup', { name: 'Su puntuación' })).getAllByRole('radio');

describe('StarRating (detail page)', () => {
  it('offers five stars named 1 estrella … 5 estrellas, showing the user’s rating', () => {
    renderWithTheme(<StarRating value={3} onChange={vi.fn()} />);
    expect(stars().map((star) => star.getAttribute('aria-label'))).toEqual([
      'Sin puntuación',
      '1 estrella',
      '2 estrellas',
      '3 estrellas',
      '4 estrellas',
      '5 estrellas',
    ]);
    expect(screen.getByRole('radio', { name: '3 estrellas' })).toBeChecked();
  });

  it("does nothing when 'Sin puntuación' is picked (a rating is 1 to 5)", async () => {
    const onChange = vi.fn();
    renderWithTheme(<StarRating value={3} onChange={onChange} />);
    await userEvent.tab();
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('radio', { name: 'Sin puntuación' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('rates with a click on a star', async () => {
    const onChange = vi.fn();
    renderWithTheme(<StarRating value={null} onChange={onChange} />);
    await userEvent.click((screen.getByRole('radio', { name: '4 estrellas' }) as HTMLInputElement).labels![0]!);
    expect(onChange).toHaveBeenCalledWith(4);
  });

  it('rates with the keyboard: Tab to the stars, arrows, then Enter', async () => {
    const onChange = vi.fn();
    renderWithTheme(<StarRating value={2} onChange={onChange} />);
    await userEvent.tab();
    expect(screen.getByRole('radio', { name: '2 estrellas' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('radio', { name: '4 estrellas' })).toHaveFocus();
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledWith(4);
  });

  it('cannot be changed while the rating is being saved', async () => {
    const onChange = vi.fn();
    renderWithTheme(<StarRating value={2} onChange={onChange} busy />);
    expect(screen.getByRole('radiogroup', { name: 'Su puntuación' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryAllByRole('radio')).toEqual([]);
  });
});

describe('AverageStars (cards)', () => {
  it('reads the average as one image, with a decimal comma', () => {
    renderWithTheme(<AverageStars value={3.46} />);
    expect(screen.getByRole('img', { name: 'Puntuación media: 3,5 de 5' })).toBeInTheDocument();
  });

  it('keeps an out-of-range average within 0 and 5', () => {
    renderWithTheme(
      <>
        <AverageStars value={7} />
        <AverageStars value={Number.NaN} />
      </>,
    );
    expect(screen.getByRole('img', { name: 'Puntuación media: 5 de 5' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Puntuación media: 0 de 5' })).toBeInTheDocument();
  });

  it('cannot be changed', () => {
    renderWithTheme(<AverageStars value={2} />);
    expect(screen.queryAllByRole('radio')).toEqual([]);
  });

  it.each([
    [3.46, ['full', 'full', 'full', 'half', 'empty']],
    [3.2, ['full', 'full', 'full', 'empty', 'empty']],
    [0.3, ['half', 'empty', 'empty', 'empty', 'empty']],
    [0, ['empty', 'empty', 'empty', 'empty', 'empty']],
    [5, ['full', 'full', 'full', 'full', 'full']],
  ])('fills the stars of %s to the nearest half star', (value, expected) => {
    renderWithTheme(<AverageStars value={value} />);
    const slots = [...screen.getByRole('img').children];
    expect(
      slots.map((slot) => {
        const filled = slot.querySelector<SVGElement>('svg[data-filled]');
        if (!filled) return 'empty';
        return filled.style.clipPath === 'inset(0 50% 0 0)' ? 'half' : 'full';
      }),
    ).toEqual(expected);
  });
});

describe('FavoriteToggle', () => {
  it('is a toggle button named Favorito: pressed for a favourite, calls back with the new value', async () => {
    const onChange = vi.fn();
    const { rerender } = renderWithTheme(<FavoriteToggle favorite={false} onChange={onChange} />);
    const heart = screen.getByRole('button', { name: 'Favorito' });
    expect(heart).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(heart);
    expect(onChange).toHaveBeenLastCalledWith(true);
    rerender(<FavoriteToggle favorite onChange={onChange} />);
    expect(screen.getByRole('button', { name: 'Favorito' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Favorito' }));
    expect(onChange).toHaveBeenLastCalledWith(false);
  });

  it('draws a filled heart for a favourite and an outlined one otherwise', () => {
    const { rerender } = renderWithTheme(<FavoriteToggle favorite onChange={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Favorito' }).querySelector('svg')).toHaveClass('tabler-icon-heart-filled');
    rerender(<FavoriteToggle favorite={false} onChange={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Favorito' }).querySelector('svg')).toHaveClass('tabler-icon-heart');
    expect(screen.getByRole('button', { name: 'Favorito' }).querySelector('svg')).not.toHaveClass('tabler-icon-heart-filled');
  });

  it('waits while the change is being saved', async () => {
    const onChange = vi.fn();
    renderWithTheme(<FavoriteToggle favorite={false} onChange={onChange} busy />);
    await userEvent.click(screen.getByRole('button', { name: 'Favorito' }));
    expect(onChange).not.toHaveBeenCalled();
  });
});
