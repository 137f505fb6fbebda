import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { launchBrowser, newestToast, screenshot, startProduct, type RunningProduct } from './harness.ts';
import { callApi, cli, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * The list's selection mode (R-ADM-15 … R-ADM-19) in Chromium against the built server: an
 * administrator selects cards, adds a tag to them, hides and deletes some, and meets a video that
 * someone else deleted meanwhile; the bar passes axe on a desktop and on a phone.
 */

let product: RunningProduct;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SignedIn;
let tag: { id: number; nombre: string };

const VIDEOS = 6;
const TAG = 'Campaña de verano';

beforeAll(async () => {
  product = await startProduct();
  await cli(product, ['generate', '--videos', String(VIDEOS), '--users', '0', '--views', '0'], 120_000);
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  tag = (await callApi(product, 'POST', '/api/etiquetas', { nombre: TAG }, admin.token)) as unknown as typeof tag;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid', bypassCSP: true });
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const grid = () => page.getByRole('list', { name: 'Videos' });
const cards = () => grid().getByRole('listitem');
const bar = () => page.getByRole('region', { name: 'Videos seleccionados' });
const toggle = () => page.getByRole('button', { name: 'Seleccionar', exact: true });

async function titles(): Promise<string[]> {
  await grid().waitFor();
  await page.waitForFunction(() => !document.querySelector('[role="list"][aria-busy="true"]'));
  return cards().getByRole('heading').allInnerTexts();
}

const card = (title: string) => cards().filter({ has: page.getByRole('heading', { name: title, exact: true }) });

async function listedIds(): Promise<Array<{ id: number; titulo: string; isVisible: boolean; etiquetas: Array<{ id: number }> }>> {
  return (await callApi(product, 'GET', '/api/videos?limit=50', undefined, admin.token)) as never;
}

describe('bulk editing in Chromium', () => {
  it('selects three cards without opening them, and adds a tag to those three only (R-ADM-15, R-ADM-16)', async () => {
    await openSignedIn(page, product, admin);
    const all = await titles();
    expect(all).toHaveLength(VIDEOS);
    const picked = all.slice(0, 3);

    // The cards' play links stay the very same elements as the mode comes and goes.
    await page.evaluate(() => {
      (window as unknown as { playLinks: Element[] }).playLinks = [...document.querySelectorAll('a[aria-label^="Reproducir "]')];
    });
    await toggle().click();
    await bar().waitFor();
    await expect(bar().getByRole('status').innerText()).resolves.toBe('0 videos seleccionados');
    const before = page.url();
    for (const title of picked) await page.getByRole('checkbox', { name: `Seleccionar «${title}»` }).click();
    expect(page.url()).toBe(before);
    await expect(bar().getByRole('status').innerText()).resolves.toBe('3 videos seleccionados');
    const same = await page.evaluate(() => {
      const kept = (window as unknown as { playLinks: Element[] }).playLinks;
      const now = [...document.querySelectorAll('a[aria-label^="Reproducir "]')];
      return kept.length > 0 && kept.every((link, index) => link.isConnected && link === now[index]);
    });
    expect(same).toBe(true);

    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'bulk-edit-selected-desktop');

    await bar().getByRole('button', { name: 'Añadir etiquetas' }).click();
    const dialog = page.getByRole('dialog', { name: 'Añadir etiquetas a 3 videos' });
    await dialog.waitFor();
    await dialog.getByLabel('Etiquetas', { exact: true }).click();
    await page.getByRole('option', { name: TAG }).click();
    // The list of tags closes as a person closes it: a click beside it.
    await dialog.getByRole('heading', { name: 'Añadir etiquetas a 3 videos' }).click();
    await screenshot(page, 'bulk-edit-tag-picker');
    await dialog.getByRole('button', { name: 'Añadir', exact: true }).click();
    await newestToast(page, '3 videos modificados').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // The list refreshed: those three cards carry the tag, and only those.
    for (const title of all) {
      const link = card(title).getByRole('link', { name: TAG });
      if (picked.includes(title)) await link.waitFor();
      else await expect(link.count()).resolves.toBe(0);
    }
    const tagged = (await listedIds()).filter((video) => video.etiquetas.some((entry) => entry.id === tag.id)).map((video) => video.titulo);
    expect(tagged.sort()).toEqual([...picked].sort());
    // The selection stays for a next action.
    await expect(bar().getByRole('status').innerText()).resolves.toBe('3 videos seleccionados');
  });

  it('hides the selection, then deletes two videos after the question (R-ADM-16, R-ADM-17)', async () => {
    await bar().getByRole('button', { name: 'Visibilidad' }).click();
    await page.getByRole('menuitem', { name: 'Oculto' }).click();
    await newestToast(page, '3 videos modificados').last().waitFor();
    await expect.poll(async () => (await listedIds()).filter((video) => !video.isVisible).length).toBe(3);

    await bar().getByRole('button', { name: 'Quitar selección' }).click();
    await expect(bar().getByRole('status').innerText()).resolves.toBe('0 videos seleccionados');
    const all = await titles();
    const doomed = all.slice(-2);
    for (const title of doomed) await page.getByRole('checkbox', { name: `Seleccionar «${title}»` }).check();
    await bar().getByRole('button', { name: 'Eliminar' }).click();
    const question = page.getByRole('dialog', { name: 'Eliminar videos' });
    await question.waitFor();
    await expect(question.getByText('¿Eliminar 2 videos?').isVisible()).resolves.toBe(true);
    await screenshot(page, 'bulk-edit-delete-question');
    await question.getByRole('button', { name: 'Eliminar' }).click();
    await newestToast(page, '2 videos eliminados').waitFor();
    await question.waitFor({ state: 'hidden' });
    for (const title of doomed) await card(title).waitFor({ state: 'detached' });
    expect(await titles()).toHaveLength(VIDEOS - 2);
    await expect(bar().getByRole('status').innerText()).resolves.toBe('0 videos seleccionados');

    // Escape leaves the mode: no checkbox on the cards, the bar gone.
    await page.keyboard.press('Escape');
    await bar().waitFor({ state: 'detached' });
    await expect(page.getByRole('checkbox', { name: /^Seleccionar «/ }).count()).resolves.toBe(0);
  });

  it('tells a video deleted meanwhile apart from those changed (R-ADM-18)', async () => {
    const all = await titles();
    await toggle().click();
    await bar().waitFor();
    for (const title of all.slice(0, 2)) await page.getByRole('checkbox', { name: `Seleccionar «${title}»` }).check();
    const gone = (await listedIds()).find((video) => video.titulo === all[1])!;
    // Another administrator deletes it behind this page's back.
    const xsrf = 'e2e-xsrf-token';
    const deleted = await fetch(`${product.url}/api/videos/${gone.id}`, {
      method: 'DELETE',
      headers: { Cookie: `XSRF-TOKEN=${xsrf}`, 'X-XSRF-TOKEN': xsrf, Authorization: `Bearer ${admin.token}` },
    });
    expect(deleted.status).toBe(204);
    await bar().getByRole('button', { name: 'Visibilidad' }).click();
    await page.getByRole('menuitem', { name: 'Visible' }).click();
    await newestToast(page, '1 video modificado; 1 video ya no existía').waitFor();
    await expect(bar().getByRole('status').innerText()).resolves.toBe('1 video seleccionado');
    await card(all[1]!).waitFor({ state: 'detached' });
    await bar().getByRole('button', { name: 'Cancelar' }).click();
    await bar().waitFor({ state: 'detached' });
  });

  it('keeps the bar in view and accessible on a 375 px phone (R-ADM-15)', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'es-ES', timezoneId: 'Europe/Madrid', bypassCSP: true, hasTouch: true, isMobile: true });
    const small = await phone.newPage();
    try {
      await openSignedIn(small, product, admin);
      await small.getByRole('list', { name: 'Videos' }).waitFor();
      await small.waitForFunction(() => !document.querySelector('[role="list"][aria-busy="true"]'));
      await small.getByRole('button', { name: 'Seleccionar', exact: true }).click();
      const region = small.getByRole('region', { name: 'Videos seleccionados' });
      await region.waitFor();
      await small.getByRole('checkbox', { name: /^Seleccionar «/ }).first().check();
      await expect(region.getByRole('status').innerText()).resolves.toBe('1 video seleccionado');
      const box = (await region.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(812.5);
      expect(box.width).toBeLessThanOrEqual(375);
      // Every action of the bar is on screen, none cut off at the right.
      for (const name of ['Seleccionar todos', 'Quitar selección', 'Añadir etiquetas', 'Quitar etiquetas', 'Visibilidad', 'Eliminar', 'Cancelar']) {
        const button = (await region.getByRole('button', { name, exact: true }).boundingBox())!;
        expect(button.x + button.width, name).toBeLessThanOrEqual(375);
        expect(button.y, name).toBeGreaterThanOrEqual(box.y);
      }
      expect(await axeViolations(small)).toEqual([]);
      await small.screenshot({ path: await screenshot(small, 'bulk-edit-phone').then((file) => file.replace(/\.png$/, '-viewport.png')) });
    } finally {
      await phone.close();
    }
  });
});
