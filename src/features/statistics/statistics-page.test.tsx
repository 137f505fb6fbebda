/**
 * /statistics in the real app (router, query cache, session, toasts) with only the network replaced
 * (statistics.test-support.ts): what each part shows, empty and failed parts and 'Recargar', the
 * tables' paging in the address (also after a reload), the page size, the exports' files and the
 * views-per-day table.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ME, http, server, sessionToken } from '../../../tests/utils/msw.ts';
import { renderApp } from '../../../tests/utils/render-app.tsx';
import { browserTimeZone } from '../../lib/time-zone.ts';
import { captureDownloads, DAYS, serveStatistics, tableOf, textOf, type FakeStatistics } from './statistics.test-support.ts';

type App = Awaited<ReturnType<typeof renderApp>>;

const UMA = 'Usuarios más activos';
const OMA = 'Organizaciones con más videos visualizados';
const VMV = 'Videos más visualizados';
const VMR = 'Videos mejor valorados';
const LOAD_FAILED = 'Error al obtener los datos';

let user: UserEvent;
let fake: FakeStatistics;

beforeEach(() => {
  user = userEvent.setup();
  fake = undefined as unknown as FakeStatistics;
});

/** The dashboard of an administrator, over the fake API (`fake`: made here unless the test made it first). */
async function openDashboard(path = '/statistics', options: Parameters<typeof serveStatistics>[0] = {}): Promise<App> {
  server.use(http.get('/api/me', ({ response }) => response(200).json({ ...ME, nombre: 'Root', role: 'admin' })));
  fake ??= serveStatistics(options);
  const app = await renderApp(path, { token: sessionToken({ user: 'root', role: 'admin' }) });
  await screen.findByRole('heading', { name: 'Datos Generales' });
  return app;
}

/** A table's card (a region named by its title) and its table. */
const card = (title: string) => screen.getByRole('region', { name: title });
const tableIn = (title: string) => within(card(title)).getByRole('table', { name: title });
/** The rows' cells as text, header row left out. */
const bodyRows = (title: string) =>
  within(tableIn(title))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).queryAllByRole('cell').map((cell) => cell.textContent));
const waitForRows = (title: string, first: string) => waitFor(() => expect(bodyRows(title)[0]?.[0]).toBe(first));

/** The address's search (what a reload would read). */
const address = (app: App) => app.router.state.location.search as Record<string, unknown>;
/** The table pages asked of the API for `table`, as `limit/offset`. */
const pagesAsked = (table: 'uma' | 'oma' | 'vmv' | 'vmr') => fake.requestsOf(table).map((query) => `${query.get('limit')}/${query.get('offset')}`);

