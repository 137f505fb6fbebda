import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, startProduct, type RunningProduct } from './harness.ts';
import { callApi, cli, registerThroughApi } from './session.ts';

const SECRET = 'e2e-identity-source-shared-secret-0123456789';
let product: RunningProduct;
let browser: Browser;
let page: Page;

function taoToken(claims: Record<string, unknown>, expiresIn: string | number = '5m'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(expiresIn).sign(new TextEncoder().encode(SECRET));
}

beforeAll(async () => {
  product = await startProduct({ SSO_HS256_SECRET: SECRET });
  [browser] = await Promise.all([launchBrowser(), cli(product, ['demo', '--videos', '2'], 300_000)]);
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('single sign-on from the organisation’s portal, in Chromium', () => {
  it('an expired token shows the persistent toast El token ha expirado and the session-expired dialog', async () => {
    const expired = await taoToken({ user: 'luisa', nombre: 'Luisa Gómez', organizacion: 'TAO Norte' }, Math.floor(Date.now() / 1000) - 60);
    await page.goto(`${product.url}/videos?xwikiid=${expired}`);
    await page.getByText('El token ha expirado').waitFor();
    await page.getByRole('dialog', { name: 'Sesión expirada' }).waitFor();
    await page.waitForTimeout(3500); // longer than an ordinary toast lives
    await expect(page.getByText('El token ha expirado').isVisible()).resolves.toBe(true);
    await screenshot(page, 'sso-expired');
  });

  it('a valid token signs the person in, provisions the account and removes xwikiid from the address', async () => {
    const token = await taoToken({ user: 'luisa', nombre: 'Luisa Gómez', organizacion: 'TAO Norte' });
    await page.goto(`${product.url}/videos?q=gato&xwikiid=${token}`);
    await page.getByText('Luisa Gómez').first().waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/videos');
    expect(url.searchParams.get('xwikiid')).toBeNull();
    expect(url.searchParams.get('q')).toBe('gato');
    await expect(page.evaluate(() => localStorage.getItem('token'))).resolves.toBeTruthy();
  });

  it('the provisioned person has the role user: no admin entries, and /statistics leads to /Forbidden', async () => {
    await page.getByRole('button', { name: /Luisa Gómez/ }).click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).waitFor();
    await expect(page.getByRole('menuitem', { name: 'Ver estadísticas' }).count()).resolves.toBe(0);
    await expect(page.getByRole('menuitem', { name: 'Subir video' }).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await page.goto(`${product.url}/statistics`);
    await page.waitForURL(/\/Forbidden$/);
    await page.getByText('No tiene permiso para acceder a esta página').waitFor();
    await expect(page.getByText('405', { exact: true }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'forbidden');
  });

  /** A fresh browser tab whose calls to the API without a session token (`anonymousCalls`) are answered only after `delayMs`. */
  async function pageWithSlowAnonymousCalls(delayMs: number): Promise<{ tab: Page; anonymousCalls: string[] }> {
    const tab = await browser.newPage();
    const anonymousCalls: string[] = [];
    await tab.route('**/api/**', async (route) => {
      const request = route.request();
      // Media are fetched by <img> and <video> with signed addresses, never with a token: not API calls.
      const { pathname } = new URL(request.url());
      if (request.headers()['authorization'] === undefined && pathname !== '/api/login' && !pathname.startsWith('/api/media/')) {
        anonymousCalls.push(`${request.method()} ${pathname}`);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      await route.continue();
    });
    return { tab, anonymousCalls };
  }

  it('a portal link never shows Sesión expirada after a valid sign-in, however late the other calls are answered', async () => {
    // The session begins when the token is exchanged; a call the page sent before that, without a
    // token, is refused 401 whenever it is answered. Answered late, it must not end the new session.
    const { tab, anonymousCalls } = await pageWithSlowAnonymousCalls(1500);
    const token = await taoToken({ user: 'luisa', nombre: 'Luisa Gómez', organizacion: 'TAO Norte' });
    await tab.goto(`${product.url}/videos?xwikiid=${token}`);
    await tab.getByRole('button', { name: /Luisa Gómez/ }).waitFor();
    await tab.waitForTimeout(2500);
    await expect(tab.getByRole('dialog').count()).resolves.toBe(0);
    await tab.getByRole('button', { name: /Luisa Gómez/ }).click({ timeout: 5000 });
    await tab.getByRole('menuitem', { name: 'Cerrar sesión' }).waitFor();
    // Nothing is asked in the old session's name while the portal's token is exchanged.
    expect(anonymousCalls).toEqual([]);
    await tab.close();
  });

  it('a portal link to a video opens that video signed in as the portal’s person, even with another person’s session stored', async () => {
    const other = await registerThroughApi(product, 'ramiro');
    const exchanged = await callApi(product, 'POST', '/api/login', { taoToken: await taoToken({ user: 'luisa', nombre: 'Luisa Gómez', organizacion: 'TAO Norte' }) });
    const list = (await (await fetch(`${product.url}/api/videos?limit=1&offset=0`, { headers: { Authorization: `Bearer ${String(exchanged.token)}` } })).json()) as { id: number; titulo: string }[];
    const video = list[0];
    if (!video) throw new Error('the demo library shows Luisa no video');
    const { tab, anonymousCalls } = await pageWithSlowAnonymousCalls(1500);
    await tab.goto(`${product.url}/`);
    await tab.evaluate((stored) => window.localStorage.setItem('token', stored), other.token);
    const detailReads: string[] = [];
    tab.on('request', (request) => {
      if (new URL(request.url()).pathname === `/api/videos/${video.id}`) detailReads.push(request.method());
    });
    await tab.goto(`${product.url}/videos/${video.id}?xwikiid=${await taoToken({ user: 'luisa', nombre: 'Luisa Gómez', organizacion: 'TAO Norte' })}`);
    await tab.getByRole('heading', { name: video.titulo }).waitFor();
    await tab.getByRole('button', { name: /Luisa Gómez/ }).waitFor();
    expect(new URL(tab.url()).pathname).toBe(`/videos/${video.id}`);
    expect(new URL(tab.url()).searchParams.get('xwikiid')).toBeNull();
    await tab.waitForTimeout(2000);
    await expect(tab.getByRole('dialog').count()).resolves.toBe(0);
    await expect(tab.getByRole('button', { name: /ramiro/ }).count()).resolves.toBe(0);
    expect(anonymousCalls).toEqual([]);
    // One opening, one read of the video (each read records a view).
    expect(detailReads.filter((method) => method === 'GET')).toHaveLength(1);
    await tab.close();
  });

  it('a portal link to /statistics for an administrator opens the statistics even when a user’s session is stored', async () => {
    const [user] = await Promise.all([registerThroughApi(product, 'tomas'), registerThroughApi(product, 'carmen', { admin: true })]);
    const tab = await browser.newPage();
    await tab.goto(`${product.url}/`);
    await tab.evaluate((stored) => window.localStorage.setItem('token', stored), user.token);
    // The portal signs in the administrator carmen, whose account already exists here.
    await tab.goto(`${product.url}/statistics?xwikiid=${await taoToken({ user: 'carmen', nombre: 'Carmen Ruiz', organizacion: 'TAO Norte' })}`);
    await tab.getByRole('heading', { name: 'Datos Generales', level: 1 }).waitFor();
    expect(new URL(tab.url()).pathname).toBe('/statistics');
    expect(new URL(tab.url()).searchParams.get('xwikiid')).toBeNull();
    await tab.close();
  });
});
