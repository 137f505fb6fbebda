import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../src/lib/query-client.ts';
import { createAppRouter } from '../../src/router.tsx';
import { ErrorPage } from '../../src/components/status-page.tsx';
import { renderWithTheme } from '../utils/render.tsx';

const b64url = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const tokenFor = (role: 'admin' | 'user') => `${b64url({ alg: 'HS256' })}.${b64url({ user: 'ana', role })}.signature`;

function renderApp(path: string, role?: 'admin' | 'user') {
  if (role) window.localStorage.setItem('token', tokenFor(role));
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  renderWithTheme(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** The search the matched page validated (location.search is the raw address). */
const pageSearch = (router: ReturnType<typeof renderApp>) => router.state.matches.at(-1)?.search;

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn()); // scroll restoration; jsdom has no scrolling
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string) => {
      const url = typeof input === 'string' ? input : input.url;
      const body = url.endsWith('/api/me') ? { nombre: 'Ana Pérez', role: 'admin' } : [];
      return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('status pages', () => {
  it('any unknown path shows 404 Página no encontrada', async () => {
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Página no encontrada')).toBeInTheDocument();
  });

  it('/Forbidden shows 405, its message and a link back to the list', async () => {
    renderApp('/Forbidden');
    expect(await screen.findByRole('heading', { name: '405' })).toBeInTheDocument();
    expect(screen.getByText('No tiene permiso para acceder a esta página')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /videos/i })).toHaveAttribute('href', '/videos');
  });

  it('the error page shows 500 Error inesperado and is every route’s error component', () => {
    const router = createAppRouter(createQueryClient());
    expect(router.options.defaultErrorComponent).toBe(ErrorPage);
    renderWithTheme(<ErrorPage />);
    expect(screen.getByRole('heading', { name: '500' })).toBeInTheDocument();
    expect(screen.getByText('Error inesperado')).toBeInTheDocument();
  });
});

describe('/statistics', () => {
  it('sends a signed-in non-admin to /Forbidden', async () => {
    const router = renderApp('/statistics', 'user');
    expect(await screen.findByRole('heading', { name: '405' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/Forbidden');
  });

  it('shows an admin the dashboard frame: header, back link, one tab, four empty tables, export', async () => {
    renderApp('/statistics?q=gatos&fav=eq:true', 'admin');
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
      expect(within(table).getByText('No se han encontrado datos')).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Exportar dashboard' })).toBeDisabled();
  });
});

describe('/videos', () => {
  it('shows the tabs and the search box; the tabs and Enter set the filters in the address', async () => {
    const user = userEvent.setup();
    const router = renderApp('/videos?q=gatos&score=5&tag=%7B%22a%22%3A1%7D', 'user');
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Todos', 'Favoritos', 'No vistos']);
    // Invalid values are dropped, numbers read back as text.
    expect(pageSearch(router)).toEqual({ q: 'gatos', score: '5' });
    expect(screen.getByRole('tab', { name: 'Todos' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: 'Favoritos' }));
    await waitFor(() => expect(pageSearch(router)).toEqual({ q: 'gatos', score: '5', fav: 'eq:true' }));
    expect(screen.getByRole('tab', { name: 'Favoritos' })).toHaveAttribute('aria-selected', 'true');

    const box = screen.getByRole('searchbox', { name: 'Buscar' });
    await user.clear(box);
    await user.type(box, '   {Enter}');
    expect(pageSearch(router)).toMatchObject({ q: 'gatos' });
    await user.type(box, 'perros{Enter}');
    await waitFor(() => expect(pageSearch(router)).toMatchObject({ q: 'perros', fav: 'eq:true' }));

    await user.click(screen.getByRole('tab', { name: 'Todos' }));
    await waitFor(() => expect(pageSearch(router)).toEqual({}));
  });

  it('/videos/$id has a Volver link that keeps the list’s filters, and the player frame', async () => {
    renderApp('/videos/7?q=gatos&fav=eq:true', 'user');
    expect(await screen.findByRole('link', { name: 'Volver' })).toHaveAttribute('href', '/videos?q=gatos&fav=eq%3Atrue');
    expect(screen.getByRole('region', { name: 'Reproductor de video' })).toBeInTheDocument();
  });
});
