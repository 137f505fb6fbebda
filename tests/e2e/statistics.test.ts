import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { launchBrowser, screenshot, startProduct, type RunningProduct } from './harness.ts';
import { cli, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * The statistics dashboard (R-STAT-2, R-STAT-4) in Chromium against the real
 * built server: the demo library plus views, ratings and users made by `cli generate`. What the page
 * shows is compared with what the API answers for the same page; the downloads are read back.
 */

let product: RunningProduct;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SignedIn;

type Row = Record<string, string | number>;
type TableId = 'uma' | 'oma' | 'vmv' | 'vmr';

const TITLES: Record<TableId, string> = {
  uma: 'Usuarios más activos',
  oma: 'Organizaciones con más videos visualizados',
  vmv: 'Videos más visualizados',
  vmr: 'Videos mejor valorados',
};
/** The first cell of a row, as the table shows it. */
const FIRST: Record<TableId, string> = { uma: 'usuario', oma: 'organizacion', vmv: 'video', vmr: 'video' };

beforeAll(async () => {
  product = await startProduct();
  await cli(product, ['demo', '--videos', '6'], 300_000);
  await cli(product, ['generate', '--videos', '40', '--users', '30', '--views', '4000', '--ratings', '400'], 120_000);
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  browser = await launchBrowser();
  context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    acceptDownloads: true,
    // axe-core is injected as a script, which the app's CSP rightly refuses.
    bypassCSP: true,
  });
  page = await context.newPage();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function api<T>(query: string): Promise<T> {
  const response = await fetch(`${product.url}/api/statistics?${query}`, { headers: { Authorization: `Bearer ${admin.token}` } });
  if (!response.ok) throw new Error(`GET /api/statistics?${query} answered ${response.status}`);
  return (await response.json()) as T;
}

const tablePage = (table: TableId, limit: number, offset: number) => api<Row[]>(`option=infoTable&table=${table}&limit=${limit}&offset=${offset}`);

/** Every row of a table, as an export must hold them. */
async function allRows(table: TableId): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await tablePage(table, 100, offset);
    rows.push(...page);
    if (page.length < 100) return rows;
  }
}

const card = (table: TableId) => page.getByRole('region', { name: TITLES[table] });
const pageLabel = (table: TableId) => card(table).getByText(/^Página \d+$/);
const search = () => new URL(page.url()).searchParams;

/** The first cells of the rows a table shows, once it shows rows (not the loading placeholders nor a failure, which has no table). */
async function firstCells(table: TableId): Promise<string[]> {
  const body = card(table).getByRole('table').locator('tbody');
  // Right after 'Recargar' is clicked the failure can still be on screen for a frame (a clean-clone run read it so).
  await body.waitFor();
  await page.waitForFunction((name) => {
    const region = [...document.querySelectorAll('section, [role="region"]')].find((el) => el.getAttribute('aria-label') === name || el.querySelector('h2')?.textContent === name);
    return region !== undefined && region.querySelector('[aria-busy="true"]') === null;
  }, TITLES[table]);
  const rows = body.getByRole('row');
  if ((await rows.count()) === 1 && (await body.getByText('No se han encontrado datos').count()) === 1) return [];
  return rows.evaluateAll((trs) => trs.map((tr) => (tr.querySelector('td, th')?.textContent ?? '').trim()));
}

async function download(trigger: Locator): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download') as Promise<Download>, trigger.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: fs.readFileSync(path!, 'utf8') };
}

