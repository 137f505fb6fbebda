import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, startProduct, type RunningProduct } from './harness.ts';

const SECRET = 'e2e-identity-source-shared-secret-0123456789';
let product: RunningProduct;
let browser: Browser;
let page: Page;

function taoToken(claims: Record<string, unknown>, expiresIn: string | number = '5m'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(expiresIn).sign(new TextEncoder().encode(SECRET));
}

beforeAll(async () => {
  product = await startProduct({ SSO_HS256_SECRET: SECRET });
  browser = await launchBrowser();
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
});
