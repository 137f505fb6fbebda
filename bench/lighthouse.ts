/**
 * Lighthouse (the `lighthouse` package, driving Debian's Chromium through chrome-launcher) on the built
 * product, as a visitor gets it: /, /videos with about 1,000 videos, one video's page and /statistics,
 * with the mobile preset (simulated slow 4G, 4× slower CPU, a phone's screen) and the desktop one.
 * Each page and preset is run `runs` times (default 3) with a cold cache; prints (and reports for
 * bench/results.md) the median performance score (and the spread), the median run's accessibility,
 * best-practices and SEO scores, its Core Web Vitals and the audits that fail, heaviest first. The
 * signed-in pages are opened with an administrator's session token in local storage (as
 * tests/e2e/session.ts openSignedIn does), which Lighthouse keeps (`disableStorageReset`; the HTTP cache
 * is cleared before each run instead). Bounded: past BENCH_LIGHTHOUSE_MINUTES (default 5) of
 * Lighthouse runs, the remaining pages are run once (the report says which).
 *
 *   npm run build && npx tsx bench/lighthouse.ts [runs per page and preset, default 3]
 *   (BENCH_LIGHTHOUSE_PAGES=/videos,/statistics and BENCH_LIGHTHOUSE_PRESETS=mobile: only those;
 *   BENCH_LIGHTHOUSE_SAVE=<dir>: each run's full report as JSON there, to open in the Lighthouse viewer;
 *   BENCH_LIGHTHOUSE_HTTPS=1: through deploy/nginx-https.conf (HTTPS, HTTP/2) as an organisation serves
 *   it, reported apart, without the goal, which stays on the product served directly over HTTP/1.1)
 *   (or scripts/build-apart.sh <name> and TAO_DIST=.tmp/<name>/dist, bench/built-server.ts)
 *
 * Data: a fresh built product (bench/built-server.ts, signed up as its first administrator) with the demo library (`demo --videos 8`,
 * videos with pictures and media) and 1,000 generated videos (`generate --videos 1000 --users 0
 * --views 0`, rows only). Local only, bounded: it stops the product and the browser and removes its data.
 * Goal (R-PERF-2): performance ≥ 95 and accessibility 100 on mobile.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { freePort, registerWithInvitation, startBuiltServer, type BuiltServer } from './built-server.ts';
import { startHttpsProxy, type HttpsProxy } from './https-proxy.ts';
import { markdownTable, reportSection } from './report.ts';

const root = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** tests/e2e/harness.ts launchBrowser's flags; chrome-launcher adds its own (no first run, no sync …). */
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const HARD_LIMIT_MS = 12 * 60_000;
/**
 * Past this many minutes of Lighthouse runs, each remaining page and preset gets one run instead of
 * `runs` (the report says which), so that `npm run bench` stays bounded on a slow or busy machine.
 */
const BUDGET_MINUTES = Number(process.env.BENCH_LIGHTHOUSE_MINUTES ?? 5);
/** Through deploy/nginx-https.conf (HTTPS, HTTP/2) rather than the product's own HTTP/1.1. */
const BEHIND_NGINX = process.env.BENCH_LIGHTHOUSE_HTTPS === '1';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const SHORT: Record<Category, string> = { performance: 'perf', accessibility: 'a11y', 'best-practices': 'best practices', seo: 'SEO' };

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
  /** The median run's other scores, 0–100. */
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** The median run's metrics, in ms (CLS unitless). */
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; si: number };
  /** Audits that do not pass, heaviest first within each category. */
  failing: string[];
  /** The median run's largest paint: its element and where its time went ('' when Lighthouse names none). */
  largestPaint: string;
}

