/**
 * The auth routes in the real app router ('/', '/register', the '_auth' layout), with only
 * the network replaced: a fetch stub answers the API the way openapi.yaml says.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionActor } from '../../../src/features/auth/session-actor.ts';
import { toastStore } from '../../../src/features/toast/toast.store.ts';
import { getToken, storeToken } from '../../../src/lib/auth-token.ts';
import { authMessages, dialogMessages, loginMessage } from '../../../src/lib/messages.ts';
import { createQueryClient } from '../../../src/lib/query-client.ts';
import { createAppRouter } from '../../../src/router.tsx';
import { renderWithTheme } from '../../utils/render.tsx';

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const SESSION = `${base64url({ alg: 'HS256' })}.${base64url({ user: 'ana', role: 'user' })}.signature`;
const ME = { id: 1, user: 'ana', nombre: 'Ana Pérez', email: null, role: 'user', organizacion: null };

type Handler = (request: Request, body: unknown) => Response | undefined;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status < 400 ? 'application/json' : 'application/problem+json' },
  });
const problem = (status: number, type: string) => json({ type, title: type, status }, status);

let requests: Array<{ method: string; path: string; body: unknown; authorization: string | null }>;

function stubApi(handler: Handler) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(input, window.location.origin), init);
      const text = request.method === 'GET' ? '' : await request.clone().text();
      const body = text ? (JSON.parse(text) as unknown) : undefined;
      const path = new URL(request.url).pathname;
      requests.push({ method: request.method, path, body, authorization: request.headers.get('Authorization') });
      return handler(request, body) ?? (path === '/api/me' ? json(ME) : request.method === 'GET' ? json([]) : json({}, 204));
    }),
  );
}

async function openApp(url: string) {
  window.history.replaceState(null, '', url);
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient);
  await act(async () => {
    renderWithTheme(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await router.load();
  });
  return Object.assign(router, { queryClient });
}

beforeEach(() => {
  requests = [];
});

afterEach(async () => {
  vi.unstubAllGlobals();
  // The app's singletons outlive a render: leave the area and close the toasts.
  act(() => sessionActor.send({ type: 'session.leave' }));
  for (const entry of toastStore.getSnapshot()) toastStore.close(entry.id);
  await waitFor(() => expect(toastStore.getSnapshot()).toHaveLength(0));
});

describe("route '/'", () => {
  it('signs in with the second factor and goes to /videos', async () => {
    stubApi((request, body) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/login') return json({ token: 'pending', otp: { state: 'OTP_ACTIVED', user: 'ana' } });
      if (path === '/api/mfa')
        return (body as { mfaCode: string }).mfaCode === '123456' ? json({ token: SESSION }) : problem(401, 'invalid-mfa-token');
      return undefined;
    });
    const router = await openApp('/');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(authMessages.user), 'ana');
    await user.type(screen.getByLabelText(authMessages.password), 'secreto');
    await user.click(screen.getByRole('button', { name: authMessages.enter }));
    const dialog = await screen.findByRole('dialog', { name: authMessages.mfaTitle });
    await user.type(within(dialog).getByPlaceholderText(authMessages.mfaCodePlaceholder), '123456');
    await user.click(within(dialog).getByRole('button', { name: authMessages.enter }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/videos'));
    expect(getToken()).toBe(SESSION);
    expect(requests.find((call) => call.path === '/api/login')?.body).toEqual({ user: 'ana', password: 'secreto' });
    expect(requests.find((call) => call.path === '/api/mfa')).toMatchObject({
      body: { user: 'ana', mfaCode: '123456' },
      authorization: 'Bearer pending',
    });
    expect(await screen.findByRole('button', { name: /Ana Pérez/ })).toBeInTheDocument();
  });

  it('shows the §8 message of a refused login', async () => {
    stubApi(() => problem(401, 'wrong-password'));
    await openApp('/');
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
    stubApi((request) =>
      new URL(request.url).pathname === '/api/register'
        ? json({ token: 'pending', otp: { state: 'OTP_REQUIRED', uri: 'otpauth://totp/TAO:ana?secret=ABC', user: 'ana' } })
        : undefined,
    );
    await openApp('/register?invitation=inv-42');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(authMessages.user), 'ana');
    await user.type(screen.getByLabelText(authMessages.password), 'Secreto12');
    await user.type(screen.getByLabelText(authMessages.confirmPassword), 'Secreto12');
    await user.click(screen.getByRole('button', { name: authMessages.enter }));
    expect(await screen.findByRole('dialog', { name: authMessages.mfaTitle })).toHaveTextContent(authMessages.mfaSetup);
    expect(requests.find((call) => call.path === '/api/register')?.body).toEqual({
      user: 'ana',
      password: 'Secreto12',
      token: 'inv-42',
    });
  });
});

describe('authenticated layout', () => {
  it('exchanges xwikiid for a session and removes it from the address, keeping the other parameters', async () => {
    stubApi((request) => (new URL(request.url).pathname === '/api/login' ? json({ token: SESSION }) : undefined));
    const router = await openApp('/videos?xwikiid=abc&q=gato');
    await waitFor(() => expect(router.state.location.search).toEqual({ q: 'gato' }));
    expect(getToken()).toBe(SESSION);
    expect(requests.find((call) => call.path === '/api/login')?.body).toEqual({ taoToken: 'abc' });
    expect(await screen.findByRole('button', { name: /Ana Pérez/ })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows a persistent toast and 'Sesión expirada' when single sign-on fails", async () => {
    storeToken(SESSION);
    stubApi((request) => (new URL(request.url).pathname === '/api/login' ? problem(401, 'tao-token expired') : undefined));
    await openApp('/videos?xwikiid=viejo');
    expect(await screen.findByRole('dialog', { name: dialogMessages.sessionExpiredTitle })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('El token ha expirado');
    expect(getToken()).toBeNull();
  });

  it("shows 'Sesión expirada' without a token, and 'Iniciar sesión' leads to '/'", async () => {
    stubApi(() => undefined);
    const router = await openApp('/videos');
    const dialog = await screen.findByRole('dialog', { name: dialogMessages.sessionExpiredTitle });
    await userEvent.setup().click(within(dialog).getByRole('button', { name: dialogMessages.signIn }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.getByLabelText(authMessages.user)).toBeInTheDocument();
  });

  it("shows 'Sesión expirada' when a call answers 401", async () => {
    storeToken(SESSION);
    stubApi((request) => (new URL(request.url).pathname === '/api/me' ? problem(401, 'invalid-access-token') : undefined));
    await openApp('/videos');
    expect(await screen.findByRole('dialog', { name: dialogMessages.sessionExpiredTitle })).toBeInTheDocument();
  });

  it("shows 'Error obteniendo datos' when a read fails with a server error", async () => {
    storeToken(SESSION);
    stubApi((request) => (new URL(request.url).pathname === '/api/me' ? problem(500, 'internal-server-error') : undefined));
    await openApp('/videos');
    expect(await screen.findByRole('dialog', { name: dialogMessages.loadErrorTitle })).toBeInTheDocument();
  });

  it("'Cerrar sesión' removes the token, forgets the user's data and leads to '/'", async () => {
    storeToken(SESSION);
    stubApi(() => undefined);
    const router = await openApp('/videos');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Ana Pérez/ }));
    expect(router.queryClient.getQueryCache().getAll().length).toBeGreaterThan(0);
    await user.click(await screen.findByRole('menuitem', { name: authMessages.logout }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getToken()).toBeNull();
    expect(router.queryClient.getQueryCache().getAll()).toEqual([]);
  });
});