describe('/statistics: what each part shows', () => {
  it('shows the info boxes with es-ES counts, the rating with a decimal comma, and the share of captioned videos (R-STAT-12)', async () => {
    await openDashboard();
    const summary = screen.getByRole('region', { name: 'Resumen' });
    await waitFor(() => expect(within(summary).getAllByRole('listitem')).toHaveLength(7));
    const boxes = within(summary).getAllByRole('listitem').map((item) => item.textContent);
    expect(boxes).toEqual([
      '120Videos',
      '12.345Usuarios',
      '7Organizaciones',
      '1.234.567Visualizaciones',
      '4321Visualizaciones (30 días)',
      '4,25Puntuación media',
      // es-ES writes a no-break space before the percent sign.
      '72 (60\u00a0%)Videos con subtítulos',
    ]);
  });

  it('shows each table’s first page: headers, formatted numbers, video titles linking to the video with the list’s filters', async () => {
    await openDashboard('/statistics?q=gatos&fav=eq:true');
    await waitForRows(UMA, 'user1');
    expect(within(tableIn(UMA)).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Usuario', 'Nombre', 'Videos vistos']);
    expect(bodyRows(UMA)).toEqual([
      ['user1', 'Persona 1', '20.000'],
      ['user2', 'Persona 2', '19.999'],
      ['user3', 'Persona 3', '19.998'],
      ['user4', 'Persona 4', '19.997'],
      ['user5', 'Persona 5', '19.996'],
    ]);
    await waitForRows(OMA, 'Organización 1');
    expect(bodyRows(OMA)).toEqual([
      ['Organización 1', '500'],
      ['Organización 2', '499'],
      ['Organización 3', '498'],
    ]);
    await waitForRows(VMV, 'Video 1');
    expect(bodyRows(VMV)[0]).toEqual(['Video 1', '9000']);
    await waitForRows(VMR, 'Video 1');
    expect(bodyRows(VMR).map((row) => row[1])).toEqual(['5,00', '4,99', '4,98', '4,97', '4,96']);
    const link = within(tableIn(VMR)).getByRole('link', { name: 'Video 2' });
    expect(link).toHaveAttribute('href', '/videos/2?q=gatos&fav=eq%3Atrue');
    for (const title of [UMA, OMA, VMV, VMR]) expect(within(card(title)).getByText('Página 1')).toBeInTheDocument();
    // Each table asked for its first page of 5.
    expect(pagesAsked('uma')).toEqual(['5/0']);
    expect(pagesAsked('vmr')).toEqual(['5/0']);
  });

  it('shows skeleton rows while a page loads, then its rows', async () => {
    fake = serveStatistics();
    const release = fake.hold('oma');
    await openDashboard();
    expect(tableIn(OMA)).toHaveAttribute('aria-busy', 'true');
    // As many skeleton rows as the page holds (hidden from assistive technology: the table is busy).
    expect(tableIn(OMA).querySelectorAll('tbody tr[aria-hidden="true"]')).toHaveLength(5);
    expect(within(tableIn(OMA)).queryByText('Organización 1')).not.toBeInTheDocument();
    expect(within(card(OMA)).getByRole('button', { name: 'Página siguiente' })).toBeDisabled();
    release();
    await waitForRows(OMA, 'Organización 1');
    expect(tableIn(OMA)).toHaveAttribute('aria-busy', 'false');
  });

  it("an empty table says 'No se han encontrado datos' and offers no next page", async () => {
    await openDashboard('/statistics', { rows: { oma: [] } });
    expect(await within(tableIn(OMA)).findByText('No se han encontrado datos')).toBeInTheDocument();
    expect(within(card(OMA)).getByRole('button', { name: 'Página siguiente' })).toBeDisabled();
    expect(within(card(OMA)).getByRole('button', { name: 'Página anterior' })).toBeDisabled();
  });
});

describe('/statistics: failures', () => {
  it("a table that fails after its 2 retries says 'Error al obtener los datos'; 'Recargar' asks again and shows the rows", async () => {
    fake = serveStatistics();
    fake.fail('vmv', 500);
    await openDashboard();
    const failed = await within(card(VMV)).findByRole('alert');
    expect(failed).toHaveTextContent(LOAD_FAILED);
    // The statistics policy: the first try and 2 retries; the other parts are unaffected.
    expect(pagesAsked('vmv')).toEqual(['5/0', '5/0', '5/0']);
    await waitForRows(UMA, 'user1');
    // The page reports it: the app's 'Error obteniendo datos' dialog stays closed.
    expect(screen.queryByRole('dialog', { name: 'Error obteniendo datos' })).not.toBeInTheDocument();
    expect(within(card(VMV)).getByRole('button', { name: 'Página siguiente' })).toBeDisabled();

    fake.fail('vmv', null);
    await user.click(within(failed).getByRole('button', { name: 'Recargar' }));
    await waitForRows(VMV, 'Video 1');
    expect(within(card(VMV)).queryByRole('alert')).not.toBeInTheDocument();
    expect(pagesAsked('vmv')).toHaveLength(4);
  });

  it('a 4xx answer is not retried', async () => {
    fake = serveStatistics();
    fake.fail('oma', 400);
    await openDashboard();
    expect(await within(card(OMA)).findByRole('alert')).toHaveTextContent(LOAD_FAILED);
    expect(pagesAsked('oma')).toEqual(['5/0']);
  });

  it("failed info boxes and days say so too, each with its own 'Recargar'", async () => {
    fake = serveStatistics();
    fake.fail('infoBox', 503);
    fake.fail('viewsPerDay', 500);
    await openDashboard();
    const summary = screen.getByRole('region', { name: 'Resumen' });
    const chart = screen.getByRole('region', { name: 'Visualizaciones en los últimos 30 días' });
    expect(await within(summary).findByRole('alert')).toHaveTextContent(LOAD_FAILED);
    expect(await within(chart).findByRole('alert')).toHaveTextContent(LOAD_FAILED);
    expect(screen.queryByRole('dialog', { name: 'Error obteniendo datos' })).not.toBeInTheDocument();

    fake.fail('infoBox', null);
    await user.click(within(summary).getByRole('button', { name: 'Recargar' }));
    expect(await screen.findByText('4,25')).toBeInTheDocument();
    // The days still fail until asked again.
    expect(within(chart).getByRole('alert')).toBeInTheDocument();
  });
});

describe('/statistics: paging in the address', () => {
  it('previous is disabled at offset 0; next moves a page (offset = page × size) and is disabled on a short page', async () => {
    const app = await openDashboard();
    await waitForRows(UMA, 'user1');
    const uma = card(UMA);
    const previous = within(uma).getByRole('button', { name: 'Página anterior' });
    const next = within(uma).getByRole('button', { name: 'Página siguiente' });
    expect(previous).toBeDisabled();
    // 5 rows came back for a page of 5: there may be more.
    expect(next).toBeEnabled();

    await user.click(next);
    await waitForRows(UMA, 'user6');
    expect(within(uma).getByText('Página 2')).toBeInTheDocument();
    expect(address(app)).toEqual({ uma_offset: 5, uma_page: 1 });
    expect(previous).toBeEnabled();
    expect(next).toBeEnabled();

    await user.click(next);
    // 12 rows: the third page holds 2, fewer than the page size, so it is the last.
    await waitForRows(UMA, 'user11');
    expect(bodyRows(UMA)).toHaveLength(2);
    expect(within(uma).getByText('Página 3')).toBeInTheDocument();
    expect(address(app)).toEqual({ uma_offset: 10, uma_page: 2 });
    expect(next).toBeDisabled();

    await user.click(previous);
    await user.click(within(uma).getByRole('button', { name: 'Página anterior' }));
    await waitFor(() => expect(within(uma).getByText('Página 1')).toBeInTheDocument());
    // Back at the defaults: nothing of this table in the address.
    expect(address(app)).toEqual({});
    expect(pagesAsked('uma')).toEqual(['5/0', '5/5', '5/10']);
  });

  it('a full last page still offers next, which then shows the empty state', async () => {
    await openDashboard('/statistics', { rows: { oma: tableOf('oma', 5) } });
    await waitForRows(OMA, 'Organización 1');
    await user.click(within(card(OMA)).getByRole('button', { name: 'Página siguiente' }));
    expect(await within(tableIn(OMA)).findByText('No se han encontrado datos')).toBeInTheDocument();
    expect(within(card(OMA)).getByRole('button', { name: 'Página siguiente' })).toBeDisabled();
  });

  it('changing the page size starts again at page 0 and keeps it in the address; the other params stay', async () => {
    const app = await openDashboard('/statistics?q=gatos&uma_offset=10&uma_page=2&vmr_limit=10');
    await waitForRows(UMA, 'user11');
    expect(within(card(UMA)).getByText('Página 3')).toBeInTheDocument();

    await user.selectOptions(within(card(UMA)).getByRole('combobox', { name: 'Filas por página' }), '10');
    await waitForRows(UMA, 'user1');
    expect(bodyRows(UMA)).toHaveLength(10);
    expect(within(card(UMA)).getByText('Página 1')).toBeInTheDocument();
    expect(address(app)).toEqual({ q: 'gatos', uma_limit: 10, vmr_limit: 10 });
    expect(pagesAsked('uma')).toEqual(['5/10', '10/0']);
    expect(within(card(UMA)).getByRole('combobox', { name: 'Filas por página' })).toHaveValue('10');
    // Another table's size is its own.
    expect(within(card(VMR)).getByRole('combobox', { name: 'Filas por página' })).toHaveValue('10');
    expect(within(card(OMA)).getByRole('combobox', { name: 'Filas por página' })).toHaveValue('5');
  });

  it('offers the page sizes 5, 10, 25, 50 and 100', async () => {
    await openDashboard();
    const select = within(card(VMV)).getByRole('combobox', { name: 'Filas por página' });
    expect(select).toHaveValue('5');
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['5', '10', '25', '50', '100']);
    expect(within(select).getByRole<HTMLOptionElement>('option', { name: '5' }).selected).toBe(true);
  });

  it('a reload of a paged address shows the same pages', async () => {
    await openDashboard('/statistics?uma_limit=10&uma_offset=10&uma_page=1&vmv_offset=5&vmv_page=1');
    await waitForRows(UMA, 'user11');
    expect(within(card(UMA)).getByText('Página 2')).toBeInTheDocument();
    expect(within(card(UMA)).getByRole('combobox', { name: 'Filas por página' })).toHaveValue('10');
    await waitForRows(VMV, 'Video 6');
    expect(within(card(VMV)).getByText('Página 2')).toBeInTheDocument();
    expect(pagesAsked('uma')).toEqual(['10/10']);
    expect(pagesAsked('vmv')).toEqual(['5/5']);
  });

  it('invalid values fall back to the defaults; an offset off the page boundary sets the page', async () => {
    await openDashboard('/statistics?uma_limit=7&uma_offset=abc&uma_page=-1&oma_limit=10&oma_offset=12&oma_page=9');
    await waitForRows(UMA, 'user1');
    expect(within(card(UMA)).getByText('Página 1')).toBeInTheDocument();
    expect(within(card(UMA)).getByRole('combobox', { name: 'Filas por página' })).toHaveValue('5');
    expect(within(card(OMA)).getByText('Página 2')).toBeInTheDocument();
    expect(pagesAsked('uma')).toEqual(['5/0']);
    expect(pagesAsked('oma')).toEqual(['10/10']);
  });
});

