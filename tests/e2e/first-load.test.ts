import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startProduct, type RunningProduct } from './harness.ts';
import { callApi, cli, registerThroughApi, type SignedIn } from './session.ts';

/**
 * The signed-in pages' first load (docs/decisions/0052-first-screen-budget-and-code-splitting.md): each page's
 * own document preloads its route's code, and its first API reads are asked for before the app runs
 * (src/early-requests.ts). The app must take every one of them and ask nothing twice: a video's
 * GET records a view, so one opening is still one view.
 */
let product: RunningProduct;
let browser: Browser;
let admin: SignedIn;
let videoId: number;

beforeAll(async () => {
  product = await startProduct();
  await cli(product, ['generate', '--videos', '30', '--users', '0', '--views', '0'], 120_000);
  admin = await registerThroughApi(product, 'ana.admin', { admin: true });
  const listed = (await callApi(product, 'GET', '/api/videos?limit=1', undefined, admin.token)) as unknown as Array<{ id: number }>;
  videoId = listed[0]!.id;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** The 'views' info box: every view recorded. */
async function totalViews(): Promise<number> {
  const items = (await callApi(product, 'GET', '/api/statistics?option=infoBox', undefined, admin.token)) as unknown as Array<{
    infoBox?: { icon: string; id: string; count: number };
  }>;
  const box = items.find((item) => item.infoBox?.id === 'views' || item.infoBox?.icon === 'views')?.infoBox;
  if (!box) throw new Error(`no views box in ${JSON.stringify(items)}`);
  return box.count;
}

/**
 * At most this many script and style files for a signed-in page to show (scripts/signed-in-chunks.ts):
 * on a phone's network each is a round trip. Automatic chunking made about 30.
 */
const MAX_CODE_FILES = 12;

/** Opens the page signed in and answers the API reads it made (without media), the early reads left untaken and the script and style files it loaded. */
async function firstLoad(page: Page, path: string): Promise<{ reads: string[]; untaken: number | null; preloads: number; codeFiles: string[]; refused: string[] }> {
  const reads: string[] = [];
  // Anything the page's Content-Security-Policy refused (the early reads' inline script must not be).
  await page.addInitScript(() => {
    const refused: string[] = [];
    (window as unknown as { refusedByPolicy?: string[] }).refusedByPolicy = refused;
    document.addEventListener('securitypolicyviolation', (event) => refused.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const codeFiles = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/assets/') && ['script', 'stylesheet'].includes(request.resourceType())) codeFiles.add(url.pathname);
    if (url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/media/')) reads.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  await page.goto(`${product.url}/api/health`);
  await page.evaluate((token) => window.localStorage.setItem('token', token), admin.token);
  reads.length = 0;
  await page.goto(`${product.url}${path}`);
  await page.getByRole('main').waitFor();
  // The page's reads have been made (its early ones taken or not); then a moment for any asked twice.
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"], .mantine-Skeleton-root').length === 0, undefined, { timeout: 15_000 });
  await page.waitForTimeout(1000);
  return page.evaluate(() => ({
    reads: [],
    untaken: (window as unknown as { __taoEarlyRequests?: unknown[] }).__taoEarlyRequests?.length ?? null,
    preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
    refused: (window as unknown as { refusedByPolicy?: string[] }).refusedByPolicy ?? ['(no listener)'],
  })).then((state) => ({ ...state, reads, codeFiles: [...codeFiles] }));
}

describe('a signed-in page\'s first load', () => {
  it.each([
    ['/videos', ['GET /api/me', 'GET /api/etiquetas', 'GET /api/videos?limit=24&offset=0']],
    ['/statistics', ['GET /api/me', 'GET /api/statistics?option=infoBox', 'GET /api/statistics?option=viewsPerDay&tz=UTC']],
  ])('%s: its route\'s code is preloaded in few files, the first reads were asked early and each is made once', async (path, expected) => {
    const context = await browser.newContext({ timezoneId: 'UTC' });
    try {
      const { reads, untaken, preloads, codeFiles, refused } = await firstLoad(await context.newPage(), path);
      expect(refused).toEqual([]);
      expect(preloads).toBeGreaterThan(0);
      expect(codeFiles.length, codeFiles.join('\n')).toBeLessThanOrEqual(MAX_CODE_FILES);
      // Every early read was taken by the app (none left over, none asked again).
      expect(untaken).toBe(0);
      for (const read of expected) expect(reads.filter((made) => made === read)).toHaveLength(1);
      expect(new Set(reads).size).toBe(reads.length);
    } finally {
      await context.close();
    }
  });

  it('/videos: the cards come in the first render when the list was asked early, with no placeholder cards before them', async () => {
    // The list as the page asks for it, once, so that a cold server is not what is measured.
    await callApi(product, 'GET', '/api/videos?limit=24&offset=0', undefined, admin.token);
    const context = await browser.newContext({ timezoneId: 'UTC' });
    try {
      const page = await context.newPage();
      // Anything the page ever shows in the loading style (src/features/videos/video-card.tsx PlaceholderCard).
      await page.addInitScript(() => {
        new MutationObserver(() => {
          if (document.querySelector('article[aria-busy="true"]')) (window as unknown as { sawPlaceholder?: boolean }).sawPlaceholder = true;
        }).observe(document, { childList: true, subtree: true });
      });
      await firstLoad(page, '/videos');
      expect(await page.getByRole('listitem').count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => (window as unknown as { sawPlaceholder?: boolean }).sawPlaceholder ?? false)).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('a video\'s page: its code comes in few files, and its GET is made once, so the opening records one view', async () => {
    const context = await browser.newContext({ timezoneId: 'UTC' });
    try {
      const before = await totalViews();
      const { reads, untaken, codeFiles } = await firstLoad(await context.newPage(), `/videos/${videoId}`);
      expect(untaken).toBe(0);
      expect(codeFiles.length, codeFiles.join('\n')).toBeLessThanOrEqual(MAX_CODE_FILES);
      expect(reads.filter((made) => made === `GET /api/videos/${videoId}`)).toHaveLength(1);
      expect(await totalViews()).toBe(before + 1);
    } finally {
      await context.close();
    }
  });

  /** How long the video's read is held back. */
  const SLOW_READ_MS = 6000;

  it('a video\'s page whose read is slow shows the header and "Cargando el video" meanwhile, then the video, asked once', async () => {
    // The app renders once the route has loaded, or after a second (src/main.tsx): then the router,
    // as it mounts, takes over the load in progress instead of starting another (a second GET would
    // record a second view).
    const context = await browser.newContext({ timezoneId: 'UTC' });
    try {
      const page = await context.newPage();
      // Another video than the test above opened (a second opening within 10 s records no view), its
      // title from the list (a GET of the video itself would record the view this opening is to record).
      const listed = (await callApi(product, 'GET', '/api/videos?limit=2', undefined, admin.token)) as unknown as Array<{ id: number; titulo: string }>;
      const video = listed.find((item) => item.id !== videoId)!;
      const before = await totalViews();
      let asked = 0;
      await page.route(`**/api/videos/${video.id}`, async (route) => {
        // (its PATCHes, the seen mark and the position, go through at once)
        if (route.request().method() !== 'GET') return route.continue();
        asked += 1;
        // Long enough that the spinner, shown a second after the app starts, is seen before the answer
        // even when the app starts late under the load of the other e2e files (3 s once was not).
        await new Promise((resolve) => setTimeout(resolve, SLOW_READ_MS));
        return route.continue();
      });
      await page.goto(`${product.url}/api/health`);
      await page.evaluate((token) => window.localStorage.setItem('token', token), admin.token);
      await page.goto(`${product.url}/videos/${video.id}`);
      // Past the router's pending threshold (a second): the header and the page's spinner.
      await page.getByRole('status').filter({ hasText: 'Cargando el video' }).waitFor({ timeout: 2500 });
      await page.getByRole('button', { name: /ana\.admin/ }).waitFor({ timeout: 1000 });
      expect(await page.getByRole('heading', { level: 1, name: video.titulo }).count()).toBe(0);
      await page.getByRole('heading', { level: 1, name: video.titulo }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('status').filter({ hasText: 'Cargando el video' }).count()).toBe(0);
      await page.waitForTimeout(500);
      expect(asked).toBe(1);
      expect(await totalViews()).toBe(before + 1);
    } finally {
      await context.close();
    }
  });

  it('a signed-in page\'s document brings the theme\'s styles: every variable and global class as the sign-in page computes them', async () => {
    const signedOut = await browser.newContext();
    const signedIn = await browser.newContext();
    try {
      // The sign-in page: MantineProvider writes the theme's variables and the global classes itself.
      const login = await signedOut.newPage();
      await login.goto(`${product.url}/`);
      await login.getByRole('main').waitFor();
      const computed = await login.evaluate(() => {
        // The provider's own: the variables ("true") and the global classes ("classes"), not components' inline styles.
        const styles = [...document.querySelectorAll('style[data-mantine-styles="true"], style[data-mantine-styles="classes"]')].map((style) => style.textContent ?? '');
        const names = [...new Set(styles.join('\n').match(/--mantine-[\w-]+(?=\s*:)/g) ?? [])];
        const root = getComputedStyle(document.documentElement);
        return { styles: styles.length, values: Object.fromEntries(names.map((name) => [name, root.getPropertyValue(name).trim()])) };
      });
      expect(computed.styles).toBe(2);
      expect(Object.keys(computed.values).length).toBeGreaterThan(300);

      // A signed-in page: the same values from its document's styles, and nothing written at run time.
      const page = await signedIn.newPage();
      await firstLoad(page, '/videos');
      const fromStylesheet = await page.evaluate((names) => {
        const root = getComputedStyle(document.documentElement);
        const probe = document.createElement('div');
        probe.className = 'mantine-hidden-from-xs';
        document.body.append(probe);
        const hidden = getComputedStyle(probe).display;
        probe.remove();
        return {
          styles: document.querySelectorAll('style[data-mantine-styles="true"], style[data-mantine-styles="classes"]').length,
          sheet: document.querySelectorAll('head > style[data-theme-variables]').length === 1,
          values: Object.fromEntries(names.map((name) => [name, root.getPropertyValue(name).trim()])),
          hidden,
        };
      }, Object.keys(computed.values));
      expect(fromStylesheet.sheet).toBe(true);
      expect(fromStylesheet.styles).toBe(0);
      expect(fromStylesheet.values).toEqual(computed.values);
      // Mantine's global classes came too (hiddenFrom/visibleFrom): 'hidden from xs' on a 1280 px window.
      expect(fromStylesheet.hidden).toBe('none');
    } finally {
      await signedOut.close();
      await signedIn.close();
    }
  });

  it("a signed-in page's document draws nothing of the app before it runs: only an inert loading logo, with nothing to touch", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    try {
      const page = await context.newPage();
      await page.goto(`${product.url}/api/health`);
      await page.evaluate((token) => window.localStorage.setItem('token', token), admin.token);
      // The app's code held back, as on a slow link: what shows is the document's own.
      await page.route('**/assets/*.js', () => undefined);
      for (const path of ['/statistics', '/videos', `/videos/${videoId}`]) {
        await page.goto(`${product.url}${path}`, { waitUntil: 'commit' });
        await page.locator('#root .app-loading img').waitFor();
        const root = await page.locator('#root').evaluate((element) => ({
          touchable: element.querySelectorAll('a, button, input, video, [tabindex]').length,
          inert: element.querySelector('.app-loading')?.hasAttribute('inert') ?? false,
          text: element.textContent?.trim() ?? '',
        }));
        expect(root, path).toEqual({ touchable: 0, inert: true, text: '' });
      }
    } finally {
      await context.close();
    }
  });
});
