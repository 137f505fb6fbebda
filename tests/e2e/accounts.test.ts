import jsQR from 'jsqr';
import * as OTPAuth from 'otpauth';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, startProduct, type RunningProduct } from './harness.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;

const USER = 'admin.tao';
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** What a phone's camera reads in the picture of `element` (jsQR, a decoder nobody here wrote), or null. */
async function scanned(element: import('playwright-core').Locator): Promise<string | null> {
  const png = PNG.sync.read(await element.screenshot());
  return jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data ?? null;
}

/** A code from the authenticator app the person enrolled (built from the otpauth:// URI), for the next time step. */
function codeFor(uri: string, offsetSteps = 0): string {
  const totp = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

describe('accounts in Chromium against the real server', () => {
  let uri = '';

  it('registers the first administrator from the printed link and enrols the second factor', async () => {
    const link = product.firstAdminLink();
    expect(link, product.output()).toBeDefined();
    await page.goto(link!.replace(/^https?:\/\/[^/]+/, product.url));
    await page.getByLabel('Usuario', { exact: true }).fill(USER);
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirma Contraseña', { exact: true }).fill(PASSWORD);
    const registered = page.waitForResponse((r) => r.url().endsWith('/api/register'));
    await page.getByRole('button', { name: 'Entrar' }).click();
    const body = (await (await registered).json()) as { otp: { state: string; uri: string } };
    expect(body.otp.state).toBe('OTP_DISABLED');
    uri = body.otp.uri;

    const modal = page.getByRole('dialog', { name: 'Autentificación MFA' });
    await modal.waitFor();
    // The QR code, once its code has loaded, says the very otpauth:// URI the server made.
    const qr = modal.getByRole('img', { name: 'Código QR para la aplicación de autenticación' });
    await qr.waitFor();
    expect(await scanned(qr)).toBe(uri);
    await screenshot(page, 'mfa-enrolment');
    await modal.getByPlaceholder('Código').fill(codeFor(uri));
    await modal.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/videos/);
    await page.getByText(USER).first().waitFor();
    await screenshot(page, 'videos-after-sign-in');
  });

  it('an administrator opens the statistics dashboard from the user menu', async () => {
    await page.getByRole('button', { name: new RegExp(USER) }).click();
    await page.getByRole('menuitem', { name: 'Ver estadísticas' }).click();
    await page.waitForURL(/\/statistics/);
    await page.getByText('Datos Generales').waitFor();
    await screenshot(page, 'statistics-frame');
    await page.getByRole('link', { name: 'Volver' }).click();
    await page.waitForURL(/\/videos/);
  });

  it('signs out with Cerrar sesión and lands on the login page without a token, which the server refuses from then on', async () => {
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).not.toBeNull();
    const me = () => fetch(`${product.url}/api/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);
    await page.getByRole('button', { name: new RegExp(USER) }).click();
    const ended = page.waitForResponse((response) => response.url().endsWith('/api/logout'));
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(page.evaluate(() => localStorage.getItem('token'))).resolves.toBeNull();
    expect((await ended).status()).toBe(204);
    // A copy of the token kept elsewhere no longer opens the session.
    expect((await me()).status).toBe(401);
  });

  it('signs in again: the OTP_ACTIVED prompt, and a wrong code is refused', async () => {
    await page.getByLabel('Usuario', { exact: true }).fill(USER);
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    const modal = page.getByRole('dialog', { name: 'Autentificación MFA' });
    await modal.getByText('Introduzca el código generado por su aplicación de autenticación:').waitFor();
    const right = codeFor(uri);
    const wrong = right === '000000' ? '111111' : '000000';
    await modal.getByPlaceholder('Código').fill(wrong);
    await modal.getByRole('button', { name: 'Entrar' }).click();
    await modal.getByText('El código no es válido').waitFor();
    await screenshot(page, 'mfa-wrong-code');
    await modal.getByRole('button', { name: 'Cancelar' }).click();
    await modal.waitFor({ state: 'hidden' });
  });

  it('five wrong passwords show Número de intentos de loggin excedido', async () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel('Contraseña', { exact: true }).fill(`wrong password ${attempt}`);
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/login'));
      await page.getByRole('button', { name: 'Entrar' }).click();
      expect((await answered).status()).toBe(attempt < 5 ? 401 : 429);
      const expected = attempt < 5 ? 'Usuario o contraseña invalida' : 'Número de intentos de loggin excedido';
      await page.getByText(expected).waitFor();
      await page.getByRole('button', { name: 'Entrar' }).waitFor({ state: 'visible' });
      await expect(page.getByRole('button', { name: 'Entrar' }).isEnabled()).resolves.toBe(true);
    }
    await screenshot(page, 'login-attempts-exceeded');
  });
});
