/**
 * The selection mode beyond the machine's walk (selection.test-support.ts serves the library): who
 * sees it, what a checkbox click does and does not do, the cards kept as they are, the count's
 * wording and announcement, and where the focus goes.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { sessionToken } from '../../../../tests/utils/msw.ts';
import { renderApp } from '../../../../tests/utils/render-app.tsx';
import { fakeVideo, serveSelectionLibrary } from './selection.test-support.ts';

const VIDEOS = [fakeVideo(1, 'Bienvenida al equipo'), fakeVideo(2, 'Cierre del trimestre')];

async function openLibrary(role: 'admin' | 'user') {
  const library = serveSelectionLibrary(VIDEOS);
  const app = await renderApp('/videos', { token: sessionToken({ role }) });
  await screen.findByRole('heading', { level: 2, name: VIDEOS[0]!.titulo });
  return { library, app };
}

const bar = () => screen.getByRole('region', { name: 'Videos seleccionados' });

describe('the selection mode of the list', () => {
  it('is offered to administrators only (R-ADM-15)', async () => {
    await openLibrary('user');
    expect(screen.queryByRole('button', { name: 'Seleccionar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /^Seleccionar «/ })).not.toBeInTheDocument();
  });

  it('ticks a card without opening it, keeps its play link, and counts in the singular (R-ADM-15)', async () => {
    const user = userEvent.setup();
    const { app } = await openLibrary('admin');
    const playLink = screen.getByRole('link', { name: 'Reproducir Bienvenida al equipo' });
    await user.click(screen.getByRole('button', { name: 'Seleccionar' }));
    expect(screen.getByRole('button', { name: 'Seleccionar' })).toHaveAttribute('aria-pressed', 'true');
    const status = within(bar()).getByRole('status');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveTextContent('0 videos seleccionados');

    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar «Bienvenida al equipo»' }));
    expect(status).toHaveTextContent('1 video seleccionado');
    expect(app.router.state.location.pathname).toBe('/videos');
    // The same link element, not a new one (the card was not remounted).
    expect(screen.getByRole('link', { name: 'Reproducir Bienvenida al equipo' })).toBe(playLink);

    await user.click(within(bar()).getByRole('button', { name: 'Seleccionar todos' }));
    expect(status).toHaveTextContent('2 videos seleccionados');
    expect(within(bar()).getByRole('button', { name: 'Seleccionar todos' })).toBeDisabled();
  });

  it('leaves with Escape, puts the focus back on Seleccionar, and keeps the cards (R-ADM-15)', async () => {
    const user = userEvent.setup();
    await openLibrary('admin');
    const playLink = screen.getByRole('link', { name: 'Reproducir Cierre del trimestre' });
    await user.click(screen.getByRole('button', { name: 'Seleccionar' }));
    const box = screen.getByRole('checkbox', { name: 'Seleccionar «Cierre del trimestre»' });
    await user.click(box);
    expect(box).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Videos seleccionados' })).not.toBeInTheDocument());
    expect(screen.queryByRole('checkbox', { name: /^Seleccionar «/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Seleccionar' })).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Reproducir Cierre del trimestre' })).toBe(playLink);
    // Entering again starts from nothing selected.
    await user.click(screen.getByRole('button', { name: 'Seleccionar' }));
    expect(within(bar()).getByRole('status')).toHaveTextContent('0 videos seleccionados');
  });

  it('keeps the selection after a refused batch, saying why in Spanish (R-ADM-19)', async () => {
    const user = userEvent.setup();
    const { library } = await openLibrary('admin');
    await user.click(screen.getByRole('button', { name: 'Seleccionar' }));
    await user.click(within(bar()).getByRole('button', { name: 'Seleccionar todos' }));
    await user.click(within(bar()).getByRole('button', { name: 'Eliminar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar videos' });
    expect(within(dialog).getByText('¿Eliminar 2 videos?')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await library.answer({ problem: { status: 400, type: 'validation-error', detail: 'query.ids: must match pattern' } });
    expect(await screen.findByText('No se han podido eliminar los videos: la petición no es válida')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Eliminar videos' })).not.toBeInTheDocument());
    expect(within(bar()).getByRole('status')).toHaveTextContent('2 videos seleccionados');
    for (const video of VIDEOS) expect(screen.getByRole('checkbox', { name: `Seleccionar «${video.titulo}»` })).toBeChecked();
    expect(library.videos()).toHaveLength(2);
  });
});