describe('the statistics dashboard in Chromium', () => {
  it('opens from the user menu keeping the list filters, and shows the info boxes the API answers', async () => {
    await openSignedIn(page, product, admin, '/videos?q=seguridad');
    await page.getByRole('button', { name: /\(Menú de usuario\)/ }).click();
    await page.getByRole('menuitem', { name: 'Ver estadísticas' }).click();
    await page.waitForURL((url) => url.pathname === '/statistics');
    await page.getByRole('heading', { name: 'Datos Generales', level: 1 }).waitFor();
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['General']);

    const boxes = await api<Array<{ infoBox: { id: string; count: number; title: string } }>>('option=infoBox');
    const views = boxes.find((b) => b.infoBox.id === 'views')!.infoBox;
    expect(views.count).toBeGreaterThanOrEqual(4000);
    for (const { infoBox } of boxes) {
      const shown = infoBox.id === 'rating' ? infoBox.count.toLocaleString('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : infoBox.count.toLocaleString('es-ES');
      const box = page.getByRole('region', { name: 'Resumen' }).getByRole('listitem').filter({ has: page.getByText(infoBox.title, { exact: true }) });
      await box.getByText(shown, { exact: true }).waitFor();
    }

    // The chart of the last 30 days, and the same figures as a table for those who do not see it.
    const days = await api<Array<{ dia: string; visualizaciones: number }>>(`option=viewsPerDay&tz=${encodeURIComponent('Europe/Madrid')}`);
    expect(days).toHaveLength(30);
    const chartTable = page.getByRole('table', { name: /Visualizaciones en los últimos 30 días/ });
    await chartTable.waitFor({ state: 'attached' });
    expect(await chartTable.locator('tbody tr').count()).toBe(30);
    // The drawing: one line through the 30 days.
    await page.getByTestId('views-chart').locator('path[fill="none"]').waitFor();

    await screenshot(page, 'statistics-desktop');
    expect(await axeViolations(page)).toEqual([]);

    // 'Volver' goes back to the same list.
    await page.getByRole('link', { name: 'Volver' }).click();
    await page.waitForURL((url) => url.pathname === '/videos' && url.searchParams.get('q') === 'seguridad');
  });

  it('pages through each table as the API does, with Página N and the previous/next rules', async () => {
    await openSignedIn(page, product, admin, '/statistics');
    for (const table of ['uma', 'oma', 'vmv', 'vmr'] as const) {
      const first = await tablePage(table, 5, 0);
      expect(await firstCells(table)).toEqual(first.map((row) => String(row[FIRST[table]])));
      await pageLabel(table).filter({ hasText: 'Página 1' }).waitFor();
      expect(await card(table).getByRole('button', { name: 'Página anterior' }).isDisabled()).toBe(true);
    }

    // Next on 'Usuarios más activos': the second page, in the address.
    await card('uma').getByRole('button', { name: 'Página siguiente' }).click();
    await page.waitForURL((url) => url.searchParams.get('uma_page') === '1' && url.searchParams.get('uma_offset') === '5');
    await pageLabel('uma').filter({ hasText: 'Página 2' }).waitFor();
    const second = await tablePage('uma', 5, 5);
    expect(await firstCells('uma')).toEqual(second.map((row) => String(row.usuario)));
    expect(await card('uma').getByRole('button', { name: 'Página anterior' }).isEnabled()).toBe(true);

    // The organisations are few: on their last page next is disabled (fewer rows than the page size).
    const organisations = await allRows('oma');
    expect(organisations.length).toBeGreaterThan(1);
    await card('oma').getByRole('combobox', { name: 'Filas por página' }).selectOption('100');
    await page.waitForURL((url) => url.searchParams.get('oma_limit') === '100');
    // The address changes before the table shows the new page (a clean-clone run once read it empty in between).
    await expect.poll(() => firstCells('oma'), { timeout: 15_000 }).toEqual(organisations.map((row) => String(row.organizacion)));
    expect(await card('oma').getByRole('button', { name: 'Página siguiente' }).isDisabled()).toBe(true);

    // A page size change starts again at the first page.
    await card('uma').getByRole('combobox', { name: 'Filas por página' }).selectOption('10');
    await page.waitForURL((url) => url.searchParams.get('uma_limit') === '10' && (url.searchParams.get('uma_page') ?? '0') === '0');
    expect(search().get('uma_offset') ?? '0').toBe('0');
    await pageLabel('uma').filter({ hasText: 'Página 1' }).waitFor();
    const firstTen = (await tablePage('uma', 10, 0)).map((row) => String(row.usuario));
    await expect.poll(() => firstCells('uma'), { timeout: 15_000 }).toEqual(firstTen);
    await card('uma').getByRole('button', { name: 'Página siguiente' }).click();
    await pageLabel('uma').filter({ hasText: 'Página 2' }).waitFor();
    expect(search().get('uma_offset')).toBe('10');

    // A reload shows the same pages.
    const before = await firstCells('uma');
    await page.reload();
    await pageLabel('uma').filter({ hasText: 'Página 2' }).waitFor();
    expect(await firstCells('uma')).toEqual(before);
    expect(await firstCells('oma')).toEqual(organisations.map((row) => String(row.organizacion)));
  });

  it('falls back to the defaults for invalid numbers in the address, and says when a page has no rows', async () => {
    await openSignedIn(page, product, admin, '/statistics?uma_limit=7&uma_offset=-5&uma_page=x&vmv_limit=abc&vmr_offset=1e9');
    await pageLabel('uma').filter({ hasText: 'Página 1' }).waitFor();
    expect(await firstCells('uma')).toEqual((await tablePage('uma', 5, 0)).map((row) => String(row.usuario)));
    expect(await firstCells('vmv')).toEqual((await tablePage('vmv', 5, 0)).map((row) => String(row.video)));

    // Past the last organisation: the empty state, and previous leads back.
    await openSignedIn(page, product, admin, '/statistics?oma_limit=5&oma_offset=500&oma_page=100');
    await card('oma').getByText('No se han encontrado datos').waitFor();
    await pageLabel('oma').filter({ hasText: 'Página 101' }).waitFor();
    expect(await card('oma').getByRole('button', { name: 'Página siguiente' }).isDisabled()).toBe(true);
  });

  it('shows Error al obtener los datos when a table cannot be read, and Recargar reads it again', async () => {
    let refuse = true;
    await page.route(/\/api\/statistics\?.*table=vmr/, (route) => (refuse ? route.fulfill({ status: 503, contentType: 'application/problem+json', body: '{"type":"about:blank","title":"Service Unavailable","status":503}' }) : route.fallback()));
    await openSignedIn(page, product, admin, '/statistics');
    // Two retries first (R-SES-4), then the message.
    await card('vmr').getByText('Error al obtener los datos').waitFor({ timeout: 20_000 });
    expect(await firstCells('uma')).toHaveLength(5);
    refuse = false;
    await card('vmr').getByRole('button', { name: 'Recargar' }).click();
    expect(await firstCells('vmr')).toEqual((await tablePage('vmr', 5, 0)).map((row) => String(row.video)));
    await page.unroute(/\/api\/statistics\?.*table=vmr/);
  });

  it('exports a whole table as {table}.csv and the dashboard as allData, per R-STAT-7', async () => {
    await openSignedIn(page, product, admin, '/statistics');
    await firstCells('uma');

    const users = await allRows('uma');
    const table = await download(card('uma').getByRole('button', { name: /^Exportar/ }));
    expect(table.name).toBe('uma.csv');
    expect(table.text.startsWith('\uFEFF')).toBe(true);
    const lines = table.text.slice(1).split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toBe('Usuario;Nombre;Videos vistos');
    expect(lines).toHaveLength(users.length + 1);
    for (const [index, user] of users.entries()) {
      const cells = lines[index + 1]!.split(';');
      expect(cells).toHaveLength(3);
      expect(cells[0]).toBe(String(user.usuario).replaceAll(',', ''));
      expect(Number(cells[2])).toBe(user.videosVistos);
    }
    expect(table.text).not.toContain(',');

    // Rated videos: a title that is a number would start a row with a numeric cell (apostrophe); the score has a dot.
    const rated = await download(card('vmr').getByRole('button', { name: /^Exportar/ }));
    expect(rated.name).toBe('vmr.csv');
    const ratedLines = rated.text.slice(1).split('\r\n').filter((line) => line !== '');
    expect(ratedLines[0]).toBe('Videos;Puntuación');
    const firstRated = (await tablePage('vmr', 1, 0))[0]!;
    expect(ratedLines[1]).toBe(`${String(firstRated.video).replaceAll(',', '')};${firstRated.puntuacion}`);

    const dashboard = await download(page.getByRole('button', { name: 'Exportar dashboard' }));
    expect(dashboard.name).toMatch(/^allData(\.csv)?$/);
    expect(dashboard.text.startsWith('\uFEFF')).toBe(true);
    expect(dashboard.text).toContain('Datos Generales');
    for (const title of Object.values(TITLES)) expect(dashboard.text).toContain(title);
    expect(dashboard.text).toContain('Usuario;Nombre;Videos vistos');
    // Every user row is in the dashboard too.
    for (const user of users.slice(0, 20)) expect(dashboard.text).toContain(`${String(user.usuario)};`);
  });

  it('fits a phone (375×812) without sideways scrolling, and axe finds nothing to fix there', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openSignedIn(page, product, admin, '/statistics');
    await firstCells('vmv');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'statistics-mobile');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('on a 320 px phone every table shows its figures and Exportar inside its card, and Volver whole', async () => {
    await page.setViewportSize({ width: 320, height: 640 });
    await openSignedIn(page, product, admin, '/statistics');
    await firstCells('vmv');
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll('main section')].flatMap((card) => {
        const edge = card.getBoundingClientRect().right;
        const parts = [...card.querySelectorAll('th:last-child, td:last-child, button')];
        return parts.filter((part) => part.getBoundingClientRect().right > edge).map((part) => `${card.querySelector('h2')?.textContent}: ${part.textContent}`);
      }),
    );
    expect(clipped).toEqual([]);
    const back = page.getByRole('link', { name: 'Volver' });
    expect(await back.evaluate((link) => link.scrollWidth <= link.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await screenshot(page, 'statistics-320');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
