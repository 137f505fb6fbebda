import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestVideo } from '../../server/media/ffmpeg.ts';
import { axeViolations } from './axe.ts';
import { launchBrowser, newestToast, screenshot, startProduct, type RunningProduct } from './harness.ts';
import { fetchApi, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';
import { PAYLOADS } from './xss-corpus.ts';

/**
 * The captions issue's administrators' side in Chromium against the built server (R-UPL-9…11,
 * R-ADM-7, R-LIB-23…26): an SRT added in the upload wizard is stored with the video and shows as
 * captions over the playing video; a word that is only spoken finds the card with its snippet,
 * which opens the video at that second; the 'Sin subtítulos' badge and the Subtítulos filter; the
 * XSS corpus in cue text shows as text in the snippets and never runs; axe finds nothing on the
 * wizard with its Subtítulos section nor on the list with snippets.
 */

const CAPTIONED = 'Charla de laboratorio';
const UNCAPTIONED = 'Visita sin subtítulos';
/** Only spoken (in the captions), never in a title or description. */
const SPOKEN = 'ornitorrinco';
/** Starts every XSS cue, so one search finds them all. */
const XSS_WORD = 'zorzal';
const SRT = [
  '1',
  '00:00:01,000 --> 00:00:03,500',
  'Bienvenidos a la charla',
  '',
  '2',
  '00:00:04,200 --> 00:00:07,800',
  `Hoy hablamos del ${SPOKEN} y sus costumbres`,
  '',
].join('\r\n');

let product: RunningProduct;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SignedIn;
let work: string;
let clip: string;
let srt: string;
/** Everything that betrays a payload that ran (as tests/e2e/xss.test.ts watches). */
const alarms: string[] = [];

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-e2e-captions-'));
  clip = path.join(work, 'charla-laboratorio.mp4');
  srt = path.join(work, 'charla-laboratorio.srt');
  fs.writeFileSync(srt, SRT);
  await generateTestVideo(clip, { seconds: 10, pattern: 'smptebars', toneHz: 440, label: 'Subtítulos E2E' });
  product = await startProduct();
  admin = await registerThroughApi(product, 'eva.admin', { admin: true });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid', bypassCSP: true });
  await context.addInitScript(() => {
    (window as unknown as { __xss: (n: number) => void }).__xss = (n: number) => console.error(`XSS-SENTINEL ${n}`);
  });
  context.on('console', (message) => {
    if (message.text().includes('XSS-SENTINEL')) alarms.push(`sentinel: ${message.text()}`);
  });
  context.on('dialog', (shown) => {
    alarms.push(`dialog ${shown.type()}: ${shown.message()}`);
    void shown.dismiss();
  });
  const productHost = new URL(product.url).host;
  await context.route((url) => url.host !== productHost && url.protocol.startsWith('http'), (route) => {
    alarms.push(`request: ${route.request().url()}`);
    return route.abort();
  });
  page = await context.newPage();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const dialog = (name: string) => page.getByRole('dialog', { name });
const grid = () => page.getByRole('list', { name: 'Videos' });
const card = (title: string) => grid().getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

async function openUploadDialog(): Promise<void> {
  await page.getByRole('button', { name: /\(Menú de usuario\)/ }).click();
  await page.getByRole('menuitem', { name: 'Subir video' }).click();
  await dialog('Subir video').waitFor();
}

/** Uploads the clip through the wizard with these texts (and subtitle files), waiting for Confirmar. */
async function uploadUntilConfirm(titulo: string, subtitles: string[] = []): Promise<void> {
  await openUploadDialog();
  const wizard = dialog('Subir video');
  await wizard.locator('input[type="file"]').first().setInputFiles(clip);
  await wizard.getByRole('textbox', { name: 'Título' }).fill(titulo);
  await wizard.getByRole('textbox', { name: 'Descripción corta' }).fill('Una grabación de prueba');
  if (subtitles.length > 0) await wizard.locator('input[type="file"][multiple][accept*=".vtt"]').setInputFiles(subtitles);
  await wizard.getByRole('button', { name: 'Confirmar' }).and(page.locator(':enabled')).waitFor({ timeout: 120_000 });
}

async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetchApi(product, method, url, body, admin.token);
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function idOf(title: string): Promise<number> {
  const list = await api<Array<{ id: number; titulo: string }>>('GET', `/api/videos?q=${encodeURIComponent(title)}`);
  return list.find((video) => video.titulo === title)!.id;
}

/** A subtitle file PUT as a client sends it (its own content type; double-submit XSRF). */
async function putSubtitles(id: number, idioma: string, text: string, type = 'text/vtt'): Promise<Response> {
  const xsrf = 'e2e-xsrf-token';
  return fetch(`${product.url}/api/videos/${id}/subtitulos/${idioma}`, {
    method: 'PUT',
    headers: { 'Content-Type': type, Cookie: `XSRF-TOKEN=${xsrf}`, 'X-XSRF-TOKEN': xsrf, Authorization: `Bearer ${admin.token}` },
    body: text,
  });
}

describe('captions from the administrators’ forms, and the search in what is said (Chromium)', () => {
  it('adds an SRT in the wizard: its language read from the name, axe-clean, sent once Confirmar creates the video', async () => {
    await openSignedIn(page, product, admin);
    await grid().or(page.getByText('No existen videos que se ajusten a estos filtros')).first().waitFor();
    await uploadUntilConfirm(CAPTIONED, [srt]);
    const wizard = dialog('Subir video');
    const section = wizard.getByRole('group', { name: 'Subtítulos' });
    await section.getByText('charla-laboratorio.srt').waitFor();
    expect(await section.getByRole('textbox', { name: 'Idioma de charla-laboratorio.srt' }).or(section.getByRole('combobox', { name: 'Idioma de charla-laboratorio.srt' })).first().inputValue()).toBe('Español');
    // R-UPL-8: the wizard says the first quality comes first.
    await wizard.getByText('Podrá verse en cuanto esté lista la primera calidad', { exact: false }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'captions-wizard-section-desktop');

    await wizard.getByRole('button', { name: 'Confirmar' }).click();
    await newestToast(page, 'El video se ha creado correctamente').waitFor();
    await wizard.waitFor({ state: 'hidden', timeout: 30_000 });

    const id = await idOf(CAPTIONED);
    const tracks = await api<Array<{ idioma: string; etiqueta: string; url: string }>>('GET', `/api/videos/${id}/subtitulos`);
    expect(tracks.map(({ idioma, etiqueta }) => ({ idioma, etiqueta }))).toEqual([{ idioma: 'es', etiqueta: 'Español' }]);
    const vtt = await (await fetch(`${product.url}${tracks[0]!.url}`)).text();
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(vtt).toContain(`Hoy hablamos del ${SPOKEN} y sus costumbres`);
  });

  it('shows the SRT as captions over the playing video: a cue active in textTracks at its time', async () => {
    const id = await idOf(CAPTIONED);
    await page.goto(`${product.url}/videos/${id}`);
    const video = page.locator('video').first();
    await video.waitFor();
    await page.waitForFunction(() => {
      const element = document.querySelector('video');
      return element !== null && element.textTracks.length > 0 && element.readyState >= 1;
    }, undefined, { timeout: 30_000 });
    // Play, then go to the second cue: it is active while the video is within it.
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
      element.currentTime = 5;
    });
    const active = await page.waitForFunction(
      (word) => {
        const element = document.querySelector('video')!;
        for (const track of Array.from(element.textTracks)) {
          const cues = Array.from(track.activeCues ?? []) as VTTCue[];
          const cue = cues.find((candidate) => candidate.text.includes(word));
          if (cue && track.mode === 'showing') return { language: track.language, text: cue.text, time: element.currentTime, start: cue.startTime, end: cue.endTime };
        }
        return null;
      },
      SPOKEN,
      { timeout: 30_000 },
    );
    const cue = (await active.jsonValue())!;
    expect(cue.language).toBe('es');
    expect(cue.start).toBeCloseTo(4.2, 1);
    expect(cue.end).toBeCloseTo(7.8, 1);
    expect(cue.time).toBeGreaterThanOrEqual(cue.start);
    await screenshot(page, 'captions-over-video-desktop');
  });

  it("marks the uncaptioned video 'Sin subtítulos' for an administrator, and filters by subtitles in the address", async () => {
    await uploadUntilConfirm(UNCAPTIONED);
    await dialog('Subir video').getByRole('button', { name: 'Confirmar' }).click();
    await dialog('Subir video').waitFor({ state: 'hidden', timeout: 30_000 });
    await page.goto(`${product.url}/videos`);
    await card(UNCAPTIONED).getByText('Sin subtítulos', { exact: true }).waitFor();
    expect(await card(CAPTIONED).getByText('Sin subtítulos', { exact: true }).count()).toBe(0);
    await screenshot(page, 'captions-badge-desktop');

    await page.getByRole('button', { name: 'Subtítulos', exact: true }).click();
    await page.getByRole('dialog', { name: 'Filtrar por subtítulos' }).getByRole('button', { name: 'Sin subtítulos' }).click();
    await page.waitForURL(/[?&]subtitulos=sin/);
    await card(CAPTIONED).waitFor({ state: 'detached' });
    await card(UNCAPTIONED).waitFor();
    // The chip says the filter in effect and clears it.
    await page.getByRole('dialog', { name: 'Filtrar por subtítulos' }).waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Sin subtítulos', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Quitar filtro de subtítulos' }).click();
    await card(CAPTIONED).waitFor();
    expect(new URL(page.url()).searchParams.get('subtitulos')).toBeNull();
  });

  it('finds a word that is only spoken: the card shows «…snippet…» en 0:04 with the word marked, and it opens the video at that second', async () => {
    await page.goto(`${product.url}/videos?q=${SPOKEN}`);
    const found = card(CAPTIONED);
    const snippet = found.getByRole('list', { name: 'Coincidencias en lo que se dice' }).getByRole('link').first();
    await snippet.waitFor();
    expect(await snippet.innerText()).toMatch(new RegExp(`^«…Hoy hablamos del ${SPOKEN} y sus costumbres…» en 0:04$`));
    expect(await snippet.locator('mark').allInnerTexts()).toEqual([SPOKEN]);
    expect(await card(UNCAPTIONED).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await found.scrollIntoViewIfNeeded();
    await screenshot(page, 'captions-card-snippet-desktop');

    const id = await idOf(CAPTIONED);
    await snippet.click();
    await page.waitForURL(new RegExp(`/videos/${id}\\?(.*&)?t=4(&|$)`));
    await page.waitForFunction(() => {
      const element = document.querySelector('video');
      return element !== null && element.readyState >= 1 && Math.abs(element.currentTime - 4) < 1;
    }, undefined, { timeout: 30_000 });
  });

  it('keeps the wizard open on a refused file, with the server\'s line in Spanish; a corrected file and Reintentar finish it', async () => {
    const broken = path.join(work, 'taller.en.srt');
    const fixed = path.join(work, 'taller-corregido.en.srt');
    fs.writeFileSync(broken, '1\n00:00:01,000 --> mal\nHello\n');
    fs.writeFileSync(fixed, '1\n00:00:01,000 --> 00:00:02,000\nHello and welcome\n');
    await page.goto(`${product.url}/videos`);
    await uploadUntilConfirm('Taller con subtítulos rotos', [broken]);
    const wizard = dialog('Subir video');
    await wizard.getByRole('button', { name: 'Confirmar' }).click();
    // The video exists, the dialog stays with the refusal under the file's row (its toast comes once the dialog closes).
    await wizard.getByText('El video se ha creado, pero algunos subtítulos no se han guardado', { exact: false }).waitFor({ timeout: 30_000 });
    const refusal = wizard.getByRole('group', { name: 'Subtítulos' }).getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/^El archivo de subtítulos no es válido: línea \d+: .+/);
    // in Spanish: the server's English detail is not shown as it is
    expect(await refusal.innerText()).not.toMatch(/\b(line|expected|malformed|found)\b/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'captions-wizard-refused-desktop');

    await wizard.locator('input[type="file"]:not([multiple])[accept*=".vtt"]').first().setInputFiles(fixed);
    await wizard.getByRole('button', { name: 'Reintentar' }).click();
    await wizard.waitFor({ state: 'hidden', timeout: 30_000 });
    await newestToast(page, 'El video se ha creado correctamente').waitFor();
    const id = await idOf('Taller con subtítulos rotos');
    const tracks = await api<Array<{ idioma: string }>>('GET', `/api/videos/${id}/subtitulos`);
    expect(tracks.map((track) => track.idioma)).toEqual(['en']);
  });

  it('lists the tracks in Editar video, by their names', async () => {
    await page.goto(`${product.url}/videos`);
    await card(CAPTIONED).getByRole('button', { name: `Editar ${CAPTIONED}` }).click();
    const section = dialog('Editar video').getByRole('group', { name: 'Subtítulos' });
    await section.getByText('Español', { exact: true }).waitFor();
    await section.getByRole('button', { name: 'Sustituir los subtítulos en Español' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'captions-edit-section-desktop');
    await dialog('Editar video').getByRole('button', { name: 'Cancelar' }).click();
  });

  it('shows the XSS corpus in cue text as text in the snippets, and none of it runs', async () => {
    const id = await idOf(CAPTIONED);
    // One cue per payload (a tenth of a second each), each starting with the word the search finds.
    const usable = PAYLOADS.filter((payload) => !payload.text.includes('-->') && !/[\r\n]/.test(payload.text));
    const cues = usable.map((payload, index) => {
      const at = (seconds: number) => `00:00:${seconds.toFixed(3).padStart(6, '0')}`;
      return `${at(index * 0.1)} --> ${at(index * 0.1 + 0.09)}\n${XSS_WORD} ${payload.text}`;
    });
    const answer = await putSubtitles(id, 'en', `WEBVTT\n\n${cues.join('\n\n')}\n`);
    expect(answer.status, await answer.clone().text()).toBe(201);

    alarms.length = 0;
    await page.goto(`${product.url}/videos?q=${XSS_WORD}`);
    const list = card(CAPTIONED).getByRole('list', { name: 'Coincidencias en lo que se dice' });
    await list.waitFor();
    const listed = await api<Array<{ id: number; coincidencias?: Array<{ texto: string }> }>>('GET', `/api/videos?q=${XSS_WORD}`);
    const expected = listed.find((video) => video.id === id)!.coincidencias!.slice(0, 2);
    const shown = await list.getByRole('link').allInnerTexts();
    expect(shown).toHaveLength(expected.length);
    const words = (text: string) => text.replace(/\s+/g, ' ').trim();
    for (const [index, coincidencia] of expected.entries()) expect(words(shown[index]!)).toContain(words(coincidencia.texto.slice(0, 60)));
    // Only React's marks inside the snippets: no element of a payload, no handler, no javascript: address.
    expect(await list.locator('*:not(li):not(a):not(span):not(mark)').count()).toBe(0);
    expect(await page.locator('[data-xss], [onerror], [onload], a[href^="javascript:"]').count()).toBe(0);
    await page.waitForTimeout(1000);
    expect(alarms).toEqual([]);
  });

  it('lays out the wizard section, the edit section and a card with a snippet on a phone (375 × 812)', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${product.url}/videos?q=${SPOKEN}`);
    const found = card(CAPTIONED);
    await found.getByRole('list', { name: 'Coincidencias en lo que se dice' }).waitFor();
    await found.scrollIntoViewIfNeeded();
    await screenshot(page, 'captions-card-snippet-phone');
    // The card is no wider than the screen: the snippet wraps.
    const box = (await found.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);

    await page.goto(`${product.url}/videos`);
    await card(CAPTIONED).getByRole('button', { name: `Editar ${CAPTIONED}` }).click();
    const edit = dialog('Editar video').getByRole('group', { name: 'Subtítulos' });
    await edit.getByText('Español', { exact: true }).waitFor();
    await edit.scrollIntoViewIfNeeded();
    await screenshot(page, 'captions-edit-section-phone');
    await dialog('Editar video').getByRole('button', { name: 'Cancelar' }).click();

    await openUploadDialog();
    const wizard = dialog('Subir video');
    // The form (and its Subtítulos section) comes with the video file.
    await wizard.locator('input[type="file"]').first().setInputFiles(clip);
    await wizard.locator('input[type="file"][multiple][accept*=".vtt"]').setInputFiles(srt);
    const section = wizard.getByRole('group', { name: 'Subtítulos' });
    await section.getByText('charla-laboratorio.srt').waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'captions-wizard-section-phone');
    expect(await axeViolations(page)).toEqual([]);
    await wizard.getByRole('button', { name: 'Cancelar' }).click();
    // While the clip is still on its way the dialog asks first (R-UPL-18).
    const question = page.getByRole('button', { name: 'Cancelar las subidas' });
    await Promise.race([question.waitFor(), wizard.waitFor({ state: 'hidden' })]);
    if (await question.isVisible()) await question.click();
    await wizard.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
