import fs from 'node:fs';
import { SignJWT } from 'jose';
import * as OTPAuth from 'otpauth';
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildInlineScripts, launchBrowser, startProduct, type RunningProduct } from './harness.ts';
import { cli, fetchApi, type SignedIn } from './session.ts';
import { BEACON_PATH, PAYLOADS, type Payload } from './xss-corpus.ts';

/**
 * Issue 13: no stored text runs as script. The payloads of tests/e2e/xss-corpus.ts are put, through
 * the real API, everywhere a person's words are stored and shown again — video titles, short and long
 * descriptions, tag names, user names (refused by their rule), display names and organisations (single
 * sign-on provisions them), invitation addresses — and Chromium renders every page and dialog that
 * shows them: /videos (the grid, the tag strip and filter, a search), /videos/{id}, the video edit and
 * delete dialogs, Administrar etiquetas, Administrar usuarios with its invitations, /statistics and its
 * CSV exports.
 *
 * A payload that ran would show as: a call of the sentinel `__xss(n)` (an init script defines it on
 * every page and frame; it writes to the console), a dialog (`alert(n)`), a request to another host or
 * to the marker path, or, in the DOM, an element with an `on…` attribute, a `javascript:` address, a
 * frame, or an element the payload marked with `data-xss`. The browser context bypasses the
 * Content-Security-Policy on purpose: this checks the first line of defence (escaping and DOMPurify),
 * not the second (the CSP, which would block inline script anyway).
 */

const SSO_SECRET = 'xss-e2e-identity-source-shared-secret-0123456789';
const BUNDLE_TITLE = 'Paquete';
/** The long description's limit (R-ADM-2): the bundles hold as many payloads as fit. */
const LONG_MAX = 1024;

let product: RunningProduct;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SignedIn;
/** Everything that betrays a payload that ran: sentinel calls, dialogs, requests. */
const alarms: string[] = [];
/** The build's own inline scripts (the early reads, allowed by their hash): not injected. */
const OWN_INLINE_SCRIPTS = buildInlineScripts();

interface StoredVideo {
  id: number;
  titulo: string;
  descripcionCorta: string;
  descripcion: string | null;
  tagIds: number[];
}

/** What the API stored of each payload, field by field (payload number → stored text). */
const stored = {
  titles: new Map<number, string>(),
  shorts: new Map<number, string>(),
  longs: new Map<number, string>(),
  tags: new Map<number, { id: number; nombre: string }>(),
  displayNames: new Map<number, string>(),
  organisations: new Map<number, string>(),
  emails: new Map<number, string>(),
};
/** How many payloads the API refused as bad input, field by field (each checked to be a clean problem). */
const refused = { titles: 0, shorts: 0, longs: 0, tags: 0, userNames: 0, ssoUserNames: 0, emails: 0 };
/** Each payload's own video, and the bundles: videos whose long description holds many payloads. */
const videoOf = new Map<number, StoredVideo>();
const bundles: StoredVideo[] = [];
/** The payloads in each bundle's long description: as many per bundle as fit, one per line. */
const bundlePayloads: Payload[][] = [[]];
for (const payload of PAYLOADS) {
  const last = bundlePayloads.at(-1)!;
  if (last.length > 0 && [...last, payload].map((p) => p.text).join('\n').length > LONG_MAX) bundlePayloads.push([payload]);
  else last.push(payload);
}
/** What was seen rendered, field by field (payload numbers). */
const rendered = {
  titles: new Set<number>(),
  shorts: new Set<number>(),
  longs: new Set<number>(),
  tags: new Set<number>(),
  displayNames: new Set<number>(),
  organisations: new Set<number>(),
  emails: new Set<number>(),
  csv: new Set<string>(),
};

// ---- the API, as a client calls it --------------------------------------------------------------

interface Answer {
  status: number;
  contentType: string;
  json: Record<string, unknown> & Array<Record<string, unknown>>;
}

async function send(method: string, url: string, body?: unknown, bearer = admin?.token): Promise<Answer> {
  const response = await fetchApi(product, method, url, body, bearer);
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', json: text ? JSON.parse(text) : {} };
}

async function ok(method: string, url: string, body?: unknown, bearer?: string): Promise<Answer['json']> {
  const answer = await send(method, url, body, bearer);
  if (answer.status >= 300) throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return answer.json;
}

/** A refusal as the contract promises it: the status, application/problem+json, and a problem body of that status. */
function expectCleanProblem(answer: Answer, status: number, type: string, what: string): void {
  expect({ what, status: answer.status, contentType: answer.contentType.split(';')[0], type: answer.json.type, bodyStatus: answer.json.status }).toEqual({
    what,
    status,
    contentType: 'application/problem+json',
    type,
    bodyStatus: status,
  });
  expect(typeof answer.json.title).toBe('string');
}

