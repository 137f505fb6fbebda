/**
 * The auth routes in the real app ('/', '/register', the '_auth' layout), with only the network
 * replaced: Mock Service Worker answers the API, its handlers typed against openapi.yaml.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getToken, storeToken } from '../../../src/lib/auth-token.ts';
import { authMessages, dialogMessages, loginMessage } from '../../../src/lib/messages.ts';
import { XSRF_TOKEN, http, problem, server, sessionToken } from '../../utils/msw.ts';
import { renderApp } from '../../utils/render-app.tsx';

const SESSION = sessionToken({ user: 'ana', role: 'user' });

describe("route '/'", () => {
  it('signs in with the second factor and goes to /videos', async () => {
    const sent: { login?: unknown; mfa?: unknown; mfaAuthorization?: string | null; xsrf?: string | null } = {};
    server.use(
      http.post('/api/login', async ({ request, response }) => {
        sent.login = await request.json();
        sent.xsrf = request.headers.get('X-XSRF-TOKEN');
        return response(200).json({ token: 'pending', otp: { state: 'OTP_ACTIVED', user: 'ana' } });
      }),
      http.post('/api/mfa', async ({ request, response }) => {
        const body = await request.json();
        sent.mfa = body;
        sent.mfaAuthorization = request.headers.get('Authorization');
        return body.mfaCode === '123456' ? response(200).json({ token: SESSION }) : problem(401, 'invalid-mfa-token');
      }),
    );
    const app = await renderApp('/');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(authMessages.user), 'ana');
    await user.type(screen.getByLabelText(authMessages.password), 'secreto');
    await user.click(screen.getByRole('button', { name: authMessages.enter }));
    const dialog = await screen.findByRole('dialog', { name: authMessages.mfaTitle });
    await user.type(within(dialog).getByPlaceholderText(authMessages.mfaCodePlaceholder), '123456');
    await user.click(within(dialog).getByRole('button', { name: authMessages.enter }));

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/videos'));
    expect(getToken()).toBe(SESSION);
    expect(sent).toEqual({
      login: { user: 'ana', password: 'secreto' },
      xsrf: XSRF_TOKEN,
      mfa: { user: 'ana', mfaCode: '123456' },
      mfaAuthorization: 'Bearer pending',
    });
    expect(await screen.findByRole('button', { name: /Ana Pérez/ })).toBeInTheDocument();
  });

  it('shows the R-AUTH-2 message of a refused login', async () => {
    server.use(http.post('/api/login', () => problem(401, 'wrong-password')));
    await renderApp('/');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(authMessages.user), 'ana');
    await user.type(screen.getByLabelText(authMessages.password), 'mala');
    await user.click(screen.getByRole('button', { name: authMessages.enter }));
    expect(await screen.findByRole('alert')).toHaveTextContent(loginMessage('wrong-password'));
    expect(screen.queryByRole('dialog', { name: dialogMessages.sessionExpiredTitle })).not.toBeInTheDocument();
  });
});

describe("route '/register'", () => {
  it('sends the invitation of the address as token', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/register', async ({ request, response }) => {
        sent = await request.json();
        return response(200).json({
          token: 'pending',
          otp: { state: 'OTP_REQUIRED', uri: 'otpauth://totp/TAO:ana?secret=ABC', user: 'ana' },
        });
      }),
    );
    await renderApp('/register?invitation=inv-42');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(authMessages.user), 'ana');
    await user.type(screen.getByLabelText(authMessages.password), 'Secreto12');
    await user.type(screen.getByLabelText(authMessages.confirmPassword), 'Secreto12');
    await user.click(screen.getByRole('button', { name: authMessages.enter }));
    expect(await screen.findByRole('dialog', { name: authMessages.mfaTitle })).toHaveTextContent(authMessages.mfaSetup);
    expect(sent).toEqual({ user: 'ana', password: 'Secreto12', token: 'inv-42' });
  });
});

describe('authenticated layout', () => {
  it('exchanges xwikiid for a session and removes it from the address, keeping the other parameters', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/login', async ({ request, response }) => {
        sent = await request.json();
        return response(200).json({ token: SESSION });
      }),
    );
    const app = await renderApp('/videos?xwikiid=abc&q=gato');
    await waitFor(() => expect(app.router.state.location.search).toEqual({ q: 'gato' }));
    expect(getToken()).toBe(SESSION);
    expect(sent).toEqual({ taoToken: 'abc' });
    expect(await screen.findByRole('button', { name: /Ana Pérez/ })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows a persistent toast and 'Sesión expirada' when single sign-on fails", async () => {
    storeToken(SESSION);
    server.use(http.post('/api/login', () => problem(401, 'tao-token expired')));
    await renderApp('/videos?xwikiid=viejo');
    expect(await screen.findByRole('dialog', { name: dialogMessages.sessionExpiredTitle })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('El token ha expirado');
    expect(getToken()).toBeNull();
  });

  it("shows 'Sesión expirada' without a token, and 'Iniciar sesión' leads to '/'", async () => {
    const app = await renderApp('/videos');
    const dialog = await screen.findByRole('dialog', { name: dialogMessages.sessionExpiredTitle });
    await userEvent.setup().click(within(dialog).getByRole('button', { name: dialogMessages.signIn }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    expect(screen.getByLabelText(authMessages.user)).toBeInTheDocument();
  });

  it("shows 'Sesión expirada' at once when a call answers 401", async () => {
    let calls = 0;
    server.use(
      http.get('/api/me', () => {
        calls += 1;
        return problem(401, 'invalid-access-token');
      }),
    );
    await renderApp('/videos', { token: SESSION });
    expect(await screen.findByRole('dialog', { name: dialogMessages.sessionExpiredTitle })).toBeInTheDocument();
    // Never retried (retries come 5 ms apart here): one call from the layout's loader, at most one more
    // if the header mounted after that answer.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBeLessThanOrEqual(2);
  });

  it("shows 'Error obteniendo datos' once a read has failed after its 3 retries, not before", async () => {
    const dialogOnScreen = () => screen.queryByRole('dialog', { name: dialogMessages.loadErrorTitle }) !== null;
    let calls = 0;
    let shownWhileRetrying = false;
    server.use(
      http.get('/api/me', () => {
        calls += 1;
        shownWhileRetrying ||= dialogOnScreen();
        return problem(500, 'internal-server-error');
      }),
    );
    await renderApp('/videos', { token: SESSION });
    expect(await screen.findByRole('dialog', { name: dialogMessages.loadErrorTitle })).toBeInTheDocument();
    expect(calls).toBeGreaterThanOrEqual(4);
    expect(shownWhileRetrying).toBe(false);
  });

  it("'Cerrar sesión' removes the token, forgets the user's data and leads to '/'", async () => {
    const app = await renderApp('/videos', { token: SESSION });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Ana Pérez/ }));
    expect(app.queryClient.getQueryCache().getAll().length).toBeGreaterThan(0);
    await user.click(await screen.findByRole('menuitem', { name: authMessages.logout }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    expect(getToken()).toBeNull();
    expect(app.queryClient.getQueryCache().getAll()).toEqual([]);
  });
});
