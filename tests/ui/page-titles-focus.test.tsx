/**
 * Each page's own Spanish document title, and where the focus goes when a page is shown (R-GEN-5):
 * the sign-in form's first field, else the page's main heading after a navigation. The real app and
 * router, the API answered by Mock Service Worker.
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ME, http, server, sessionToken } from '../utils/msw.ts';
import { renderApp } from '../utils/render-app.tsx';
import { serveVideo } from '../utils/serve-video.ts';

const APP = 'Contenido audiovisual TAO';

const asAdmin = () => {
  server.use(
    http.get('/api/me', ({ response }) => response(200).json({ ...ME, nombre: 'Root', role: 'admin' })),
    http.get('/api/statistics', ({ response }) => response(200).json([])),
  );
  return { token: sessionToken({ role: 'admin' }) };
};

describe('document titles', () => {
  it.each([
    { path: '/', signedIn: false, title: `Iniciar sesión · ${APP}` },
    { path: '/register?invitation=abc', signedIn: false, title: `Registro · ${APP}` },
    { path: '/videos', signedIn: true, title: `Videos · ${APP}` },
    { path: '/Forbidden', signedIn: true, title: `Acceso no permitido · ${APP}` },
    { path: '/no-such-page', signedIn: false, title: `Página no encontrada · ${APP}` },
    { path: '/videos/0012', signedIn: true, title: `Página no encontrada · ${APP}` },
  ])('$path is "$title"', async ({ path, signedIn, title }) => {
    await renderApp(path, signedIn ? { token: sessionToken() } : {});
    await waitFor(() => expect(document.title).toBe(title));
  });

  it('/statistics is Estadísticas for an administrator', async () => {
    await renderApp('/statistics', asAdmin());
    await waitFor(() => expect(document.title).toBe(`Estadísticas · ${APP}`));
  });

  it("a video's page has the video's title", async () => {
    serveVideo();
    await renderApp('/videos/7', { token: sessionToken() });
    await waitFor(() => expect(document.title).toBe(`Reunión anual · ${APP}`));
  });

  it('changes with each navigation', async () => {
    serveVideo();
    const app = await renderApp('/videos', { token: sessionToken() });
    await waitFor(() => expect(document.title).toBe(`Videos · ${APP}`));
    await act(() => app.router.navigate({ to: '/videos/$id', params: { id: 7 } }));
    await waitFor(() => expect(document.title).toBe(`Reunión anual · ${APP}`));
    await act(() => app.router.navigate({ to: '/no-such-page' as '/' }));
    await waitFor(() => expect(document.title).toBe(`Página no encontrada · ${APP}`));
  });
});

describe('focus when a page is shown', () => {
  it('the sign-in page puts it in Usuario', async () => {
    await renderApp('/');
    await waitFor(() => expect(screen.getByLabelText('Usuario')).toHaveFocus());
  });

  it('the registration page leaves it to the person: starting with Contraseña says nothing about Usuario', async () => {
    await renderApp('/register?invitation=abc');
    const user = await screen.findByLabelText('Usuario');
    // Its fields are checked when left: a Usuario focused for them would be left empty by this click.
    await userEvent.click(screen.getByLabelText('Contraseña'));
    expect(screen.getByLabelText('Contraseña')).toHaveFocus();
    expect(user).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('* Este campo es obligatorio')).toBeNull();
  });

  it("the first page of a visit leaves it at the top; a navigation puts it on the new page's heading", async () => {
    serveVideo();
    const app = await renderApp('/videos', { token: sessionToken() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Videos' })).not.toHaveFocus();

    await act(() => app.router.navigate({ to: '/videos/$id', params: { id: 7 } }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Reunión anual' });
    await waitFor(() => expect(heading).toHaveFocus());
    // Focusable by script only: Tab does not stop on it.
    expect(heading).toHaveAttribute('tabindex', '-1');

    await act(() => app.router.navigate({ to: '/videos' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Videos' })).toHaveFocus());
  });

  it("the header's Ver estadísticas leads to the dashboard with the focus on its heading", async () => {
    const user = userEvent.setup();
    await renderApp('/videos', asAdmin());
    await user.click(await screen.findByRole('button', { name: /Root/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ver estadísticas' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Datos Generales' });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('typing a search (the address changes, not the page) leaves it in the search box', async () => {
    const user = userEvent.setup();
    const app = await renderApp('/videos', { token: sessionToken() });
    const box = await screen.findByRole('searchbox', { name: 'Buscar' });
    await user.type(box, 'gatos{Enter}');
    await waitFor(() => expect(app.router.state.location.search).toMatchObject({ q: 'gatos' }));
    expect(box).toHaveFocus();
  });
});
