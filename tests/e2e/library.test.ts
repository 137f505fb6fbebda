import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { launchBrowser, newestToast, screenshot, screenshotsDir, startProduct, type RunningProduct } from './harness.ts';
import { callApi, cli, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * The library (R-LIB-1, R-VID-1, R-LIB-18, R-VID-2) in Chromium against the real built
 * server, on the demo library (real mp4 files made by ffmpeg).
 */

let product: RunningProduct;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SignedIn;
/** What the page must never do: run a script from a video's texts. */
const dialogs: string[] = [];

const DEMO_VIDEOS = 8;

beforeAll(async () => {
  product = await startProduct();
  await cli(product, ['demo', '--videos', String(DEMO_VIDEOS)], 300_000);
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
  page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const grid = () => page.getByRole('list', { name: 'Videos' });
const cards = () => grid().getByRole('listitem');
/** How far the element's height is from its frame's (its parent's), in pixels. */
const gapUnder = (element: Locator) =>
  element.evaluate((node) => Math.abs(node.parentElement!.getBoundingClientRect().height - node.getBoundingClientRect().height));
const card = (title: string) => cards().filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const toast = (text: string) => newestToast(page, text);
const search = () => new URL(page.url()).searchParams;

const emptyList = () => page.getByText('No existen videos que se ajusten a estos filtros');

/** The titles of the cards shown, once the list answered (not the placeholders). */
async function titles(): Promise<string[]> {
  await grid().or(emptyList()).waitFor();
  await page.waitForFunction(() => !document.querySelector('[role="list"][aria-busy="true"]'));
  if (await emptyList().isVisible()) return [];
  return cards().getByRole('heading').allInnerTexts();
}

/** Mantine's stars are visually hidden radios under their star: click the star (its label), as a person does. */
async function pick(radio: Locator): Promise<void> {
  const id = await radio.getAttribute('id');
  await page.locator(`label[for="${id}"]`).click();
}

async function waitForList(predicate: (params: URLSearchParams) => boolean): Promise<string[]> {
  await page.waitForURL((url) => predicate(url.searchParams));
  // The list answered for these filters (no placeholders, no request in flight).
  await page.waitForLoadState('networkidle');
  return titles();
}

async function searchFor(text: string): Promise<string[]> {
  const box = page.getByRole('searchbox', { name: 'Buscar' });
  await box.fill(text);
  await box.press('Enter');
  return waitForList((params) => params.get('q') === text);
}

async function averageOf(item: Locator): Promise<number> {
  const label = (await item.getByRole('img', { name: /Puntuación media/ }).getAttribute('aria-label')) ?? '';
  return Number(/([\d,]+) de 5/.exec(label)?.[1]?.replace(',', '.') ?? Number.NaN);
}

describe('the library in Chromium', () => {
  it('shows the demo library as a grid of cards with thumbnails, durations and the No visto chip', async () => {
    await openSignedIn(page, product, admin);
    const all = await titles();
    expect(all).toHaveLength(DEMO_VIDEOS);
    const first = cards().first();
    const thumbnail = first.getByRole('img', { name: /^Miniatura de / });
    // Loaded (it may still be arriving when the list shows, on a busy machine).
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 }).toBe(true);
    // The picture fills its frame: no grey strip under it (an inline image's descender once left 7 px).
    expect(await gapUnder(thumbnail)).toBeLessThan(1);
    expect(await first.getByText(/^\d+:\d\d$/).innerText()).toMatch(/^0:(0[89]|1\d|20)$/);
    expect(await cards().getByText('No visto').count()).toBe(DEMO_VIDEOS);
    await screenshot(page, 'library-desktop');
  });

  it('searches title and descriptions ignoring case and accents, prefixes of the last word too', async () => {
    const plain = await searchFor('reunion');
    expect(plain).toContain('Reunión trimestral de resultados');
    expect(plain.length).toBeLessThan(DEMO_VIDEOS);
    expect(await searchFor('REUNIÓN')).toEqual(plain);
    const prefix = await searchFor('prevencion riesg');
    expect(prefix).toEqual(['Prevención de riesgos en la oficina']);
    expect(await searchFor('xyzzy nothing')).toEqual([]);
    await expect(emptyList().isVisible()).resolves.toBe(true);
    await page.getByRole('tab', { name: 'Todos' }).click();
    expect(await waitForList((params) => !params.has('q'))).toHaveLength(DEMO_VIDEOS);
  });

  it('filters by tag through the popover, with every rule of R-LIB-6', async () => {
    await page.getByRole('button', { name: 'Etiqueta', exact: true }).click();
    const popover = page.getByRole('dialog', { name: 'Filtrar por etiquetas' });
    await popover.waitFor();
    await expect(popover.getByText('No hay etiquetas seleccionadas').isVisible()).resolves.toBe(true);
    await expect(popover.getByRole('button', { name: 'Aplicar' }).isDisabled()).resolves.toBe(true);
    await popover.getByPlaceholder('Introduzca un tag').fill('FORM');
    await expect(popover.getByRole('checkbox', { name: 'Formación' }).isVisible()).resolves.toBe(true);
    await expect(popover.getByRole('checkbox', { name: 'Bienvenida' }).count()).resolves.toBe(0);
    await popover.getByRole('checkbox', { name: 'Formación' }).check();
    await expect(popover.getByText('Etiquetas seleccionadas').isVisible()).resolves.toBe(true);
    await screenshot(page, 'library-tag-popover');
    await popover.getByRole('button', { name: 'Aplicar' }).click();
    await popover.waitFor({ state: 'hidden' });

    const tagged = await waitForList((params) => /^in:\d+$/.test(params.get('tag') ?? ''));
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.length).toBeLessThan(DEMO_VIDEOS);
    for (const title of tagged) await expect(card(title).getByRole('link', { name: 'Formación' }).count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Formación', exact: true }).isVisible()).resolves.toBe(true);

    // Tags chosen earlier are remembered; a click outside closes without applying.
    await page.getByRole('button', { name: 'Formación', exact: true }).click();
    await popover.waitFor();
    await expect(popover.getByRole('checkbox', { name: 'Formación' }).isChecked()).resolves.toBe(true);
    await popover.getByRole('checkbox', { name: 'Bienvenida' }).check();
    await page.mouse.click(5, 400);
    await popover.waitFor({ state: 'hidden' });
    expect(search().get('tag')).toMatch(/^in:\d+$/);

    // The chip's clear control resets the filter.
    await page.getByRole('button', { name: 'Quitar filtro de etiquetas' }).click();
    expect(await waitForList((params) => !params.has('tag'))).toHaveLength(DEMO_VIDEOS);
  });

  it('a tag on a card links to the list filtered by that tag', async () => {
    const first = cards().first();
    const tagLink = first.getByRole('list', { name: 'Etiquetas del video' }).getByRole('link').first();
    const name = await tagLink.innerText();
    await tagLink.click();
    const listed = await waitForList((params) => /^in:\d+$/.test(params.get('tag') ?? ''));
    for (const title of listed) await expect(card(title).getByRole('link', { name, exact: true }).count()).resolves.toBe(1);
    await page.getByRole('tab', { name: 'Todos' }).click();
    await waitForList((params) => !params.has('tag'));
  });

  it('filters by score without an Apply button, and by upload date', async () => {
    await page.getByRole('button', { name: 'Puntuación', exact: true }).click();
    const popover = page.getByRole('dialog', { name: 'Filtrar por puntuación' });
    await popover.waitFor();
    await pick(popover.getByRole('radio', { name: '4 estrellas o más' }));
    const rated = await waitForList((params) => params.get('score') === 'gte:4');
    for (const title of rated) expect(Math.round(await averageOf(card(title)))).toBeGreaterThanOrEqual(4);
    await page.getByRole('button', { name: 'Quitar filtro de puntuación' }).click();
    await waitForList((params) => !params.has('score'));

    await page.getByRole('button', { name: 'Fecha de subida' }).click();
    await page.getByRole('button', { name: 'Este año' }).click();
    const thisYear = await waitForList((params) => params.get('upload-date') === 'ty');
    expect(thisYear.length).toBeLessThanOrEqual(DEMO_VIDEOS);
    await page.getByRole('button', { name: 'Quitar filtro de fecha de subida' }).click();
    expect(await waitForList((params) => !params.has('upload-date'))).toHaveLength(DEMO_VIDEOS);

    // 'es despues de' a day: the calendar (its code comes when the popover opens) sets gt:<day>.
    await page.getByRole('button', { name: 'Fecha de subida' }).click();
    await page.getByRole('button', { name: 'es despues de' }).click();
    await page.getByRole('button', { name: 'Mes anterior' }).click();
    await page.getByRole('dialog', { name: 'Fecha de subida' }).getByRole('button', { name: /^1 / }).first().click();
    const sinceLastMonth = await waitForList((params) => /^gt:\d{4}-\d{2}-01$/.test(params.get('upload-date') ?? ''));
    // The demo library was made today: every video is newer than the first of last month.
    expect(sinceLastMonth).toHaveLength(DEMO_VIDEOS);
    await page.getByRole('button', { name: 'Quitar filtro de fecha de subida' }).click();
    await waitForList((params) => !params.has('upload-date'));
  });

  it('favourites from a card with their toasts; Favoritos shows them and loses one that leaves', async () => {
    const title = (await titles())[1]!;
    await card(title).getByRole('button', { name: 'Favorito' }).click();
    await toast('Video añadido a favoritos').waitFor();
    await expect(card(title).getByRole('button', { name: 'Favorito' }).getAttribute('aria-pressed')).resolves.toBe('true');

    await page.getByRole('tab', { name: 'Favoritos' }).click();
    expect(await waitForList((params) => params.get('fav') === 'eq:true')).toEqual([title]);
    await card(title).getByRole('button', { name: 'Favorito' }).click();
    await toast('Video quitado de favoritos').waitFor();
    await emptyList().waitFor();
  });

  it('keeps the filters in the address and in the session: a reload and a bare /videos restore them; Todos clears both', async () => {
    await page.getByRole('tab', { name: 'No vistos' }).click();
    await waitForList((params) => params.get('not-seen') === 'eq:true' && !params.has('fav'));
    await searchFor('oficina');
    await page.reload();
    await waitForList((params) => params.get('q') === 'oficina' && params.get('not-seen') === 'eq:true');
    await expect(page.getByRole('searchbox', { name: 'Buscar' }).inputValue()).resolves.toBe('oficina');
    await expect(page.getByRole('tab', { name: 'No vistos' }).getAttribute('aria-selected')).resolves.toBe('true');

    await page.goto(`${product.url}/videos`);
    await waitForList((params) => params.get('q') === 'oficina' && params.get('not-seen') === 'eq:true');
    expect(await page.evaluate(() => window.sessionStorage.getItem('q'))).toBe('oficina');

    await page.getByRole('tab', { name: 'Todos' }).click();
    await waitForList((params) => [...params.keys()].length === 0);
    expect(await page.evaluate(() => window.sessionStorage.getItem('q'))).toBeNull();
    await page.goto(`${product.url}/videos`);
    expect(await waitForList((params) => [...params.keys()].length === 0)).toHaveLength(DEMO_VIDEOS);
  });

  it('falls back to no filter for invalid values in the address', async () => {
    await page.goto(`${product.url}/videos?score=9&fav=maybe&upload-date=yesterday&tag=in:abc`);
    expect(await titles()).toHaveLength(DEMO_VIDEOS);
    await page.getByRole('tab', { name: 'Todos' }).click();
  });

  it('the detail page plays the video, rates it with the R-VID-2 toasts, marks it seen, resumes where the user left, and Volver keeps the filters', async () => {
    await searchFor('oficina');
    const title = (await titles())[0]!;
    expect(await card(title).getByText('No visto').count()).toBe(1);
    await card(title).getByRole('link', { name: `Reproducir ${title}` }).click();
    await page.waitForURL(/\/videos\/\d+/);
    expect(search().get('q')).toBe('oficina');
    await page.getByRole('heading', { level: 1, name: title }).waitFor();

    const video = page.locator('video').first();
    // The player fills its 16:9 frame: no strip under it.
    expect(await gapUnder(video)).toBeLessThan(1);
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, undefined, { timeout: 15_000 });
    await screenshot(page, 'video-detail-desktop');

    await pick(page.getByRole('radiogroup', { name: 'Su puntuación' }).getByRole('radio', { name: '4 estrellas' }));
    await toast('Video puntuado con 4 estrellas').waitFor();
    await pick(page.getByRole('radiogroup', { name: 'Su puntuación' }).getByRole('radio', { name: '1 estrella' }));
    await toast('Video puntuado con 1 estrella').waitFor();
    await page.getByRole('button', { name: 'Favorito' }).click();
    await toast('Video añadido a favoritos').waitFor();

    // Leave at 4 s: the position is saved when the user pauses.
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.pause();
      element.currentTime = 4;
      await new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }));
    });
    const saved = page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes('/api/videos/'));
    await video.evaluate(async (element: HTMLVideoElement) => {
      // Kept on the element (the pause event comes after this returns), for the message below.
      const seen: string[] = [];
      Object.assign(element, { seenEvents: seen });
      for (const type of ['play', 'waiting', 'playing', 'pause', 'seeked', 'ended']) element.addEventListener(type, () => seen.push(type));
      await element.play();
      element.pause();
    });
    // Seen once under a full run's load (not reproduced since): say what the media did if no save comes.
    await saved.catch(async (error: unknown) => {
      const media = await video.evaluate((element: HTMLVideoElement & { seenEvents?: string[] }) => ({
        events: element.seenEvents ?? [],
        currentTime: element.currentTime,
        paused: element.paused,
        readyState: element.readyState,
      }));
      throw new Error(`no PATCH of the position after play and pause (media ${JSON.stringify(media)})`, { cause: error });
    });

    await page.getByRole('link', { name: 'Volver' }).click();
    await waitForList((params) => params.get('q') === 'oficina');
    expect(await card(title).getByText('No visto').count()).toBe(0);
    await expect(card(title).getByRole('button', { name: 'Favorito' }).getAttribute('aria-pressed')).resolves.toBe('true');

    await card(title).getByRole('link', { name: `Reproducir ${title}` }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.waitForFunction(() => {
      const element = document.querySelector('video');
      return element !== null && element.readyState >= 1 && Math.abs(element.currentTime - 4) < 1;
    }, undefined, { timeout: 15_000 });
    await page.getByRole('link', { name: 'Volver' }).click();
    await page.getByRole('tab', { name: 'Todos' }).click();
    await waitForList((params) => [...params.keys()].length === 0);
  });

  it('runs nothing from a video’s texts: script, event-handler and javascript: payloads show as text', async () => {
    const [target] = (await callApi(product, 'GET', '/api/videos?limit=1', undefined, admin.token)) as unknown as Array<{ id: number }>;
    const payloads = {
      titulo: '<img src=x onerror="window.__xss=1">Título',
      shortDescription: '<script>window.__xss=2</script><svg onload="window.__xss=3">',
      descripcion: '*<a href="javascript:window.__xss=4">enlace</a>* _<img src=x onerror=alert(5)>_',
    };
    await callApi(
      product,
      'PATCH',
      `/api/videos/${target!.id}`,
      Object.entries(payloads).map(([key, value]) => ({ op: 'replace', path: `/${key}`, value })),
      admin.token,
    );
    await page.evaluate(() => window.sessionStorage.clear());
    await page.goto(`${product.url}/videos`);
    await card(payloads.titulo).waitFor();
    await expect(card(payloads.titulo).getByText('<script>window.__xss=2</script>', { exact: false }).count()).resolves.toBe(1);
    await card(payloads.titulo).getByRole('link', { name: `Reproducir ${payloads.titulo}` }).click();
    await page.getByRole('heading', { level: 1, name: payloads.titulo }).waitFor();
    const description = page.getByRole('region', { name: 'Descripción' });
    await description.waitFor(); // shown right after the player and the title
    await expect(description.getByText('<a href="javascript:window.__xss=4">enlace</a>', { exact: false }).count()).resolves.toBe(1);
    await expect(description.locator('a, img, script, svg').count()).resolves.toBe(0);
    await expect(description.locator('strong').count()).resolves.toBe(1);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    // Without the Content-Security-Policy's help too: the page itself never turns the texts into markup that runs.
    const unguarded = await browser.newContext({ bypassCSP: true });
    const bare = await unguarded.newPage();
    bare.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openSignedIn(bare, product, admin, `/videos/${target!.id}`);
    await bare.getByRole('heading', { level: 1, name: payloads.titulo }).waitFor();
    await bare.goto(`${product.url}/videos`);
    await bare.getByRole('heading', { level: 2, name: payloads.titulo }).waitFor();
    await bare.waitForTimeout(500);
    expect(await bare.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await unguarded.close();
    expect(dialogs).toEqual([]);
  });

  it('axe-core finds no violation on the list, the tag popover and a video, on desktop and phone', async () => {
    for (const viewport of [{ width: 1280, height: 900 }, { width: 375, height: 812 }]) {
      const checked = await browser.newContext({ viewport, bypassCSP: true, locale: 'es-ES' });
      const view = await checked.newPage();
      await openSignedIn(view, product, admin);
      const list = view.getByRole('list', { name: 'Videos' });
      await list.getByRole('heading').first().waitFor();
      await view.waitForFunction(() => !document.querySelector('[role="list"][aria-busy="true"]'));
      expect(await axeViolations(view), `/videos at ${viewport.width} px`).toEqual([]);
      await view.getByRole('button', { name: 'Etiqueta', exact: true }).click();
      await view.getByRole('dialog', { name: 'Filtrar por etiquetas' }).waitFor();
      await view.waitForTimeout(500);
      expect(await axeViolations(view), `the tag popover at ${viewport.width} px`).toEqual([]);
      await view.keyboard.press('Escape');
      await list.getByRole('link', { name: /^Reproducir / }).first().click();
      // The video's page itself (the list's cards have previews; a slow read shows 'Cargando el video' first).
      await view.locator('main section video').waitFor();
      await view.getByRole('heading', { level: 1 }).waitFor();
      expect(await axeViolations(view), `a video at ${viewport.width} px`).toEqual([]);
      await checked.close();
    }
  });

  it("takes the thumbnail's card-sized copy where a card's pixels are few, and the picture on dense screens", async () => {
    // window width, device pixels per CSS pixel, the card's width `sizes` states there, the copy to take
    const cases = [
      { width: 1366, scale: 1, slot: 310, small: true },
      { width: 1280, scale: 1, slot: 300, small: true },
      { width: 1100, scale: 1, slot: (1100 - 64) / 3, small: true },
      { width: 1280, scale: 2, slot: 300, small: false },
      { width: 375, scale: 3, slot: 375 - 32, small: false },
    ];
    for (const { width, scale, slot, small } of cases) {
      const sized = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: scale, locale: 'es-ES' });
      const view = await sized.newPage();
      const pictures: Array<{ url: string; type: string; bytes: number }> = [];
      view.on('response', (response) => {
        if (!response.url().includes('/thumbnail.jpg')) return;
        void response.body().then(
          (body) => pictures.push({ url: response.url(), type: response.headers()['content-type'] ?? '', bytes: body.length }),
          () => undefined,
        );
      });
      await openSignedIn(view, product, admin);
      const thumbnail = view.getByRole('list', { name: 'Videos' }).getByRole('img', { name: /^Miniatura de / }).first();
      await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 }).toBe(true);
      const shown = await thumbnail.evaluate((img: HTMLImageElement) => ({ src: img.currentSrc, width: img.getBoundingClientRect().width }));
      const label = `${width} px at ${scale}×`;
      // `sizes` tells the browser the card's width before the layout: it must stay true to the grid
      expect(Math.abs(shown.width - slot), label).toBeLessThan(12);
      const location = new URL(shown.src);
      expect(location.searchParams.get('w'), label).toBe(small ? '400' : null);
      await expect.poll(() => pictures.find((picture) => picture.url === shown.src), { timeout: 10_000 }).toMatchObject({ type: 'image/webp' });
      // the copy taken on few pixels is a fraction of the picture's bytes
      location.searchParams.delete('w');
      const whole = await view.request.get(location.href, { headers: { accept: 'image/webp' } });
      const taken = pictures.find((picture) => picture.url === shown.src)!.bytes;
      if (small) expect(taken, label).toBeLessThan((await whole.body()).length * 0.7);
      else expect(taken, label).toBe((await whole.body()).length);
      await sized.close();
    }
  });

  it('a 375×812 phone shows a usable one-column grid without sideways scrolling', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true, locale: 'es-ES' });
    const mobile = await phone.newPage();
    await openSignedIn(mobile, product, admin);
    const headings = mobile.getByRole('list', { name: 'Videos' }).getByRole('heading');
    await headings.nth(1).waitFor();
    const [a, b] = [await headings.nth(0).boundingBox(), await headings.nth(1).boundingBox()];
    // One column: the second card is below the first, aligned with it, nearly as wide as the screen.
    expect(a && b && Math.abs(a.x - b.x) < 1 && b.y > a.y + a.height).toBe(true);
    expect(a!.width).toBeGreaterThan(250);
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(mobile, 'library-phone');
    await phone.close();
  });

  it('a toast leaves the header usable: it covers neither the user menu nor its entries (desktop and phone)', async () => {
    type Box = { x: number; y: number; width: number; height: number };
    const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 812 },
    ]) {
      const sized = await browser.newContext({ viewport, locale: 'es-ES' });
      const view = await sized.newPage();
      await openSignedIn(view, product, admin);
      const first = view.getByRole('list', { name: 'Videos' }).getByRole('listitem').first();
      await first.getByRole('button', { name: 'Favorito' }).click();
      const shown = view.getByRole('alert').filter({ hasText: /Video (añadido a|quitado de) favoritos/ });
      await shown.waitFor();
      const toastBox = (await shown.boundingBox())!;
      expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(viewport.height);
      expect(overlap(toastBox, (await view.locator('header').boundingBox())!)).toBe(false);
      // A real click at the button's centre (Playwright refuses it when another element is on top).
      await view.getByRole('button', { name: /\(Menú de usuario\)/ }).click({ timeout: 2000 });
      const menu = view.getByRole('menu');
      await menu.waitFor();
      expect(overlap(toastBox, (await menu.boundingBox())!)).toBe(false);
      await expect(shown.isVisible()).resolves.toBe(true);
      await view.screenshot({ path: `${screenshotsDir}/toast-with-menu-${viewport.width}.png` });
      await sized.close();
    }
  });

  it('a 320 px phone with a long user name: the header shows the logo and the menu, nothing scrolls sideways', async () => {
    const longName = await registerThroughApi(product, 'maximiliano.fernandez.garcia');
    const narrow = await browser.newContext({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true, locale: 'es-ES' });
    const mobile = await narrow.newPage();
    await openSignedIn(mobile, product, longName);
    const menu = mobile.getByRole('button', { name: /maximiliano\.fernandez\.garcia \(Menú de usuario\)/ });
    await menu.waitFor();
    await mobile.getByRole('list', { name: 'Videos' }).getByRole('heading').first().waitFor();
    const box = await menu.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(320);
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    // The app's name is still the header link's name, for assistive technology.
    await expect(mobile.getByRole('link', { name: 'Contenido audiovisual TAO' }).count()).resolves.toBe(1);
    await screenshot(mobile, 'library-phone-320');
    await narrow.close();
  });

  it("a video's page opened once the app's code is cached (after the sign-in page) moves nothing as it loads: its first paint shows styled", async () => {
    const listed = (await callApi(product, 'GET', '/api/videos?limit=1', undefined, admin.token)) as unknown as Array<{ id: number }>;
    // Classic scrollbars, as on a Windows or Linux desktop: they take room as the page grows.
    const classic = await launchBrowser({ classicScrollbars: true });
    try {
      const desk = await classic.newContext({ viewport: { width: 1350, height: 700 }, locale: 'es-ES' });
      const view = await desk.newPage();
      type Shifts = { __shifts: string[] };
      await view.addInitScript(() => {
        (window as unknown as Shifts).__shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; sources: Array<{ node?: Node; previousRect: DOMRect; currentRect: DOMRect }> }>) {
            const moved = entry.sources.map((source) => `${(source.node as Element | undefined)?.className ?? source.node?.nodeName}: ${source.previousRect.x},${source.previousRect.width} → ${source.currentRect.x},${source.currentRect.width}`);
            (window as unknown as Shifts).__shifts.push(`${entry.value.toFixed(4)} ${moved.join('; ')}`);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await openSignedIn(view, product, admin, `/videos/${listed[0]!.id}`);
      await view.locator('main section video').waitFor();
      await view.waitForTimeout(300);
      expect(await view.evaluate(() => (window as unknown as Shifts).__shifts)).toEqual([]);
    } finally {
      await classic.close();
    }
  });
});
