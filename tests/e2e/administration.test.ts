import * as OTPAuth from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { launchBrowser, newestToast, screenshot, startProduct, type RunningProduct } from './harness.ts';
import { openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * Issue 9 in Chromium against the real built server: an administrator creates, renames and deletes
 * a tag; invites an address; a second browser context registers through the link, enrols its second
 * factor and signs in as a user; the administrator promotes them and, after a reload, their menu
 * shows the admin entries; a downgrade takes them away and /statistics sends them to /Forbidden.
 */

let product: RunningProduct;
let browser: Browser;
let adminContext: BrowserContext;
let newcomerContext: BrowserContext;
let page: Page;
let newcomer: Page;
let admin: SignedIn;
let invitationLink = '';
/** The newcomer's authenticator, and the last time step it gave a code for (the server takes each step once). */
let authenticator: OTPAuth.TOTP;
let lastStep = -1;

/** The next code the authenticator may give: a later step than the last, within the server's ±1 step (waits when it must). */
async function nextCode(): Promise<string> {
  const wanted = Math.max(lastStep + 1, authenticator.counter());
  while (authenticator.counter() < wanted - 1) await new Promise((resolve) => setTimeout(resolve, 500));
  lastStep = wanted;
  return authenticator.generate({ timestamp: wanted * 30_000 + 1 });
}

const NEWCOMER = 'nuevo.usuario';
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  product = await startProduct();
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  browser = await launchBrowser();
  const options = { viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid', bypassCSP: true };
  adminContext = await browser.newContext(options);
  newcomerContext = await browser.newContext(options);
  page = await adminContext.newPage();
  newcomer = await newcomerContext.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const dialog = (p: Page, name: string) => p.getByRole('dialog', { name });
const toast = newestToast;
const userMenu = (p: Page) => p.getByRole('button', { name: /\(Menú de usuario\)/ });

async function openFromMenu(p: Page, entry: string): Promise<void> {
  await userMenu(p).click();
  await p.getByRole('menuitem', { name: entry }).click();
  await dialog(p, entry).waitFor();
}

async function menuEntries(p: Page): Promise<string[]> {
  await userMenu(p).click();
  // The menu opens with a transition: read its entries once it is there (allInnerTexts does not wait).
  await p.getByRole('menu').waitFor();
  const items = await p.getByRole('menuitem').allInnerTexts();
  await p.keyboard.press('Escape');
  return items.map((t) => t.trim());
}

describe('administration in Chromium', () => {
  it("a first administrator's empty library offers 'Subir video' under its message, which opens the wizard", async () => {
    await openSignedIn(page, product, admin);
    await page.getByText('No existen videos que se ajusten a estos filtros').waitFor();
    const upload = page.getByRole('main').getByRole('button', { name: 'Subir video' });
    await upload.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'empty-library-admin-desktop');
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'empty-library-admin-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    await upload.click();
    const wizard = dialog(page, 'Subir video');
    await wizard.getByText('Arrastre uno o varios videos aquí o haga clic para elegirlos').waitFor();
    await wizard.getByRole('button', { name: 'Cancelar' }).click();
    await wizard.waitFor({ state: 'hidden' });
  });

  it('creates, renames and deletes a tag from Administrar etiquetas', async () => {
    await openSignedIn(page, product, admin);
    await openFromMenu(page, 'Administrar etiquetas');
    const list = dialog(page, 'Administrar etiquetas');
    await screenshot(page, 'tags-list-desktop');

    await list.getByRole('button', { name: 'Nueva etiqueta' }).click();
    const create = dialog(page, 'Nueva etiqueta');
    await create.getByRole('textbox', { name: 'Nombre' }).fill('  ');
    await create.getByRole('button', { name: 'Guardar' }).click();
    await create.getByText('* Este campo es obligatorio').waitFor();
    await create.getByRole('textbox', { name: 'Nombre' }).fill('Formación interna');
    await screenshot(page, 'tag-create-desktop');
    expect(await axeViolations(page)).toEqual([]);
    await create.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'La etiqueta se ha creado correctamente').waitFor();
    await list.getByRole('button', { name: 'Editar Formación interna' }).waitFor();

    // A duplicate ignoring case and accents is refused under the field.
    await list.getByRole('button', { name: 'Nueva etiqueta' }).click();
    await create.getByRole('textbox', { name: 'Nombre' }).fill('FORMACION INTERNA');
    await create.getByRole('button', { name: 'Guardar' }).click();
    await create.getByText('Ya existe una etiqueta con ese nombre').waitFor();
    await create.getByRole('button', { name: 'Cancelar' }).click();
    await create.waitFor({ state: 'hidden' });

    await list.getByRole('button', { name: 'Editar Formación interna' }).click();
    const edit = dialog(page, 'Editar etiqueta');
    await edit.getByRole('textbox', { name: 'Nombre' }).fill('Formación externa');
    await screenshot(page, 'tag-edit-desktop');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'La etiqueta se ha modificado correctamente').waitFor();
    await list.getByRole('button', { name: 'Eliminar Formación externa' }).click();

    const remove = dialog(page, 'Eliminar etiqueta');
    await remove.getByText('¿Seguro que desea eliminar la etiqueta «Formación externa»? Se quitará de todos sus videos.').waitFor();
    await screenshot(page, 'tag-delete-desktop');
    await remove.getByRole('button', { name: 'Eliminar' }).click();
    await toast(page, 'La etiqueta se ha eliminado con éxito').waitFor();
    await list.getByRole('button', { name: 'Editar Formación externa' }).waitFor({ state: 'detached' });
    await list.getByRole('button', { name: 'Cerrar' }).click();
    await list.waitFor({ state: 'hidden' });
  });

  it('invites an address; the invited person registers through the link, enrols the second factor and signs in as a user', async () => {
    await openFromMenu(page, 'Administrar usuarios');
    const users = dialog(page, 'Administrar usuarios');
    await users.getByRole('listitem', { name: 'ana.admin' }).or(users.getByText('ana.admin').first()).first().waitFor();
    await screenshot(page, 'users-list-desktop');
    expect(await axeViolations(page)).toEqual([]);

    await users.getByRole('button', { name: 'Nuevo usuario' }).click();
    const invite = dialog(page, 'Nuevo usuario');
    await invite.getByRole('textbox', { name: 'Correo electrónico' }).fill('nuevo@example.org');
    await screenshot(page, 'invite-user-desktop');
    await invite.getByRole('button', { name: 'Crear invitación' }).click();
    const linkDialog = dialog(page, 'Enlace de invitación');
    await linkDialog.waitFor();
    invitationLink = await linkDialog.getByRole('textbox', { name: 'Enlace de invitación' }).inputValue();
    expect(invitationLink).toMatch(/\/register\?invitation=[A-Za-z0-9_-]+$/);
    await screenshot(page, 'invitation-link-desktop');
    await linkDialog.getByRole('button', { name: 'Cerrar' }).click();
    await users.getByRole('listitem', { name: 'nuevo@example.org' }).waitFor();
    await users.getByRole('button', { name: 'Cerrar' }).click();
    await users.waitFor({ state: 'hidden' });

    await newcomer.goto(invitationLink.replace(/^https?:\/\/[^/]+/, product.url));
    await newcomer.getByLabel('Usuario', { exact: true }).fill(NEWCOMER);
    await newcomer.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await newcomer.getByLabel('Confirma Contraseña', { exact: true }).fill(PASSWORD);
    const registered = newcomer.waitForResponse((r) => r.url().endsWith('/api/register'));
    await newcomer.getByRole('button', { name: 'Entrar' }).click();
    const body = (await (await registered).json()) as { otp: { uri: string } };
    authenticator = OTPAuth.URI.parse(body.otp.uri) as OTPAuth.TOTP;
    const modal = dialog(newcomer, 'Autentificación MFA');
    await modal.getByPlaceholder('Código').fill(await nextCode());
    await modal.getByRole('button', { name: 'Entrar' }).click();
    await newcomer.waitForURL(/\/videos/);
    const entries = await menuEntries(newcomer);
    expect(entries).toContain('Cerrar sesión');
    expect(entries).not.toContain('Administrar usuarios');
    // The same empty library offers a user no upload.
    await newcomer.getByText('No existen videos que se ajusten a estos filtros').waitFor();
    expect(await newcomer.getByRole('main').getByRole('button').allInnerTexts()).not.toContain('Subir video');
  });

  it('promotes the newcomer (after a reload their menu has the admin entries), then downgrades them (/statistics → /Forbidden)', async () => {
    await openFromMenu(page, 'Administrar usuarios');
    const users = dialog(page, 'Administrar usuarios');
    await users.getByRole('listitem', { name: NEWCOMER }).waitFor();
    await users.getByRole('button', { name: `Hacer administrador a ${NEWCOMER}` }).click();
    const confirm = dialog(page, 'Hacer administrador');
    await screenshot(page, 'promote-user-desktop');
    await confirm.getByRole('button', { name: 'Confirmar' }).click();
    await users.getByRole('button', { name: `Quitar administrador a ${NEWCOMER}` }).waitFor();

    // A role change ends the person's open sessions: after a reload they sign in again and see the admin entries.
    await newcomer.reload();
    await signInAgainIfAsked(newcomer);
    expect(await menuEntries(newcomer)).toEqual(expect.arrayContaining(['Subir video', 'Administrar etiquetas', 'Administrar usuarios', 'Ver estadísticas']));

    await users.getByRole('button', { name: `Quitar administrador a ${NEWCOMER}` }).click();
    await dialog(page, 'Quitar administrador').getByRole('button', { name: 'Confirmar' }).click();
    await users.getByRole('button', { name: `Hacer administrador a ${NEWCOMER}` }).waitFor();

    await newcomer.goto(`${product.url}/videos`);
    await signInAgainIfAsked(newcomer);
    expect(await menuEntries(newcomer)).not.toContain('Administrar usuarios');
    await newcomer.goto(`${product.url}/statistics`);
    await newcomer.waitForURL(/\/Forbidden$/);
    await newcomer.getByText('No tiene permiso para acceder a esta página').waitFor();
  });
});

