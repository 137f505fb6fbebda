/** The app's pages in the real router, with the API answered by Mock Service Worker (tests/utils/msw.ts). */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ErrorPage } from '../../src/components/status-page.tsx';
import { LazyErrorPage } from '../../src/components/lazy-status-pages.ts';
import { createApp } from '../../src/router.tsx';
import { ME, http, server, sessionToken } from '../utils/msw.ts';
import { renderApp } from '../utils/render-app.tsx';
import { serveVideo } from '../utils/serve-video.ts';
import { renderWithTheme } from '../utils/render.tsx';

type App = Awaited<ReturnType<typeof renderApp>>;

/** The search the matched page validated (location.search is the raw address). */
const pageSearch = (app: App) => app.router.state.matches.at(-1)?.search;
/** The filters the address carries (the layout names cleared ones as undefined). */
const definedSearch = (app: App) => Object.fromEntries(Object.entries(pageSearch(app) ?? {}).filter(([, value]) => value !== undefined));

const asAdmin = () => {
  server.use(
    http.get('/api/me', ({ response }) => response(200).json({ ...ME, nombre: 'Root', role: 'admin' })),
    // An empty dashboard: no info boxes, no rows, no days.
    http.get('/api/statistics', ({ response }) => response(200).json([])),
  );
  return { token: sessionToken({ role: 'admin' }) };
};

describe('status pages', () => {
  it('any unknown path shows 404 Página no encontrada', async () => {
    await renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Página no encontrada')).toBeInTheDocument();
  });

  it('/Forbidden shows 405, its message and a link back to the list', async () => {
    await renderApp('/Forbidden');
    expect(await screen.findByRole('heading', { name: '405' })).toBeInTheDocument();
    expect(screen.getByText('No tiene permiso para acceder a esta página')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /videos/i })).toHaveAttribute('href', '/videos');
  });

  it('the error page shows 500 Error inesperado and is every route’s error component', () => {
    const app = createApp();
    // Loaded when first shown (src/components/lazy-status-pages.ts): the lazy form of ErrorPage.
    expect(app.router.options.defaultErrorComponent).toBe(LazyErrorPage);
    app.dispose();
    renderWithTheme(<ErrorPage />);
    expect(screen.getByRole('heading', { name: '500' })).toBeInTheDocument();
    expect(screen.getByText('Error inesperado')).toBeInTheDocument();
  });
});

describe('/statistics', () => {
  it('sends a signed-in non-admin to /Forbidden', async () => {
    const app = await renderApp('/statistics', { token: sessionToken({ role: 'user' }) });
    expect(await screen.findByRole('heading', { name: '405' })).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/Forbidden');
  });

  it('shows an admin the dashboard frame: header, back link, one tab, four empty tables, export', async () => {
    await renderApp('/statistics?q=gatos&fav=eq:true', asAdmin());
    expect(await screen.findByRole('heading', { name: 'Datos Generales' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Volver' })).toHaveAttribute('href', '/videos?q=gatos&fav=eq%3Atrue');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['General']);
    const tables = {
      'Usuarios más activos': ['Usuario', 'Nombre', 'Videos vistos'],
      'Organizaciones con más videos visualizados': ['Organización', 'Videos vistos'],
      'Videos más visualizados': ['Videos', 'Visualizaciones'],
      'Videos mejor valorados': ['Videos', 'Puntuación'],
    };
    for (const [title, columns] of Object.entries(tables)) {
      const table = screen.getByRole('table', { name: title });
      expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(columns);
      expect(await within(table).findByText('No se han encontrado datos')).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Exportar dashboard' })).toBeEnabled();
  });

  it('Ver estadísticas and Volver keep the list’s filters, there and back', async () => {
    const user = userEvent.setup();
    const app = await renderApp('/videos?q=gatos&score=eq:5', asAdmin());
    await user.click(await screen.findByRole('button', { name: /Root/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ver estadísticas' }));
    expect(await screen.findByRole('heading', { name: 'Datos Generales' })).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/statistics');
    expect(pageSearch(app)).toEqual({ q: 'gatos', score: 'eq:5' });

    await user.click(screen.getByRole('link', { name: 'Volver' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/videos'));
    expect(pageSearch(app)).toEqual({ q: 'gatos', score: 'eq:5' });
    expect(screen.getByRole('searchbox', { name: 'Buscar' })).toHaveValue('gatos');
  });
});

describe('/videos', () => {
  it('shows the tabs and the search box; the tabs and Enter set the filters in the address', async () => {
    const user = userEvent.setup();
    const app = await renderApp('/videos?q=gatos&score=gte:4&tag=%7B%22a%22%3A1%7D&fav=maybe', { token: sessionToken() });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Todos', 'Favoritos', 'No vistos']);
    // Invalid values fall back to no filter: 'fav=maybe' does not select Favoritos, the object tag is dropped.
    await waitFor(() => expect(definedSearch(app)).toMatchObject({ q: 'gatos', score: 'gte:4' }));
    expect(definedSearch(app)).not.toHaveProperty('tag');
    expect(screen.getByRole('tab', { name: 'Todos' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: 'Favoritos' }));
    await waitFor(() => expect(definedSearch(app)).toEqual({ q: 'gatos', score: 'gte:4', fav: 'eq:true' }));
    expect(screen.getByRole('tab', { name: 'Favoritos' })).toHaveAttribute('aria-selected', 'true');

    // Each tab replaces the other's filter.
    await user.click(screen.getByRole('tab', { name: 'No vistos' }));
    await waitFor(() => expect(definedSearch(app)).toEqual({ q: 'gatos', score: 'gte:4', 'not-seen': 'eq:true' }));
    await user.click(screen.getByRole('tab', { name: 'Favoritos' }));
    await waitFor(() => expect(definedSearch(app)).toEqual({ q: 'gatos', score: 'gte:4', fav: 'eq:true' }));

    const box = screen.getByRole('searchbox', { name: 'Buscar' });
    await user.clear(box);
    await user.type(box, '   {Enter}');
    expect(pageSearch(app)).toMatchObject({ q: 'gatos' });
    await user.type(box, 'perros{Enter}');
    await waitFor(() => expect(pageSearch(app)).toMatchObject({ q: 'perros', fav: 'eq:true' }));

    await user.click(screen.getByRole('tab', { name: 'Todos' }));
    await waitFor(() => expect(definedSearch(app)).toEqual({}));
    expect(app.router.state.location.searchStr).toBe('');
  });

  it('/videos/$id has a Volver link that keeps the list’s filters, and the player frame', async () => {
    serveVideo();
    await renderApp('/videos/7?q=gatos&fav=eq:true', { token: sessionToken() });
    expect(await screen.findByRole('link', { name: 'Volver' })).toHaveAttribute('href', '/videos?q=gatos&fav=eq%3Atrue');
    expect(screen.getByRole('region', { name: 'Reproductor de video' })).toBeInTheDocument();
  });

  it('the title in the header leads back to the list, keeping its filters', async () => {
    serveVideo();
    await renderApp('/videos/7?q=gatos', { token: sessionToken() });
    expect(await screen.findByRole('link', { name: 'Contenido audiovisual TAO' })).toHaveAttribute('href', '/videos?q=gatos');
  });
});
