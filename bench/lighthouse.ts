/**
 * Lighthouse (the `lighthouse` package, driving Debian's Chromium through chrome-launcher) on the built
 * product, as a visitor gets it: /, /videos with about 1,000 videos, one video's page and /statistics,
 * with the mobile preset (simulated slow 4G, 4× slower CPU, a phone's screen) and the desktop one.
 * Each page and preset is run `runs` times (default 3) with a cold cache; prints the median performance
 * score (and the spread), the accessibility score, the median run's Core Web Vitals and the audits of
 * those two categories that fail, heaviest first. The signed-in pages are opened with an
 * administrator's session token in local storage (as tests/e2e/session.ts openSignedIn does), which
 * Lighthouse keeps (`disableStorageReset`; the HTTP cache is cleared before each run instead).
 *
 *   npm run build && npx tsx bench/lighthouse.ts [runs per page and preset, default 3]
 *
 * Data: a fresh product (tests/e2e/harness.ts startProduct) with the demo library (`demo --videos 8`,
 * videos with pictures and media) and 1,000 generated videos (`generate --videos 1000 --users 0
 * --views 0`, rows only). Local only, bounded: it stops the product and the browser and removes its data.
 * Goal (issue 12): performance ≥ 95 and accessibility 100 on mobile.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
// The bench drives the built product exactly as the browser suite does (its start, CLI and sign-up
// helpers), rather than a second copy of them: tooling, not code the product ships.
// eslint-disable-next-line import-x/no-restricted-paths
import { CHROMIUM, startProduct, type RunningProduct } from '../tests/e2e/harness.ts';
// eslint-disable-next-line import-x/no-restricted-paths
import { cli, registerThroughApi, type SignedIn } from '../tests/e2e/session.ts';

/** tests/e2e/harness.ts launchBrowser's flags; chrome-launcher adds its own (no first run, no sync …). */
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const HARD_LIMIT_MS = 20 * 60_000;

type Preset = 'mobile' | 'desktop';

interface PageUnderTest {
  name: string;
  path: string;
  signedIn: boolean;
}

export interface LighthouseFigure {
  page: string;
  preset: Preset;
  /** Performance scores of every run, 0–100. */
  performance: number[];
  accessibility: number;
  /** The median run's metrics, in ms (CLS unitless). */
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; si: number };
  /** Audits of the performance and accessibility categories that do not pass, heaviest first. */
  failing: string[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Failing audits of a category: weighted ones first (the metrics by their weight), then diagnostics with an estimated saving. */
function failingAudits(lhr: Result, categoryId: 'performance' | 'accessibility'): string[] {
  const category = lhr.categories[categoryId];
  if (!category) return [];
  const weights = new Map(category.auditRefs.map((ref) => [ref.id, ref.weight]));
  return category.auditRefs
    .map((ref) => lhr.audits[ref.id]!)
    .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'notApplicable' && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'manual')
    // Weighted audits (the metrics, every accessibility check), and diagnostics only when they estimate a saving.
    .filter((audit) => (weights.get(audit.id) ?? 0) > 0 || Object.values(audit.metricSavings ?? {}).some((saving) => (saving ?? 0) > 0))
    .sort((a, b) => (weights.get(b.id) ?? 0) - (weights.get(a.id) ?? 0) || (b.numericValue ?? 0) - (a.numericValue ?? 0))
    .map((audit) => `${categoryId === 'performance' ? 'perf' : 'a11y'}: ${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}, score ${Math.round((audit.score ?? 0) * 100)}`);
}

async function prepareStorage(port: number, product: RunningProduct, token: string | null): Promise<void> {
  // A second DevTools client, only to write local storage and empty the HTTP cache, then gone.
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(`${product.url}/api/health`);
    await page.evaluate((value) => {
      if (value === null) window.localStorage.removeItem('token');
      else window.localStorage.setItem('token', value);
    }, token);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    await browser.close();
  }
}