/** A text that is one of the payloads, to store in a field: the stored text, or null after a clean 400. */
async function store(method: string, url: string, body: unknown, read: (json: Answer['json']) => string | null, what: string): Promise<string | null> {
  const answer = await send(method, url, body);
  if (answer.status === 400) {
    expectCleanProblem(answer, 400, 'validation-error', what);
    return null;
  }
  if (answer.status >= 300) throw new Error(`${what}: ${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return read(answer.json);
}

const patch = (path: string, value: unknown) => [{ op: 'replace', path, value }];

function ssoToken(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(SSO_SECRET));
}

/** Registers the first administrator from the one-time link the server printed, second factor included. */
async function registerFirstAdministrator(): Promise<SignedIn> {
  const token = new URL(product.firstAdminLink()!).searchParams.get('invitation');
  const registered = await ok('POST', '/api/register', { user: 'xss.admin', password: 'correct horse battery staple', token }, '');
  const totp = OTPAuth.URI.parse((registered.otp as { uri: string }).uri) as OTPAuth.TOTP;
  const session = await ok('POST', '/api/mfa', { user: 'xss.admin', mfaCode: totp.generate() }, registered.token as string);
  return { user: 'xss.admin', token: session.token as string };
}

/** Fills the library through the API (and the CLI for the rows it cannot make: ready videos). */
async function fill(): Promise<void> {
  // Payloads longer than a long description cannot go in one: the corpus is made so that every one fits.
  expect(PAYLOADS.every((p) => p.text.length <= LONG_MAX)).toBe(true);

  const listed = await ok('GET', '/api/videos?limit=500');
  const ids = listed.map((video) => video.id as number).sort((a, b) => a - b);
  expect(ids).toHaveLength(PAYLOADS.length + bundlePayloads.length);

  // Tags: 3–50 characters; longer payloads are a clean 400.
  await each(PAYLOADS, async (payload) => {
    const tag = await store('POST', '/api/etiquetas', { nombre: payload.text }, (json) => JSON.stringify({ id: json.id, nombre: json.nombre }), `tag #${payload.n}`);
    if (tag === null) refused.tags++;
    else stored.tags.set(payload.n, JSON.parse(tag) as { id: number; nombre: string });
  });

  // Each payload's video: title, short and long description (each patched alone, so a refusal is the field's own), its tag.
  await each(PAYLOADS, async (payload, index) => {
    const id = ids[index]!;
    const url = `/api/videos/${id}`;
    const title = await store('PATCH', url, patch('/titulo', payload.text), (json) => json.titulo as string, `title #${payload.n}`);
    if (title === null) refused.titles++;
    else stored.titles.set(payload.n, title);
    const short = await store('PATCH', url, patch('/shortDescription', payload.text), (json) => json.descripcionCorta as string, `short description #${payload.n}`);
    if (short === null) refused.shorts++;
    else stored.shorts.set(payload.n, short);
    const long = await store('PATCH', url, patch('/descripcion', payload.text), (json) => json.descripcion as string, `long description #${payload.n}`);
    if (long === null) refused.longs++;
    else stored.longs.set(payload.n, long);
    const tag = stored.tags.get(payload.n);
    const video = await ok('PATCH', url, patch('/etiquetas', tag ? [tag.id] : []));
    videoOf.set(payload.n, {
      id,
      titulo: video.titulo as string,
      descripcionCorta: video.descripcionCorta as string,
      descripcion: video.descripcion as string | null,
      tagIds: tag ? [tag.id] : [],
    });
  });

  // The bundles: 'Paquete N' and a short payload as the title, every payload in some long description, every tag on some bundle.
  const tagIds = [...stored.tags.values()].map((tag) => tag.id).sort((a, b) => a - b);
  const shortTitles = PAYLOADS.filter((p) => p.text.length <= 80 && stored.titles.has(p.n));
  for (const [index, payloads] of bundlePayloads.entries()) {
    const id = ids[PAYLOADS.length + index]!;
    const bundleTags = tagIds.filter((_, i) => i % bundlePayloads.length === index);
    const video = await ok('PATCH', `/api/videos/${id}`, [
      { op: 'replace', path: '/titulo', value: `${BUNDLE_TITLE} ${index + 1} ${shortTitles[index % shortTitles.length]!.text}` },
      { op: 'replace', path: '/shortDescription', value: payloads.map((p) => p.text).join(' ').slice(0, 255).trim() },
      { op: 'replace', path: '/descripcion', value: payloads.map((p) => p.text).join('\n') },
      { op: 'replace', path: '/etiquetas', value: bundleTags },
    ]);
    expect(video.descripcion).toBe(payloads.map((p) => p.text).join('\n'));
    bundles.push({ id, titulo: video.titulo as string, descripcionCorta: video.descripcionCorta as string, descripcion: video.descripcion as string, tagIds: bundleTags });
  }

  // User names: the rule (3–64 of A-Z a-z 0-9 . _ -) refuses every payload, at registration (400) and from single sign-on (401).
  expect(PAYLOADS.filter((p) => /^\s*[A-Za-z0-9._-]{3,64}\s*$/.test(p.text))).toEqual([]);
  const invitation = await ok('POST', '/api/register-invitations', { email: 'registro@xss.example.org' });
  await each(PAYLOADS, async (payload) => {
    const answer = await send('POST', '/api/register', { user: payload.text, password: 'correct horse battery staple', token: invitation.token }, '');
    expectCleanProblem(answer, 400, 'validation-error', `user name #${payload.n}`);
    refused.userNames++;
    const sso = await send('POST', '/api/login', { taoToken: await ssoToken({ user: payload.text, nombre: 'x', organizacion: 'x' }) }, '');
    expectCleanProblem(sso, 401, 'invalid', `single sign-on user name #${payload.n}`);
    refused.ssoUserNames++;
  });

  // Display names and organisations: single sign-on provisions a person with both; they watch and rate their payload's video.
  await each(PAYLOADS, async (payload) => {
    const session = await ok('POST', '/api/login', { taoToken: await ssoToken({ user: `xss-${payload.n}`, nombre: payload.text, organizacion: payload.text }) }, '');
    const token = session.token as string;
    const video = videoOf.get(payload.n)!;
    await ok('GET', `/api/videos/${video.id}`, undefined, token);
    await ok('PATCH', `/api/videos/${video.id}`, patch('/puntuacion', (payload.n % 5) + 1), token);
  });
  for (const user of await ok('GET', '/api/usuarios')) {
    const n = /^xss-(\d+)$/.exec(user.user as string)?.[1];
    if (!n) continue;
    stored.displayNames.set(Number(n), user.nombre as string);
    if (user.organizacion !== null) stored.organisations.set(Number(n), user.organizacion as string);
  }

  // Invitation addresses: the e-mail rule refuses most payloads (a clean 400); the ones it allows are listed.
  await each(PAYLOADS, async (payload) => {
    const email = `${payload.text}@xss.example.org`;
    const created = await store('POST', '/api/register-invitations', { email }, (json) => json.email as string, `invitation e-mail #${payload.n}`);
    if (created === null) refused.emails++;
    else stored.emails.set(payload.n, created);
  });
}