/** 'the <img …> of div > article …: time to first byte 460 ms, load delay 2,410 ms, …' from the median run. */
function largestPaintOf(lhr: Result): string {
  type Item = { node?: { selector?: string; nodeLabel?: string }; phase?: string; timing?: number };
  const tables = ((lhr.audits['largest-contentful-paint-element']?.details as { items?: Array<{ items?: Item[] }> } | undefined)?.items ?? []).flatMap(
    (table) => table.items ?? [],
  );
  const element = tables.find((item) => item.node)?.node;
  if (!element) return '';
  const phases = tables.filter((item) => item.phase).map((item) => `${item.phase} ${Math.round(item.timing ?? 0)} ms`);
  return `${element.selector ?? element.nodeLabel ?? '?'}${phases.length > 0 ? `: ${phases.join(', ')}` : ''}`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Failing audits of a category: weighted ones first (the metrics by their weight), then diagnostics with an estimated saving. */
function failingAudits(lhr: Result, categoryId: Category): string[] {
  const category = lhr.categories[categoryId];
  if (!category) return [];
  const weights = new Map(category.auditRefs.map((ref) => [ref.id, ref.weight]));
  return category.auditRefs
    .map((ref) => lhr.audits[ref.id]!)
    .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'notApplicable' && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'manual')
    // Weighted audits (the metrics, every accessibility check), and diagnostics only when they estimate a saving.
    .filter((audit) => (weights.get(audit.id) ?? 0) > 0 || Object.values(audit.metricSavings ?? {}).some((saving) => (saving ?? 0) > 0))
    .sort((a, b) => (weights.get(b.id) ?? 0) - (weights.get(a.id) ?? 0) || (b.numericValue ?? 0) - (a.numericValue ?? 0))
    .map((audit) => `${SHORT[categoryId]}: ${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}, score ${Math.round((audit.score ?? 0) * 100)}`);
}

/** The product's command line (`npm run cli -- <args>`) on its data directory, as an operator runs it. */
async function cli(dataDir: string, args: string[], timeoutMs: number): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    timeout: timeoutMs,
    maxBuffer: 10 * 1024 * 1024,
  });
  return stdout;
}

