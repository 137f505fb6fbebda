import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import { stubMatchMedia } from '../../tests/utils/setup-ui.ts';
import { AppHeader, HEADER_NAME_HIDDEN, type AppHeaderProps } from './app-header.tsx';

/** The header in a small router of its own (its links need one), at /videos. */
function renderHeader(props: AppHeaderProps) {
  const rootRoute = createRootRoute();
  const page = (path: string) => createRoute({ getParentRoute: () => rootRoute, path, component: () => <AppHeader {...props} /> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([page('/videos'), page('/statistics')]),
    history: createMemoryHistory({ initialEntries: ['/videos'] }),
  });
  renderWithTheme(<RouterProvider router={router} />);
  return router;
}

const openMenu = async (user: ReturnType<typeof userEvent.setup>, nombre: string) =>
  user.click(await screen.findByRole('button', { name: new RegExp(nombre) }));

describe('AppHeader', () => {
  it('shows the app title, the logo and the user’s name', async () => {
    renderHeader({ nombre: 'Ana Pérez', isAdmin: false, onLogout: () => {} });
    // The site's name, not a heading: each page has its own h1.
    expect(await screen.findByText('Contenido audiovisual TAO')).toBeVisible();
    expect(screen.getByText('Contenido audiovisual TAO').closest('.mantine-VisuallyHidden-root')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Contenido audiovisual TAO' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contenido audiovisual TAO' })).toHaveAttribute('href', '/videos');
    expect(screen.getByRole('button', { name: /Ana Pérez/ })).toHaveTextContent('Ana Pérez');
  });

  it('on a phone leaves the app title to assistive technology: the logo and the user’s name share the bar', async () => {
    stubMatchMedia((query) => query === HEADER_NAME_HIDDEN);
    try {
      renderHeader({ nombre: 'Ana Pérez', isAdmin: false, onLogout: () => {} });
      const title = await screen.findByText('Contenido audiovisual TAO');
      expect(title.closest('.mantine-VisuallyHidden-root')).not.toBeNull();
      expect(screen.getByRole('link', { name: 'Contenido audiovisual TAO' })).toHaveAttribute('href', '/videos');
      expect(screen.getByRole('button', { name: /Ana Pérez/ })).toHaveTextContent('Ana Pérez');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('gives a user only Cerrar sesión, which calls onLogout', async () => {
    const user = userEvent.setup();
    const onLogout = vi.fn();
    renderHeader({ nombre: 'Ana Pérez', isAdmin: false, onLogout });
    await openMenu(user, 'Ana Pérez');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Cerrar sesión']);
    await user.click(screen.getByRole('menuitem', { name: 'Cerrar sesión' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('gives an admin the admin entries; the ones without their dialog yet are disabled', async () => {
    const user = userEvent.setup();
    renderHeader({ nombre: 'Root', isAdmin: true, onLogout: () => {} });
    await openMenu(user, 'Root');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Subir video',
      'Administrar etiquetas',
      'Administrar usuarios',
      'Ver estadísticas',
      'Cerrar sesión',
    ]);
    for (const name of ['Subir video', 'Administrar etiquetas', 'Administrar usuarios']) {
      expect(screen.getByRole('menuitem', { name })).toBeDisabled();
    }
  });

  it("Subir video is enabled once the layout hands it the upload dialog, and opens it", async () => {
    const user = userEvent.setup();
    const onUploadVideo = vi.fn();
    renderHeader({ nombre: 'Root', isAdmin: true, onLogout: () => {}, onUploadVideo });
    await openMenu(user, 'Root');
    expect(screen.getByRole('menuitem', { name: 'Subir video' })).toBeEnabled();
    expect(screen.getByRole('menuitem', { name: 'Administrar etiquetas' })).toBeDisabled();
    await user.click(screen.getByRole('menuitem', { name: 'Subir video' }));
    expect(onUploadVideo).toHaveBeenCalledOnce();
  });

  it('Administrar etiquetas is enabled once the layout hands it the tag dialogs, and opens them', async () => {
    const user = userEvent.setup();
    const onManageTags = vi.fn();
    renderHeader({ nombre: 'Root', isAdmin: true, onLogout: () => {}, onManageTags });
    await openMenu(user, 'Root');
    expect(screen.getByRole('menuitem', { name: 'Administrar etiquetas' })).toBeEnabled();
    expect(screen.getByRole('menuitem', { name: 'Subir video' })).toBeDisabled();
    await user.click(screen.getByRole('menuitem', { name: 'Administrar etiquetas' }));
    expect(onManageTags).toHaveBeenCalledOnce();
  });

  // That it keeps the list's filters is the authenticated layout's doing: tests/ui/app-routes.test.tsx.
  it('Ver estadísticas goes to /statistics', async () => {
    const user = userEvent.setup();
    const router = renderHeader({ nombre: 'Root', isAdmin: true, onLogout: () => {} });
    await openMenu(user, 'Root');
    await user.click(screen.getByRole('menuitem', { name: 'Ver estadísticas' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/statistics'));
  });
});