/** The same work for every item, at once (the server takes the requests as they come). */
async function each<T>(items: readonly T[], work: (item: T, index: number) => Promise<void>): Promise<void> {
  await Promise.all(items.map(work));
}

// ---- watching the browser --------------------------------------------------------------------------

/**
 * Runs in the page: every trace of markup that came from stored text instead of the app — an `on…`
 * attribute, a script address, a frame or object, an inline or foreign script, a meta refresh, a
 * foreign style sheet, a style that names the beacons, an element a payload marked with data-xss.
 */
function findInjected(ownInline: string[]): string[] {
  const found: string[] = [];
  const urlAttributes = new Set(['href', 'xlink:href', 'src', 'srcset', 'action', 'formaction', 'data', 'background', 'poster', 'codebase', 'cite']);
  const foreign = new Set(['IFRAME', 'FRAME', 'FRAMESET', 'OBJECT', 'EMBED', 'APPLET', 'BASE', 'MARQUEE', 'MATH', 'XMP']);
  for (const element of document.querySelectorAll('*')) {
    const tag = element.tagName.toUpperCase();
    const where = `<${element.tagName.toLowerCase()}>`;
    if (foreign.has(tag)) found.push(`${where} element`);
    // The build's own: from /assets/, or its inline early reads, to the letter (buildInlineScripts).
    const ownScript = () => (element as HTMLScriptElement).src.startsWith(`${location.origin}/assets/`) || (!element.hasAttribute('src') && ownInline.includes(element.textContent ?? ''));
    if (tag === 'SCRIPT' && !ownScript()) found.push(`${where} not from /assets/ nor the build's own inline one`);
    if (tag === 'META' && element.hasAttribute('http-equiv')) found.push(`${where} http-equiv`);
    if (tag === 'LINK' && !(element as HTMLLinkElement).href.startsWith(location.origin)) found.push(`${where} to ${(element as HTMLLinkElement).href}`);
    if (tag === 'STYLE' && /xss|@import|expression\(/i.test(element.textContent ?? '')) found.push(`${where} with ${element.textContent}`);
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      const value = attribute.value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
      if (name.startsWith('on')) found.push(`${where} ${name}="${attribute.value}"`);
      if (name === 'data-xss' || name === 'srcdoc') found.push(`${where} ${name}="${attribute.value}"`);
      if (urlAttributes.has(name) && /^(javascript|vbscript|livescript):|^data:text\/html/.test(value)) found.push(`${where} ${name}="${attribute.value}"`);
      if (name === 'style' && /xss|expression\(/.test(value)) found.push(`${where} style="${attribute.value}"`);
    }
  }
  return found;
}

/** Nothing ran and nothing was injected, on the page as it is now. */
async function expectNothingRan(where: string): Promise<void> {
  // An <img onerror> or an <svg onload> would have fired by now: give the page's events a moment.
  await page.waitForTimeout(150);
  const injected = await page.evaluate(findInjected, OWN_INLINE_SCRIPTS);
  const frames = page.frames().length;
  expect({ where, injected, alarms, frames }).toEqual({ where, injected: [], alarms: [], frames: 1 });
}

// ---- the pages -------------------------------------------------------------------------------------

let signedIn = false;

/** Opens a page signed in as the administrator (the token where the app keeps it, local storage 'token'). */
async function signIn(path: string): Promise<void> {
  if (!signedIn) {
    await page.goto(`${product.url}/`);
    await page.evaluate((token) => window.localStorage.setItem('token', token), admin.token);
    signedIn = true;
  }
  await page.goto(`${product.url}${path}`);
}

/** The list at `path` (path and query as given), loaded only when the page is not showing it already. */
async function openList(path: string): Promise<void> {
  const at = new URL(page.url());
  if (`${at.pathname}${at.search}` !== path) await signIn(path);
  await page.locator('article[aria-labelledby]').first().waitFor();
}

/** Comparable text: marks become formatting and line breaks <br>, so both are left out. */
const plain = (text: string) => text.replace(/[\s*_~]/g, '');

interface Card {
  id: number;
  title: string;
  short: string;
  /** The short description's markup holds only br, strong, em and u, without attributes. */
  shortMarkupSafe: boolean;
  tags: string[];
}

/** Scrolls the whole grid (it is virtualized and loads 24 at a time), reading each card and checking the DOM at each step. */
async function readGrid(expected: number): Promise<Map<number, Card>> {
  const cards = new Map<number, Card>();
  await page.locator('article[aria-labelledby]').first().waitFor();
  for (let step = 0; step < 80 && cards.size < expected; step++) {
    const seen = await page.evaluate(() =>
      [...document.querySelectorAll('article[aria-labelledby]')].map((article) => {
        const heading = document.getElementById(article.getAttribute('aria-labelledby')!)!;
        const short = heading.nextElementSibling as HTMLElement;
        return {
          id: Number(/^video-(\d+)-title$/.exec(heading.id)?.[1]),
          title: heading.textContent ?? '',
          short: short.textContent ?? '',
          shortMarkupSafe: [...short.querySelectorAll('*')].every((el) => ['BR', 'STRONG', 'EM', 'U'].includes(el.tagName) && el.attributes.length === 0),
          tags: [...article.querySelectorAll('ul li')].map((li) => li.textContent ?? ''),
        };
      }),
    );
    for (const card of seen) cards.set(card.id, card);
    expect(await page.evaluate(findInjected, OWN_INLINE_SCRIPTS)).toEqual([]);
    await page.mouse.wheel(0, 1800);
    await page.waitForTimeout(150);
  }
  return cards;
}

const dialog = (name: string) => page.getByRole('dialog', { name });
const userMenu = () => page.getByRole('button', { name: /\(Menú de usuario\)/ });

async function openFromMenu(entry: string): Promise<Locator> {
  await userMenu().click();
  await page.getByRole('menuitem', { name: entry }).click();
  await dialog(entry).waitFor();
  return dialog(entry);
}

/** A CSV the way a spreadsheet reads it (RFC 4180 quotes, semicolons, CRLF), without the byte-order mark. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ';') row.push(cell), (cell = '');
    else if (c === '\r' && body[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += c;
  }
  if (cell !== '' || row.length > 0) row.push(cell), rows.push(row);
  return rows;
}

async function download(trigger: Locator): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download') as Promise<Download>, trigger.click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync((await file.path())!, 'utf8') };
}

// ---- the run ---------------------------------------------------------------------------------------

beforeAll(async () => {
  product = await startProduct({ SSO_HS256_SECRET: SSO_SECRET });
  // The administrator (from the link the server prints) and ready videos without media, rows only (the upload path needs ffmpeg): their texts are replaced.
  [admin] = await Promise.all([
    registerFirstAdministrator(),
    cli(product, ['generate', '--videos', String(PAYLOADS.length + bundlePayloads.length), '--users', '0', '--views', '0']),
  ]);
  await fill();

  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid', acceptDownloads: true, bypassCSP: true });
  // The sentinel every payload calls: on every page and frame, before the app's own scripts.
  await context.addInitScript(() => {
    (window as unknown as { __xss: (n: number) => void }).__xss = (n: number) => console.error(`XSS-SENTINEL ${n}`);
  });
  context.on('console', (message) => {
    if (message.text().includes('XSS-SENTINEL')) alarms.push(`sentinel: ${message.text()} on ${message.page()?.url()}`);
  });
  context.on('dialog', (shown) => {
    alarms.push(`dialog ${shown.type()}: ${shown.message()} on ${shown.page()?.url()}`);
    void shown.dismiss();
  });
  context.on('weberror', (error) => {
    if (/__xss|xss\.invalid/.test(String(error.error()))) alarms.push(`page error: ${String(error.error())}`);
  });
  const productHost = new URL(product.url).host;
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && (url.host !== productHost || url.pathname.startsWith(BEACON_PATH))) alarms.push(`request: ${request.method()} ${request.url()}`);
  });
  // Nothing leaves the machine: another host (the beacons' xss.invalid among them) is refused.
  await context.route((url) => url.host !== productHost && url.protocol.startsWith('http'), (route) => route.abort());
  page = await context.newPage();
}, 240_000);

beforeEach(() => {
  // Each test answers for its own pages.
  alarms.length = 0;
});

afterEach(async () => {
  if (page) await expectNothingRan('after the test');
});

afterAll(async () => {
  const counts = Object.fromEntries(Object.entries(stored).map(([field, values]) => [field, `${values.size} stored, ${rendered[field as keyof typeof rendered].size} rendered`]));
  console.log(`XSS corpus: ${PAYLOADS.length} payloads; ${JSON.stringify(counts)}; refused (clean problems): ${JSON.stringify(refused)}; CSV cells read: ${rendered.csv.size}`);
  await browser?.close();
  await product?.stop();
});

describe('stored payloads never run in Chromium (R-SEC-3)', () => {
  it('the API stores each payload where its rules allow it, and refuses the others with a clean problem', () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(40);
    // Titles (3–100), short (3–255) and long (3–1024) descriptions take every payload that fits.
    for (const payload of PAYLOADS) {
      expect(stored.titles.get(payload.n) ?? null).toBe(payload.text.trim().length <= 100 ? payload.text.trim() : null);
      expect(stored.shorts.get(payload.n)).toBe(payload.text.trim());
      expect(stored.longs.get(payload.n)).toBe(payload.text.trim());
      expect(stored.tags.get(payload.n)?.nombre ?? null).toBe(payload.text.trim().length <= 50 ? payload.text.trim() : null);
      // Single sign-on keeps a display name up to 200 characters and an organisation up to 100.
      expect(stored.displayNames.get(payload.n)).toBe(payload.text.trim().slice(0, 200));
      expect(stored.organisations.get(payload.n)).toBe(payload.text.trim().slice(0, 100));
    }
    expect(refused.userNames).toBe(PAYLOADS.length);
    expect(stored.emails.size + refused.emails).toBe(PAYLOADS.length);
    expect(stored.emails.size).toBeGreaterThan(0);
  });

  it('/videos: every card shows its title, short description and tags as text; the tag strip too', async () => {
    // A tall window: the virtualized grid renders more cards at each step.
    await page.setViewportSize({ width: 1280, height: 2400 });
    await signIn('/videos');
    const cards = await readGrid(PAYLOADS.length + bundles.length);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(cards.size).toBe(PAYLOADS.length + bundles.length);
    for (const payload of PAYLOADS) {
      const video = videoOf.get(payload.n)!;
      const card = cards.get(video.id)!;
      expect(card.title).toBe(video.titulo);
      if (stored.titles.has(payload.n)) rendered.titles.add(payload.n);
      expect(card.shortMarkupSafe).toBe(true);
      expect(plain(card.short)).toBe(plain(video.descripcionCorta));
      rendered.shorts.add(payload.n);
      const tag = stored.tags.get(payload.n);
      if (tag) {
        expect(card.tags).toEqual([tag.nombre]);
        rendered.tags.add(payload.n);
      }
    }
    for (const bundle of bundles) expect(cards.get(bundle.id)!.title).toBe(bundle.titulo);

    await page.evaluate(() => window.scrollTo(0, 0));
    const strip = await page.getByRole('group', { name: 'Etiquetas' }).locator('label').allTextContents();
    expect(strip.sort()).toEqual([...stored.tags.values()].map((tag) => tag.nombre).sort());
    await expectNothingRan('/videos grid');
  });

  it('/videos: the tag filter lists, selects and applies payload tag names; a payload search is only text', async () => {
    await signIn('/videos');
    await page.getByRole('button', { name: 'Etiqueta', exact: true }).click();
    const popover = page.getByRole('dialog', { name: 'Filtrar por etiquetas' });
    await popover.getByPlaceholder('Introduzca un tag').fill('<');
    const listed = await popover.getByRole('checkbox').evaluateAll((boxes) => boxes.map((box) => document.querySelector(`label[for="${box.id}"]`)?.textContent ?? ''));
    const startingWithBracket = [...stored.tags.values()].filter((tag) => tag.nombre.startsWith('<'));
    expect(listed.sort()).toEqual(startingWithBracket.map((tag) => tag.nombre).sort());
    // By keyboard: the popover grows with each selected tag and moves while it does.
    for (const index of [0, 1, 2, 3]) {
      await popover.getByRole('checkbox').nth(index).press('Space');
      await expect.poll(() => popover.getByRole('checkbox').nth(index).isChecked()).toBe(true);
    }
    await expectNothingRan('the tag filter popover with four payload tags selected');
    await popover.getByRole('button', { name: 'Aplicar' }).click();
    await page.waitForURL((url) => (url.searchParams.get('tag') ?? '').startsWith('in:'));
    const chosen = new URL(page.url()).searchParams.get('tag')!.slice(3).split(',').map(Number);
    expect(chosen).toHaveLength(4);
    // The chip names the first three, then 'y 1 más'.
    const names = chosen.map((id) => [...stored.tags.values()].find((tag) => tag.id === id)!.nombre);
    const chip = page.getByRole('button', { name: /y 1 más/ });
    await chip.waitFor();
    for (const name of names.slice(0, 3)) expect(await chip.textContent()).toContain(name);
    await page.locator('article[aria-labelledby]').first().waitFor();
    await expectNothingRan('/videos filtered by four payload tags');

    // A search goes into the address and, after a reload, back into the box from there.
    const search = page.getByRole('searchbox', { name: 'Buscar' });
    for (const payload of PAYLOADS.filter((p) => p.kind === 'attribute-breaking').slice(0, 2)) {
      await search.fill(payload.text);
      await search.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('q') === payload.text);
      await expectNothingRan(`a search for payload #${payload.n}`);
    }
    await page.reload();
    await expect.poll(() => search.inputValue()).toBe(PAYLOADS.filter((p) => p.kind === 'attribute-breaking')[1]!.text);
    await expectNothingRan('a payload search restored from the address');
  });

  it('the video edit and delete dialogs hold the payloads as field values and text', async () => {
    await openList(`/videos?q=${BUNDLE_TITLE}`);
    for (const bundle of bundles.slice(0, 2)) {
      const card = page.locator(`article[aria-labelledby="video-${bundle.id}-title"]`);
      await card.getByRole('button', { name: /^Editar / }).click();
      const edit = dialog('Editar video');
      await edit.waitFor();
      expect(await edit.getByRole('textbox', { name: 'Título' }).inputValue()).toBe(bundle.titulo);
      expect(await edit.getByRole('textbox', { name: 'Descripción corta' }).inputValue()).toBe(bundle.descripcionCorta);
      expect(await edit.getByRole('textbox', { name: 'Descripción', exact: true }).inputValue()).toBe(bundle.descripcion);
      const pills = await edit.locator('.mantine-Pill-label').allTextContents();
      expect(pills.sort()).toEqual([...stored.tags.values()].filter((tag) => bundle.tagIds.includes(tag.id)).map((tag) => tag.nombre).sort());
      await expectNothingRan(`the edit dialog of bundle ${bundle.id}`);
      await edit.getByRole('button', { name: 'Cancelar' }).click();
      await edit.waitFor({ state: 'hidden' });

      await card.getByRole('button', { name: /^Eliminar / }).click();
      const remove = dialog('Eliminar video');
      await remove.getByText(`¿Seguro que desea eliminar el video «${bundle.titulo}»?`, { exact: true }).waitFor();
      await expectNothingRan(`the delete dialog of bundle ${bundle.id}`);
      await remove.getByRole('button', { name: 'Cancelar' }).click();
      await remove.waitFor({ state: 'hidden' });
    }
  });

  it('/videos/{id}: the bundles show every payload of the long description as text, formatted only by the marks', async () => {
    // From the list of bundles, in the app: each card's play link, then 'Volver'.
    await openList(`/videos?q=${BUNDLE_TITLE}`);
    const formatting = new Set<string>();
    for (const [index, bundle] of bundles.entries()) {
      await page.locator(`article[aria-labelledby="video-${bundle.id}-title"]`).getByRole('link', { name: /^Reproducir / }).click();
      await page.waitForURL((url) => url.pathname === `/videos/${bundle.id}`);
      // The list's own heading stays until the video's page has rendered.
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(bundle.titulo);
      const description = page.getByRole('region', { name: 'Descripción' });
      const shown = await description.evaluate((section) => ({
        text: section.textContent ?? '',
        elements: [...section.querySelectorAll('*')].map((el) => `${el.tagName}${el.attributes.length > 0 && el.parentElement !== section ? '+attributes' : ''}`),
      }));
      // DOMPurify's output: the Text wrapper, then only br, strong, em and u without attributes.
      expect(shown.elements.slice(1).filter((el) => !['BR', 'STRONG', 'EM', 'U'].includes(el))).toEqual([]);
      expect(plain(shown.text)).toBe(plain(bundle.descripcion!));
      for (const element of shown.elements.slice(1)) formatting.add(element);
      expect(shown.elements.filter((el) => el === 'BR')).toHaveLength(bundle.descripcion!.split('\n').length - 1);
      for (const payload of bundlePayloads[index]!) rendered.longs.add(payload.n);
      const tags = await page.getByRole('list', { name: 'Etiquetas del video' }).getByRole('listitem').allTextContents();
      expect(tags.sort()).toEqual([...stored.tags.values()].filter((tag) => bundle.tagIds.includes(tag.id)).map((tag) => tag.nombre).sort());
      expect(await page.title()).toContain(bundle.titulo);
      await expectNothingRan(`/videos/${bundle.id} (bundle ${index + 1})`);
      await page.getByRole('link', { name: 'Volver' }).click();
      await page.waitForURL((url) => url.pathname === '/videos');
    }
    // The marks still format (`*negrita* _cursiva_ ~subrayado~` is in the corpus): the sanitizing left what it should.
    expect([...formatting].sort()).toEqual(['BR', 'EM', 'STRONG', 'U']);
  });

  it('Administrar etiquetas lists every payload tag as text; its edit and delete dialogs too', async () => {
    await openList(`/videos?q=${BUNDLE_TITLE}`);
    const list = await openFromMenu('Administrar etiquetas');
    await list.getByRole('button', { name: /^Editar / }).first().waitFor();
    const names = await list.getByRole('table').locator('tbody tr td:first-child').allTextContents();
    expect(names.sort()).toEqual([...stored.tags.values()].map((tag) => tag.nombre).sort());
    await expectNothingRan('Administrar etiquetas');

    const tag = [...stored.tags.values()].find((t) => t.nombre.startsWith('"><img'))!;
    const row = list.getByRole('row').filter({ has: page.getByRole('cell', { name: tag.nombre, exact: true }) });
    await row.getByRole('button', { name: /^Editar / }).click();
    const edit = dialog('Editar etiqueta');
    expect(await edit.getByRole('textbox', { name: 'Nombre' }).inputValue()).toBe(tag.nombre);
    await expectNothingRan('Editar etiqueta');
    await edit.getByRole('button', { name: 'Cancelar' }).click();
    await edit.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: /^Eliminar / }).click();
    const remove = dialog('Eliminar etiqueta');
    await remove.getByText(`¿Seguro que desea eliminar la etiqueta «${tag.nombre}»? Se quitará de todos sus videos.`, { exact: true }).waitFor();
    await expectNothingRan('Eliminar etiqueta');
    await remove.getByRole('button', { name: 'Cancelar' }).click();
    await remove.waitFor({ state: 'hidden' });
    await list.getByRole('button', { name: 'Cerrar' }).click();
    await list.waitFor({ state: 'hidden' });
  });

  it('Administrar usuarios shows display names, organisations and invitation addresses as text; the confirmations too', async () => {
    await openList(`/videos?q=${BUNDLE_TITLE}`);
    const users = await openFromMenu('Administrar usuarios');
    const people = users.getByRole('list', { name: 'Usuarios' }).getByRole('listitem');
    await people.first().waitFor();
    const rows = await people.evaluateAll((items) => items.map((item) => item.textContent ?? ''));
    for (const [n, nombre] of stored.displayNames) {
      const row = rows.find((text) => new RegExp(`xss-${n}(?!\\d)`).test(text) && text.startsWith(nombre));
      expect(row, `the row of xss-${n}`).toBeDefined();
      rendered.displayNames.add(n);
      expect(row).toContain(`Organización: ${stored.organisations.get(n)}`);
      rendered.organisations.add(n);
    }
    const invitations = await users.getByRole('list', { name: 'Invitaciones pendientes' }).getByRole('listitem').evaluateAll((items) => items.map((item) => item.textContent ?? ''));
    for (const [n, email] of stored.emails) {
      expect(invitations.some((text) => text.startsWith(email))).toBe(true);
      rendered.emails.add(n);
    }
    await expectNothingRan('Administrar usuarios');

    const person = PAYLOADS.find((p) => p.text.startsWith('"><img'))!;
    await people.filter({ hasText: new RegExp(`xss-${person.n}(?!\\d)`) }).getByRole('button', { name: /^Hacer administrador a / }).press('Enter');
    const promote = dialog('Hacer administrador');
    await promote.getByText(`¿Seguro que desea que «${stored.displayNames.get(person.n)}» sea administrador?`, { exact: true }).waitFor();
    await expectNothingRan('Hacer administrador');
    await promote.getByRole('button', { name: 'Cancelar' }).click();
    await promote.waitFor({ state: 'hidden' });

    const [, email] = [...stored.emails][0]!;
    await users.getByRole('list', { name: 'Invitaciones pendientes' }).getByRole('listitem').filter({ hasText: email }).getByRole('button', { name: /^Revocar/ }).click();
    const revoke = dialog('Revocar invitación');
    await revoke.getByText(`¿Seguro que desea revocar la invitación de ${email}?`, { exact: true }).waitFor();
    await expectNothingRan('Revocar invitación');
    await revoke.getByRole('button', { name: 'Cancelar' }).click();
    await revoke.waitFor({ state: 'hidden' });

    // Nuevo usuario: a payload address is refused (the server's 400, said under the field); a formula address is invited and shown as text.
    await users.getByRole('button', { name: 'Nuevo usuario' }).click();
    const invite = dialog('Nuevo usuario');
    const field = invite.getByRole('textbox', { name: 'Correo electrónico' });
    await field.fill(`${person.text}@xss.example.org`);
    await invite.getByRole('button', { name: 'Crear invitación' }).click();
    await invite.getByText('La dirección de correo electrónico no es válida').waitFor();
    await expectNothingRan('Nuevo usuario refusing a payload address');
    const formulaAddress = `=2+5+cmd|'/Ccalc'!A0@xss.example.org`;
    await field.fill(formulaAddress);
    await invite.getByRole('button', { name: 'Crear invitación' }).click();
    const link = dialog('Enlace de invitación');
    await link.getByText(`Invitación para ${formulaAddress}. Envíe este enlace a la persona invitada:`, { exact: true }).waitFor();
    await expectNothingRan('Enlace de invitación for a formula address');
    await link.getByRole('button', { name: 'Cerrar' }).click();
    await link.waitFor({ state: 'hidden' });
    await users.getByRole('list', { name: 'Invitaciones pendientes' }).getByRole('listitem', { name: formulaAddress }).waitFor();
    await users.getByRole('button', { name: 'Cerrar' }).click();
    await users.waitFor({ state: 'hidden' });
  });

  it('/statistics shows names, organisations and titles as text, and its CSV files neutralise every formula', async () => {
    await signIn('/statistics?uma_limit=100&oma_limit=100&vmv_limit=100&vmr_limit=100');
    const tables = { uma: 'Usuarios más activos', oma: 'Organizaciones con más videos visualizados', vmv: 'Videos más visualizados', vmr: 'Videos mejor valorados' } as const;
    const cells: Record<string, string[]> = {};
    for (const [id, title] of Object.entries(tables)) {
      const region = page.getByRole('region', { name: title });
      await region.locator('tbody tr').nth(PAYLOADS.length - 1).waitFor();
      cells[id] = await region.locator('tbody td, tbody th').allTextContents();
    }
    for (const payload of PAYLOADS) {
      expect(cells.uma).toContain(stored.displayNames.get(payload.n));
      expect(cells.oma).toContain(stored.organisations.get(payload.n));
      expect(cells.vmv).toContain(videoOf.get(payload.n)!.titulo);
      expect(cells.vmr).toContain(videoOf.get(payload.n)!.titulo);
    }
    await expectNothingRan('/statistics with 100 rows per table');

    // Each table's export and the dashboard's: no cell a spreadsheet would read as a formula; every payload is there, as text.
    const files: Array<{ id: string; name: string; text: string }> = [];
    for (const [id, title] of Object.entries(tables)) files.push({ id, ...(await download(page.getByRole('region', { name: title }).getByRole('button', { name: /^Exportar/ }))) });
    files.push({ id: 'allData', ...(await download(page.getByRole('button', { name: 'Exportar dashboard' }))) });
    const asCell = (text: string) => {
      const withoutCommas = text.replace(/,/g, '');
      return /^[=+\-@\t\r]/.test(withoutCommas) ? `'${withoutCommas}` : withoutCommas;
    };
    for (const file of files) {
      const parsed = parseCsv(file.text).flat();
      const formulas = parsed.filter((cell) => /^[=+\-@\t\r]/.test(cell));
      expect({ file: file.name, formulas }).toEqual({ file: file.name, formulas: [] });
      for (const cell of parsed) rendered.csv.add(`${file.id}:${cell}`);
    }
    const cellsOf = (id: string) => new Set(parseCsv(files.find((file) => file.id === id)!.text).flat());
    for (const payload of PAYLOADS) {
      expect(cellsOf('uma').has(asCell(stored.displayNames.get(payload.n)!)), `uma.csv: the name of #${payload.n}`).toBe(true);
      expect(cellsOf('oma').has(asCell(stored.organisations.get(payload.n)!)), `oma.csv: the organisation of #${payload.n}`).toBe(true);
      expect(cellsOf('vmv').has(asCell(videoOf.get(payload.n)!.titulo)), `vmv.csv: the title of #${payload.n}`).toBe(true);
      expect(cellsOf('allData').has(asCell(videoOf.get(payload.n)!.titulo)), `allData: the title of #${payload.n}`).toBe(true);
    }
    // A formula title is in the file with the apostrophe that keeps it text.
    const formula = PAYLOADS.find((p) => p.text.startsWith('=HYPERLINK'))!;
    expect(cellsOf('vmv').has(`'${videoOf.get(formula.n)!.titulo.replace(/,/g, '')}`)).toBe(true);
  });
});