async function prepareStorage(port: number, base: string, token: string | null): Promise<void> {
  // A second DevTools client, only to write local storage and empty the HTTP cache, then gone.
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(`${base}/api/health`);
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
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], disableStorageReset: true };
  const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.message}`);
  return result.lhr;
}

export interface LighthouseRun {
  figures: LighthouseFigure[];
  /** pages measured once only, past the time budget */
  shortened: string[];
}

export async function measureLighthouse(runs = 3, log: (line: string) => void = console.log): Promise<LighthouseRun> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-lighthouse-'));
  let product: BuiltServer | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  let proxy: HttpsProxy | undefined;
  try {
    product = await startBuiltServer({ dataDir, port: await freePort() });
    const invitation = product.firstAdminToken();
    if (!invitation) throw new Error(`the server printed no first-administrator invitation:\n${product.output()}`);
    const token = await registerWithInvitation(product.url, invitation, 'lighthouse', 'correct horse battery staple');
    log('Loading the demo library and 1,000 generated videos…');
    await cli(dataDir, ['demo', '--videos', '8'], 10 * 60_000);
    await cli(dataDir, ['generate', '--videos', '1000', '--users', '0', '--views', '0'], 5 * 60_000);
    const answer = await fetch(`${product.url}/api/videos?limit=100`, { headers: { Authorization: `Bearer ${token}` } });
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
    // BENCH_LIGHTHOUSE_PAGES=/videos,/statistics and BENCH_LIGHTHOUSE_PRESETS=mobile narrow a run to what one works on.
    const onlyPages = (process.env.BENCH_LIGHTHOUSE_PAGES ?? '').split(',').filter(Boolean);
    const onlyPresets = (process.env.BENCH_LIGHTHOUSE_PRESETS ?? '').split(',').filter(Boolean);
    const chosenPages = pages.filter((page) => onlyPages.length === 0 || onlyPages.includes(page.name));
    const presets = (['mobile', 'desktop'] as const).filter((preset) => onlyPresets.length === 0 || onlyPresets.includes(preset));
    if (BEHIND_NGINX) proxy = await startHttpsProxy(product.url);
    const base = proxy?.httpsUrl ?? product.url;
    // The proxy's certificate is self-signed (made for the run).
    const flags = proxy ? [...CHROME_FLAGS, '--ignore-certificate-errors'] : CHROME_FLAGS;
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: flags, logLevel: 'silent' });
    const figures: LighthouseFigure[] = [];
    const shortened: string[] = [];
    const started = Date.now();
    for (const preset of presets) {
      for (const page of chosenPages) {
        const results: Result[] = [];
        for (let run = 0; run < runs; run++) {
          if (run > 0 && Date.now() - started > BUDGET_MINUTES * 60_000) {
            shortened.push(`${page.name} ${preset} (${run})`);
            break;
          }
          const port = chrome.port;
          await prepareStorage(port, base, page.signedIn ? token : null);
          const url = `${base}${page.path}`;
          // one more try when Lighthouse cannot load the page (a busy machine), then it is an error
          const lhr = await runOnce(port, url, preset).catch((error: unknown) => {
            log(`    retrying once: ${String(error)}`);
            return runOnce(port, url, preset);
          });
          results.push(lhr);
          if (process.env.BENCH_LIGHTHOUSE_SAVE) {
            const file = path.join(process.env.BENCH_LIGHTHOUSE_SAVE, `${page.name.replace(/\W+/g, '_') || 'root'}-${preset}-${run}.json`);
            fs.mkdirSync(path.dirname(file), { recursive: true });
            fs.writeFileSync(file, JSON.stringify(lhr));
          }
        }
        const performance = results.map((lhr) => Math.round((lhr.categories.performance?.score ?? 0) * 100));
        const middle = results[performance.indexOf(median(performance))]!;
        const metric = (id: string) => Math.round((middle.audits[id]?.numericValue ?? NaN) * (id === 'cumulative-layout-shift' ? 1000 : 1)) / (id === 'cumulative-layout-shift' ? 1000 : 1);
        const score = (category: Category) => Math.round((middle.categories[category]?.score ?? 0) * 100);
        const figure: LighthouseFigure = {
          page: page.name,
          preset,
          performance,
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          seo: score('seo'),
          metrics: {
            fcp: metric('first-contentful-paint'),
            lcp: metric('largest-contentful-paint'),
            tbt: metric('total-blocking-time'),
            cls: metric('cumulative-layout-shift'),
            si: metric('speed-index'),
          },
          failing: CATEGORIES.flatMap((category) => failingAudits(middle, category)),
          largestPaint: largestPaintOf(middle),
        };
        figures.push(figure);
        log(formatFigure(figure));
      }
    }
    return { figures, shortened };
  } finally {
    chrome?.kill();
    await proxy?.stop();
    await product?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatFigure(figure: LighthouseFigure): string {
  const { performance, metrics } = figure;
  const spread = `${Math.min(...performance)}–${Math.max(...performance)}`;
  const lines = [
    `${figure.page.padEnd(12)} ${figure.preset.padEnd(7)} performance ${String(median(performance)).padStart(3)} (${spread}, ${performance.length} runs)  ` +
      `accessibility ${figure.accessibility}  best practices ${figure.bestPractices}  SEO ${figure.seo}`,
    `    FCP ${metrics.fcp} ms, LCP ${metrics.lcp} ms, TBT ${metrics.tbt} ms, CLS ${metrics.cls}, Speed Index ${metrics.si} ms`,
    ...(figure.largestPaint ? [`    largest paint: ${figure.largestPaint}`] : []),
    ...figure.failing.slice(0, 6).map((line) => `    ${line}`),
  ];
  return lines.join('\n');
}

function lighthouseVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

if (process.argv[1] === import.meta.filename) {
  const runs = Number(process.argv[2] ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('usage: npx tsx bench/lighthouse.ts [runs ≥ 1]');
  const limit = setTimeout(() => {
    console.error(`bench/lighthouse.ts: over ${HARD_LIMIT_MS / 60_000} minutes, stopping`);
    process.exit(2);
  }, HARD_LIMIT_MS);
  limit.unref();
  const { figures, shortened } = await measureLighthouse(runs);
  const meetsGoal = (figure: LighthouseFigure) => median(figure.performance) >= 95 && figure.accessibility >= 100;
  const missed = figures.filter((figure) => figure.preset === 'mobile' && !meetsGoal(figure));
  if (!BEHIND_NGINX) {
    console.log(
      missed.length === 0
        ? 'Goal met on mobile: performance ≥ 95 and accessibility 100 on every page.'
        : `Goal missed on mobile for ${missed.map((figure) => figure.page).join(', ')} (performance ≥ 95, accessibility 100).`,
    );
  }
  const rows = figures.map((figure) => [
    figure.page,
    figure.preset,
    `${median(figure.performance)} (${Math.min(...figure.performance)}–${Math.max(...figure.performance)}, ${figure.performance.length} run${figure.performance.length > 1 ? 's' : ''})`,
    String(figure.accessibility),
    String(figure.bestPractices),
    String(figure.seo),
    `${(figure.metrics.fcp / 1000).toFixed(1)} / ${(figure.metrics.lcp / 1000).toFixed(1)} s`,
    `${figure.metrics.tbt} ms`,
    String(figure.metrics.cls),
    figure.preset === 'mobile' && !BEHIND_NGINX
      ? `mobile: performance ${median(figure.performance)}, accessibility ${figure.accessibility} (goal ≥ 95 and 100: ${meetsGoal(figure) ? 'met' : 'MISSED'})`
      : '',
  ]);
  const audits = figures
    .filter((figure) => figure.failing.length > 0)
    .map((figure) => `- ${figure.page}, ${figure.preset}: ${figure.failing.slice(0, 5).join('; ')}${figure.failing.length > 5 ? ` (+${figure.failing.length - 5} more)` : ''}`);
  reportSection(
    BEHIND_NGINX ? 'lighthouse-https' : 'lighthouse',
    BEHIND_NGINX ? 'Lighthouse behind nginx (HTTPS, HTTP/2)' : 'Lighthouse: mobile and desktop',
    (BEHIND_NGINX
      ? 'The product behind deploy/nginx-https.conf (TLS and HTTP/2: one connection, requests multiplexed) as an organisation serves it; ' +
        'no goal here: the goal is measured on the product served directly (HTTP/1.1, six connections). '
      : '') +
      `Lighthouse ${lighthouseVersion()} on the built product (Debian's Chromium, headless) with the demo library and 1,000 generated ` +
      `videos: the mobile preset (simulated slow 4G, 4× slower CPU) and the desktop one, each page ${runs} times with a cold ` +
      `cache; the performance score is the median with its range, the other scores and the metrics are the median run's. ` +
      `Goal (R-PERF-2): performance ≥ 95 and accessibility 100 on mobile.` +
      (shortened.length > 0 ? ` Past the time budget (${BUDGET_MINUTES} min of runs, BENCH_LIGHTHOUSE_MINUTES), fewer runs (in brackets) for: ${shortened.join(', ')}.` : '') +
      '\n\n' +
      markdownTable(['page', 'preset', 'performance', 'accessibility', 'best practices', 'SEO', 'FCP / LCP', 'TBT', 'CLS', 'goal'], rows) +
      `\n\nFailing audits of the median run, heaviest first (at most 5 per page):\n\n${audits.length > 0 ? audits.join('\n') : 'none'}` +
      `\n\nThe largest paint of the median mobile run (the element, and the parts of its time: the document's first byte, the wait before its picture was asked for, the picture's download, the wait until it was painted):\n\n` +
      figures
        .filter((figure) => figure.preset === 'mobile' && figure.largestPaint)
        .map((figure) => `- ${figure.page}: ${figure.largestPaint}`)
        .join('\n'),
  );
}