async function runOnce(port: number, url: string, preset: Preset): Promise<Result> {
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: true };
  const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.message}`);
  return result.lhr;
}

export async function measureLighthouse(runs = 3, log: (line: string) => void = console.log): Promise<LighthouseFigure[]> {
  const product = await startProduct();
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    log('Loading the demo library and 1,000 generated videos…');
    await cli(product, ['demo', '--videos', '8'], 10 * 60_000);
    await cli(product, ['generate', '--videos', '1000', '--users', '0', '--views', '0'], 5 * 60_000);
    const admin: SignedIn = await registerThroughApi(product, 'lighthouse', { admin: true });
    const answer = await fetch(`${product.url}/api/videos?limit=100`, { headers: { Authorization: `Bearer ${admin.token}` } });
    if (!answer.ok) throw new Error(`GET /api/videos answered ${answer.status}: ${await answer.text()}`);
    const listed = (await answer.json()) as Array<{ id: number; urlThumbnail: string | null }>;
    const demoVideo = listed.find((video) => video.urlThumbnail !== null) ?? listed[0];
    if (!demoVideo) throw new Error('the library is empty');

    const pages: PageUnderTest[] = [
      { name: '/', path: '/', signedIn: false },
      { name: '/videos', path: '/videos', signedIn: true },
      { name: '/videos/$id', path: `/videos/${demoVideo.id}`, signedIn: true },
      { name: '/statistics', path: '/statistics', signedIn: true },
    ];
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    const figures: LighthouseFigure[] = [];
    for (const preset of ['mobile', 'desktop'] as const) {
      for (const page of pages) {
        const results: Result[] = [];
        for (let run = 0; run < runs; run++) {
          await prepareStorage(chrome.port, product, page.signedIn ? admin.token : null);
          results.push(await runOnce(chrome.port, `${product.url}${page.path}`, preset));
        }
        const performance = results.map((lhr) => Math.round((lhr.categories.performance?.score ?? 0) * 100));
        const middle = results[performance.indexOf(median(performance))]!;
        const metric = (id: string) => Math.round((middle.audits[id]?.numericValue ?? NaN) * (id === 'cumulative-layout-shift' ? 1000 : 1)) / (id === 'cumulative-layout-shift' ? 1000 : 1);
        const figure: LighthouseFigure = {
          page: page.name,
          preset,
          performance,
          accessibility: Math.round((middle.categories.accessibility?.score ?? 0) * 100),
          metrics: {
            fcp: metric('first-contentful-paint'),
            lcp: metric('largest-contentful-paint'),
            tbt: metric('total-blocking-time'),
            cls: metric('cumulative-layout-shift'),
            si: metric('speed-index'),
          },
          failing: [...failingAudits(middle, 'performance'), ...failingAudits(middle, 'accessibility')],
        };
        figures.push(figure);
        log(formatFigure(figure));
      }
    }
    return figures;
  } finally {
    chrome?.kill();
    await product.stop();
  }
}

export function formatFigure(figure: LighthouseFigure): string {
  const { performance, metrics } = figure;
  const spread = `${Math.min(...performance)}–${Math.max(...performance)}`;
  const lines = [
    `${figure.page.padEnd(12)} ${figure.preset.padEnd(7)} performance ${String(median(performance)).padStart(3)} (${spread}, ${performance.length} runs)  accessibility ${figure.accessibility}`,
    `    FCP ${metrics.fcp} ms, LCP ${metrics.lcp} ms, TBT ${metrics.tbt} ms, CLS ${metrics.cls}, Speed Index ${metrics.si} ms`,
    ...figure.failing.slice(0, 6).map((line) => `    ${line}`),
  ];
  return lines.join('\n');
}

if (process.argv[1] === import.meta.filename) {
  const runs = Number(process.argv[2] ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('usage: npx tsx bench/lighthouse.ts [runs ≥ 1]');
  const limit = setTimeout(() => {
    console.error(`bench/lighthouse.ts: over ${HARD_LIMIT_MS / 60_000} minutes, stopping`);
    process.exit(2);
  }, HARD_LIMIT_MS);
  limit.unref();
  const figures = await measureLighthouse(runs);
  const mobile = figures.filter((figure) => figure.preset === 'mobile');
  const missed = mobile.filter((figure) => median(figure.performance) < 95 || figure.accessibility < 100);
  console.log(
    missed.length === 0
      ? 'Goal met on mobile: performance ≥ 95 and accessibility 100 on every page.'
      : `Goal missed on mobile for ${missed.map((figure) => figure.page).join(', ')} (performance ≥ 95, accessibility 100).`,
  );
}