describe('/statistics: exports', () => {
  it("a table's 'Exportar' downloads '{table}.csv' with every row (pages of 100), the page's buttons busy meanwhile", async () => {
    const downloads = captureDownloads();
    const rows = tableOf('uma', 130);
    rows[0] = { usuario: 'ana', nombre: 'Pérez, Ana', videosVistos: 1234 };
    rows[1] = { usuario: '=HYPERLINK("x")', nombre: 'Luis', videosVistos: 7 };
    fake = serveStatistics({ rows: { uma: rows } });
    await openDashboard();
    await waitForRows(UMA, 'ana');

    const release = fake.hold('uma');
    const exportUma = within(card(UMA)).getByRole('button', { name: `Exportar ${UMA}` });
    await user.click(exportUma);
    // One export at a time: this one shows a loader, every other export button is disabled.
    await waitFor(() => expect(exportUma).toHaveAttribute('data-loading', 'true'));
    expect(within(card(OMA)).getByRole('button', { name: `Exportar ${OMA}` })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Exportar dashboard' })).toBeDisabled();
    release();

    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.name).toBe('uma.csv');
    const text = await textOf(downloads[0]!.blob);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe('Usuario;Nombre;Videos vistos');
    expect(lines[1]).toBe('ana;Pérez Ana;1234');
    // A formula is neutralised (apostrophe) and, holding quotes, quoted.
    expect(lines[2]).toBe(`"'=HYPERLINK(""x"")";Luis;7`);
    expect(lines).toHaveLength(1 + 130 + 1);
    expect(lines.at(-1)).toBe('');
    expect(pagesAsked('uma').slice(1)).toEqual(['100/0', '100/100']);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Exportar dashboard' })).toBeEnabled());
    expect(exportUma).toBeEnabled();
  });

  it("'Exportar dashboard' downloads allData.csv: Datos Generales, then each table with its title, headers and rows", async () => {
    const downloads = captureDownloads();
    await openDashboard('/statistics', { rows: { oma: [], vmr: [{ id: 4, video: 'Gatos', puntuacion: 4.25 }] } });
    await waitForRows(UMA, 'user1');
    await user.click(screen.getByRole('button', { name: 'Exportar dashboard' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.name).toBe('allData.csv');
    const text = await textOf(downloads[0]!.blob);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const sections = text.slice(1).split('\r\n\r\n');
    expect(sections[0]!.split('\r\n')).toEqual([
      'Datos Generales',
      'Videos;120',
      'Usuarios;12345',
      'Organizaciones;7',
      'Visualizaciones;1234567',
      'Visualizaciones (30 días);4321',
      'Puntuación media;4.25',
      'Videos con subtítulos;72',
    ]);
    const uma = sections[1]!.split('\r\n');
    expect(uma.slice(0, 3)).toEqual(['Usuarios más activos', 'Usuario;Nombre;Videos vistos', 'user1;Persona 1;20000']);
    expect(uma).toHaveLength(2 + 12);
    expect(sections[2]!.split('\r\n')).toEqual(['Organizaciones con más videos visualizados', 'Organización;Videos vistos']);
    expect(sections[3]!.split('\r\n')[0]).toBe('Videos más visualizados');
    expect(sections[4]).toBe('Videos mejor valorados\r\nVideos;Puntuación\r\nGatos;4.25\r\n');
  });

  it("a failed export says 'Error al obtener los datos' in a toast, downloads nothing, and can be tried again", async () => {
    const downloads = captureDownloads();
    fake = serveStatistics();
    fake.fail('vmv', 500, (query) => query.get('limit') === '100');
    await openDashboard();
    await waitForRows(VMV, 'Video 1');
    const exportVmv = within(card(VMV)).getByRole('button', { name: `Exportar ${VMV}` });
    await user.click(exportVmv);
    expect(await screen.findByRole('alert')).toHaveTextContent(LOAD_FAILED);
    expect(downloads).toEqual([]);
    await waitFor(() => expect(exportVmv).toBeEnabled());

    fake.fail('vmv', null);
    await user.click(exportVmv);
    await waitFor(() => expect(downloads.map((file) => file.name)).toEqual(['vmv.csv']));
  });
});

describe('/statistics: views per day', () => {
  it('asks for the days in the browser’s time zone and lists them in a table (es-ES short days)', async () => {
    await openDashboard();
    const chart = screen.getByRole('region', { name: 'Visualizaciones en los últimos 30 días' });
    const table = await within(chart).findByRole('table', { name: 'Visualizaciones en los últimos 30 días' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Día', 'Visualizaciones']);
    expect(rows).toHaveLength(1 + DAYS.length);
    expect(within(rows[1]!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['24 oct', '0']);
    expect(within(rows.at(-1)!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['22 nov', '290']);
    expect(within(rows.at(-1)!).getByText('22 nov').closest('time')).toHaveAttribute('dateTime', '2026-11-22');
    expect(fake.requestsOf('viewsPerDay')[0]?.get('tz')).toBe(browserTimeZone() ?? null);
  });

  it("without days it says 'No se han encontrado datos' and draws nothing", async () => {
    await openDashboard('/statistics', { days: [] });
    const chart = screen.getByRole('region', { name: 'Visualizaciones en los últimos 30 días' });
    expect(await within(chart).findByText('No se han encontrado datos')).toBeInTheDocument();
    expect(within(chart).queryByRole('switch', { name: 'Ver como tabla' })).not.toBeInTheDocument();
    expect(chart.querySelector('[data-testid="views-chart"]')).toBeNull();
  });

  it("'Ver como tabla' shows the table instead of the drawing", async () => {
    await openDashboard();
    const chart = screen.getByRole('region', { name: 'Visualizaciones en los últimos 30 días' });
    const toggle = await within(chart).findByRole('switch', { name: 'Ver como tabla' });
    // The drawing is hidden from assistive technology; the table is there (visually hidden).
    const table = within(chart).getByRole('table');
    expect(table.closest('[aria-hidden="true"]')).toBeNull();
    const drawing = await waitFor(() => {
      const svg = chart.querySelector('[data-testid="views-chart"]');
      expect(svg).not.toBeNull();
      return svg!;
    });
    expect(drawing.closest('[aria-hidden="true"]')).not.toBeNull();
    // Nothing hidden from assistive technology can take the keyboard's focus.
    expect(drawing.closest('[aria-hidden="true"]')!.querySelectorAll('[tabindex]:not([tabindex="-1"]), a[href], button')).toHaveLength(0);

    await user.click(toggle);
    expect(toggle).toBeChecked();
    expect(within(chart).getByRole('table', { name: 'Visualizaciones en los últimos 30 días' })).toBeVisible();
    expect(chart.querySelector('[data-testid="views-chart"]')).toBeNull();

    await user.click(toggle);
    expect(await waitFor(() => chart.querySelector('[data-testid="views-chart"]'))).not.toBeNull();
  });
});