describe('administration on a 320 px phone', () => {
  it("Administrar usuarios shows 'Nuevo usuario' whole, inside its dialog", async () => {
    await page.setViewportSize({ width: 320, height: 640 });
    try {
      await openSignedIn(page, product, admin);
      await openFromMenu(page, 'Administrar usuarios');
      const users = dialog(page, 'Administrar usuarios');
      const create = users.getByRole('button', { name: 'Nuevo usuario' });
      await create.waitFor();
      // Its label is not cut ('Nuevo usua' once), and the button ends inside the dialog.
      expect(await create.evaluate((button) => [...button.querySelectorAll('span')].every((part) => part.scrollWidth <= part.clientWidth))).toBe(true);
      const [button, box] = [await create.boundingBox(), await users.boundingBox()];
      expect(button!.x + button!.width).toBeLessThanOrEqual(box!.x + box!.width);
      await screenshot(page, 'users-list-320');
      await users.getByRole('button', { name: 'Cerrar' }).click();
      await users.waitFor({ state: 'hidden' });
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});

/** A role change ends the person's open sessions (token_version): sign in again when the app asks. */
async function signInAgainIfAsked(p: Page): Promise<void> {
  const expired = dialog(p, 'Sesión expirada');
  // The page's first calls tell whether the session still holds (a role change ends it): the
  // session-expired dialog, or the library's answer (this library has no videos).
  const answered = p.getByText('No existen videos que se ajusten a estos filtros');
  await expired.or(answered).first().waitFor();
  if (await expired.isVisible()) {
    await expired.getByRole('button', { name: 'Iniciar sesión' }).click();
    await p.waitForURL((url) => url.pathname === '/');
    await p.getByLabel('Usuario', { exact: true }).fill(NEWCOMER);
    await p.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await p.getByRole('button', { name: 'Entrar' }).click();
    // Enrolled already: the OTP_ACTIVED prompt asks for the authenticator's next code.
    const modal = dialog(p, 'Autentificación MFA');
    await modal.getByPlaceholder('Código').fill(await nextCode());
    await modal.getByRole('button', { name: 'Entrar' }).click();
    await p.waitForURL(/\/videos/);
    await userMenu(p).waitFor();
  }
}
