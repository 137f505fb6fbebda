import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_FILTERS } from '../../../machines/video-filters/video-filters.ts';
import type { VideoFilters } from '../../../machines/video-filters/video-filters.types.ts';
import { theme } from '../../lib/theme.ts';
import { renderWithTheme } from '../../../tests/utils/render.tsx';
import { FilterChips, type FilterChipsProps } from './filter-chips.tsx';
import { TagFilterPopover } from './tag-filter-popover.tsx';
import { TAG_STRIP_STEP_PX, TagStrip } from './tag-strip.tsx';

const TAGS = [
  { id: 3, nombre: 'Arte' },
  { id: 5, nombre: 'Deportes' },
  { id: 7, nombre: 'Música' },
  { id: 9, nombre: 'Ciencia' },
];

function renderChips(filters: Partial<VideoFilters> = {}, props: Partial<FilterChipsProps> = {}) {
  const onChange = vi.fn();
  const onClear = vi.fn();
  renderWithTheme(
    <FilterChips filters={{ ...NO_FILTERS, ...filters }} tags={TAGS} onChange={onChange} onClear={onClear} locale="es-ES" {...props} />,
  );
  return { onChange, onClear };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('upload date chip', () => {
  it('offers Esta semana, Este mes, Últimos 6 meses, Este año and es despues de', async () => {
    const { onChange } = renderChips();
    await userEvent.click(screen.getByRole('button', { name: 'Fecha de subida' }));
    const menu = within(screen.getByRole('dialog', { name: 'Fecha de subida' }));
    expect(menu.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Esta semana',
      'Este mes',
      'Últimos 6 meses',
      'Este año',
      'es despues de',
    ]);
    await userEvent.click(menu.getByRole('button', { name: 'Últimos 6 meses' }));
    expect(onChange).toHaveBeenCalledWith({ uploadDate: { period: 'l6m' } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("'es despues de' opens a Spanish calendar without future days and applies the day picked", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2024, 4, 20, 12));
    try {
      const { onChange } = renderChips();
      await userEvent.click(screen.getByRole('button', { name: 'Fecha de subida' }));
      const menu = within(screen.getByRole('dialog', { name: 'Fecha de subida' }));
      await userEvent.click(menu.getByRole('button', { name: 'es despues de' }));
      // The month shown names the button that changes it (its visible text is its name, WCAG 2.5.3).
      expect(menu.getByRole('button', { name: 'mayo 2024' })).toBeEnabled();
      expect(menu.getByRole('button', { name: '21 mayo 2024' })).toBeDisabled();
      await userEvent.click(menu.getByRole('button', { name: '2 mayo 2024' }));
      expect(onChange).toHaveBeenCalledWith({ uploadDate: { after: '2024-05-02' } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the filter on the chip, with a clear control', async () => {
    const { onClear } = renderChips({ uploadDate: { after: '2024-05-02' } });
    expect(screen.getByRole('button', { name: 'es despues de 02/05/2024' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Quitar filtro de fecha de subida' }));
    expect(onClear).toHaveBeenCalledWith('uploadDate');
  });

  it('names the period on the chip', () => {
    renderChips({ uploadDate: { period: 'ty' } });
    expect(screen.getByRole('button', { name: 'Este año' })).toBeInTheDocument();
  });
});

describe('score chip', () => {
  it("opens 'Filtrar por puntuación' and applies a star at once, with no Aplicar button", async () => {
    const { onChange } = renderChips();
    await userEvent.click(screen.getByRole('button', { name: 'Puntuación' }));
    const popover = within(screen.getByRole('dialog', { name: 'Filtrar por puntuación' }));
    expect(popover.queryByRole('button', { name: 'Aplicar' })).not.toBeInTheDocument();
    await userEvent.click((popover.getByRole('radio', { name: '3 estrellas o más' }) as HTMLInputElement).labels![0]!);
    expect(onChange).toHaveBeenCalledWith({ score: { operator: 'gte', stars: 3 } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows the filter on the chip; 'Cualquier puntuación' or the clear control removes it", async () => {
    const { onClear } = renderChips({ score: { operator: 'gte', stars: 1 } });
    await userEvent.click(screen.getByRole('button', { name: '1 estrella o más' }));
    const popover = within(screen.getByRole('dialog', { name: 'Filtrar por puntuación' }));
    expect(popover.getByRole('radio', { name: '1 estrella o más' })).toBeChecked();
    await userEvent.click((popover.getByRole('radio', { name: 'Cualquier puntuación' }) as HTMLInputElement).labels![0]!);
    expect(onClear).toHaveBeenCalledWith('score');
    await userEvent.click(screen.getByRole('button', { name: 'Quitar filtro de puntuación' }));
    expect(onClear).toHaveBeenCalledTimes(2);
  });
});

describe('favourite chip', () => {
  it('sets and removes the favourite filter', async () => {
    const { onChange } = renderChips();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Favoritos' }));
    expect(onChange).toHaveBeenLastCalledWith({ favorite: true });
  });

  it('is ticked while the filter is on', async () => {
    const { onChange } = renderChips({ favorite: true });
    expect(screen.getByRole('checkbox', { name: 'Favoritos' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Favoritos' }));
    expect(onChange).toHaveBeenLastCalledWith({ favorite: null });
  });
});

describe('tag chip', () => {
  it("shows up to 3 names, then 'y N más'", () => {
    renderChips({ tagIds: [9, 3, 7, 5] });
    expect(screen.getByRole('button', { name: 'Ciencia, Arte, Música y 1 más' })).toBeInTheDocument();
  });

  it('applies the tags chosen in its popover', async () => {
    const { onChange } = renderChips();
    await userEvent.click(screen.getByRole('button', { name: 'Etiqueta' }));
    const popover = within(screen.getByRole('dialog', { name: 'Filtrar por etiquetas' }));
    await userEvent.type(popover.getByPlaceholderText('Introduzca un tag'), 'mus');
    await userEvent.click(popover.getByRole('checkbox', { name: 'Música' }));
    await userEvent.click(popover.getByRole('button', { name: 'Aplicar' }));
    expect(onChange).toHaveBeenCalledWith({ tagIds: [7] });
  });

  it('waits, like every chip, while the filters are being restored', () => {
    renderChips({}, { disabled: true });
    for (const name of ['Fecha de subida', 'Etiqueta', 'Puntuación']) expect(screen.getByRole('button', { name })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Favoritos' })).toBeDisabled();
  });
});

describe('popover animation (R-GEN-8: opens in 400 ms, closes in 200 ms)', () => {
  it('opens over 400 ms and closes over 200 ms', async () => {
    // Mantine's test environment skips transitions: render as the app does.
    render(
      <MantineProvider theme={theme}>
        <TagFilterPopover tags={TAGS} appliedIds={[]} onApply={vi.fn()} onClear={vi.fn()} />
      </MantineProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Etiqueta' }));
    const dropdown = await screen.findByRole('dialog', { name: 'Filtrar por etiquetas' });
    expect(dropdown.style.transitionDuration).toBe('400ms');
    // Without layout, Floating UI takes the chip for detached and hides the dropdown from queries.
    fireEvent.click(within(dropdown).getByRole('button', { name: 'Cancelar', hidden: true }));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(dropdown.style.transitionDuration).toBe('200ms');
  });
});

describe('TagStrip', () => {
  function overflowing(width: { scroll: number; client: number }) {
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(width.scroll);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(width.client);
  }

  it('scrolls 300 px per arrow press; at the start only the forward arrow shows', async () => {
    overflowing({ scroll: 1200, client: 500 });
    const scrollBy = vi.fn();
    HTMLElement.prototype.scrollBy = scrollBy as never;
    renderWithTheme(<TagStrip tags={TAGS} selectedIds={[]} onChange={vi.fn()} />);
    expect(TAG_STRIP_STEP_PX).toBe(300);
    // The arrows come with the row's first size, as the ResizeObserver reports it.
    await userEvent.click(await screen.findByRole('button', { name: 'Ver más etiquetas' }));
    expect(scrollBy).toHaveBeenLastCalledWith({ left: 300, behavior: 'smooth' });
    expect(screen.queryByRole('button', { name: 'Ver etiquetas anteriores' })).not.toBeInTheDocument();
  });

  it('the arrows lie over the row, so the chips stay put when they come and go', async () => {
    overflowing({ scroll: 1200, client: 500 });
    renderWithTheme(<TagStrip tags={TAGS} selectedIds={[]} onChange={vi.fn()} />);
    const forward = await screen.findByRole('button', { name: 'Ver más etiquetas' });
    const strip = screen.getByRole('group', { name: 'Etiquetas' });
    // the arrow's box is placed over the strip, out of the row's flow, and lets clicks through to the chips beside the button
    const shade = forward.parentElement!;
    expect(shade.parentElement).toBe(strip);
    expect(getComputedStyle(shade).position).toBe('absolute');
    expect(shade.style.pointerEvents).toBe('none');
    expect(forward.style.pointerEvents).toBe('auto');
  });

  it('at the end the forward arrow goes and the back one shows; the focus moves from the one that went to the other', async () => {
    overflowing({ scroll: 1200, client: 500 });
    let scrolled = 0;
    vi.spyOn(HTMLElement.prototype, 'scrollLeft', 'get').mockImplementation(() => scrolled);
    renderWithTheme(<TagStrip tags={TAGS} selectedIds={[]} onChange={vi.fn()} />);
    const forward = await screen.findByRole('button', { name: 'Ver más etiquetas' });
    forward.focus();
    const row = screen.getByRole('group', { name: 'Etiquetas' }).querySelector<HTMLElement>('[style*="overflow-x"]')!;
    scrolled = 300;
    fireEvent.scroll(row);
    // in the middle both show, and the focus stays where it was
    expect(await screen.findByRole('button', { name: 'Ver etiquetas anteriores' })).toBeInTheDocument();
    expect(forward).toHaveFocus();
    scrolled = 700;
    fireEvent.scroll(row);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Ver más etiquetas' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Ver etiquetas anteriores' })).toHaveFocus();
  });

  it('brings a chip reached with the keyboard wholly into view (its label too), clear of the arrows', async () => {
    // restored after each test (vi.restoreAllMocks)
    const scrollIntoView = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    renderWithTheme(<TagStrip tags={TAGS} selectedIds={[]} onChange={vi.fn()} />);
    const second = screen.getByRole('checkbox', { name: TAGS[1]!.nombre });
    act(() => second.focus());
    expect(scrollIntoView).toHaveBeenLastCalledWith({ block: 'nearest', inline: 'nearest' });
    const shown = scrollIntoView.mock.contexts.at(-1) as HTMLElement;
    expect(shown).toContainElement(second);
    expect(shown).toHaveTextContent(TAGS[1]!.nombre);
  });

  it('has no arrows when every tag fits', async () => {
    overflowing({ scroll: 400, client: 500 });
    renderWithTheme(<TagStrip tags={TAGS} selectedIds={[]} onChange={vi.fn()} />);
    // after the row's first size is reported
    await act(async () => {});
    expect(screen.queryByRole('button', { name: 'Ver más etiquetas' })).not.toBeInTheDocument();
  });

  it('adds a ticked tag to the filter and removes an unticked one', async () => {
    const onChange = vi.fn();
    renderWithTheme(<TagStrip tags={TAGS} selectedIds={[7]} onChange={onChange} />);
    const strip = within(screen.getByRole('group', { name: 'Etiquetas' }));
    expect(strip.getByRole('checkbox', { name: 'Música' })).toBeChecked();
    await userEvent.click(strip.getByRole('checkbox', { name: 'Arte' }));
    expect(onChange).toHaveBeenLastCalledWith([7, 3]);
    await userEvent.click(strip.getByRole('checkbox', { name: 'Música' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });
});

describe('subtitles chip (administrators, R-LIB-26)', () => {
  it('offers Con subtítulos and Sin subtítulos, shows the choice and clears it', async () => {
    const { onChange } = renderChips({}, { withSubtitlesFilter: true });
    await userEvent.click(screen.getByRole('button', { name: 'Subtítulos' }));
    const menu = within(screen.getByRole('dialog', { name: 'Filtrar por subtítulos' }));
    expect(menu.getAllByRole('button').map((button) => button.textContent)).toEqual(['Con subtítulos', 'Sin subtítulos']);
    await userEvent.click(menu.getByRole('button', { name: 'Sin subtítulos' }));
    expect(onChange).toHaveBeenCalledWith({ subtitles: 'sin' });
  });

  it('shows the filter in effect with its clear control', async () => {
    const { onClear } = renderChips({ subtitles: 'con' }, { withSubtitlesFilter: true });
    expect(screen.getByRole('button', { name: 'Con subtítulos' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Quitar filtro de subtítulos' }));
    expect(onClear).toHaveBeenCalledWith('subtitles');
  });

  it('is not there for users', () => {
    renderChips();
    expect(screen.queryByRole('button', { name: 'Subtítulos' })).not.toBeInTheDocument();
  });
});
