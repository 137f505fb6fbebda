import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { freePort } from '../../bench/built-server.ts';

const root = path.resolve(import.meta.dirname, '../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotsDir = path.join(root, 'test-results', 'screenshots');
/**
 * The build the tests start: dist/ (what `npm run build` writes), or TAO_DIST, a build kept apart
 * (`vite build --outDir <dir>/dist/client` and `tsc -p tsconfig.server.json --outDir <dir>/dist/server`
 * with <dir> inside the project, e.g. .tmp/mine), so that several people can build and test at once.
 */
const dist = path.resolve(root, process.env.TAO_DIST ?? 'dist');

/**
 * The build's own inline scripts (scripts/route-pages.ts: the early reads), as the pages' documents hold
 * them: each one whose SHA-256 the build lists in pages/inline-scripts.json (what the pages' policy allows).
 */
export function buildInlineScripts(): string[] {
  const pagesDir = path.join(dist, 'client', 'pages');
  const listFile = path.join(pagesDir, 'inline-scripts.json');
  if (!fs.existsSync(listFile)) return [];
  const allowed = new Set(JSON.parse(fs.readFileSync(listFile, 'utf8')) as string[]);
  const texts = new Set<string>();
  for (const file of fs.readdirSync(pagesDir).filter((name) => name.endsWith('.html'))) {
    for (const match of fs.readFileSync(path.join(pagesDir, file), 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)) {
      const text = match[1]!;
      if (allowed.has(`'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`)) texts.add(text);
    }
  }
  return [...texts];
}

export interface RunningProduct {
  url: string;
  dataDir: string;
  /** everything the server printed on stdout */
  output: () => string;
  /** the first-administrator link the server printed, if any */
  firstAdminLink: () => string | undefined;
  /** SIGTERM, wait for the exit, remove the data directory; answers the exit code. */
  stop(options?: { keepData?: boolean }): Promise<number | null>;
}

/**
 * Starts the BUILT product exactly as `npm run serve` does (node dist/server/server/main.js) on a free
 * port with a fresh data directory, and waits until /api/health answers.
 */
export async function startProduct(env: Record<string, string> = {}): Promise<RunningProduct> {
  const entry = path.join(dist, 'server/server/main.js');
  if (!fs.existsSync(entry) || !fs.existsSync(path.join(dist, 'client/index.html'))) {
    throw new Error('The product is not built: run `npm run build` first (npm test does it).');
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-e2e-'));
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', CLIENT_DIR: path.join(dist, 'client'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok && /registration|running at/.test(out)) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer within 30 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    dataDir,
    output: () => out,
    firstAdminLink: () => out.match(/https?:\/\/\S+\/register\?invitation=[A-Za-z0-9_-]+/)?.[0],
    async stop(options = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
  };
}

/** An mp4 made bigger with a trailing `free` box (players and ffprobe skip it), so a transfer takes a while. */
export async function padded(source: string, out: string, extraBytes: number): Promise<void> {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(extraBytes + 8, 0);
  header.write('free', 4, 'latin1');
  await fs.promises.copyFile(source, out);
  await fs.promises.appendFile(out, Buffer.concat([header, Buffer.alloc(extraBytes, 0x2a)]));
}

/**
 * The newest toast showing `text`: at the bottom right, one shown by an earlier step may still be
 * there (paused while the pointer rests on it).
 */
export function newestToast(page: Page, text: string): Locator {
  return page.getByRole('alert').filter({ hasText: text }).last();
}

export async function launchBrowser(options: { classicScrollbars?: boolean } = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: run \`apt-get install -y chromium\` (.ci/run does) or set CHROMIUM_PATH.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    // Playwright hides scrollbars; with `classicScrollbars` they take their room, as on a Windows or Linux desktop.
    ...(options.classicScrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  // Let transitions (modals fading in, menus opening) finish, so the picture shows what a person sees.
  await settle(page);
  const file = path.join(screenshotsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * What a page went through, for a failing test's message: its console errors, uncaught exceptions,
 * failed requests and answers of 400 or more (a flaky failure in a full run is rarely reproduced
 * alone, so the first one has to tell its cause). `describe()` adds where the page is and what has
 * the focus, and keeps a screenshot in test-results/screenshots.
 */
export function watchPage(page: Page): { describe: (name: string) => Promise<string> } {
  const events: string[] = [];
  const at = () => new Date().toISOString().slice(11, 23);
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') events.push(`${at()} console.${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => events.push(`${at()} uncaught: ${error.stack ?? error.message}`));
  page.on('requestfailed', (request) => events.push(`${at()} request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? ''})`));
  page.on('response', (response) => {
    if (response.status() >= 400) events.push(`${at()} ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return {
    describe: async (name) => {
      const state = await page
        .evaluate(() => {
          const active = document.activeElement;
          return {
            url: location.href,
            active: active ? active.outerHTML.slice(0, 300) : 'none',
            headings: [...document.querySelectorAll('h1')].map((h) => `${h.closest('main') ? 'main ' : ''}h1 "${h.textContent ?? ''}"`),
            scrollY: Math.round(window.scrollY),
            dialogs: [...document.querySelectorAll('[role="dialog"]')].map((d) => {
              const box = d.getBoundingClientRect();
              const name = d.getAttribute('aria-label') ?? document.getElementById(d.getAttribute('aria-labelledby') ?? '')?.textContent ?? '?';
              return `${name} at (${Math.round(box.left)}, ${Math.round(box.top)}) ${Math.round(box.width)}×${Math.round(box.height)}, ${getComputedStyle(d).visibility}`;
            }),
            scripts: performance.getEntriesByType('resource').map((entry) => entry.name.replace(location.origin, '')).filter((url) => /\.(js|css)$/.test(url)),
          };
        })
        .catch((error: unknown) => ({ unavailable: String(error) }));
      const file = await screenshot(page, `failed-${name.replace(/[^\w-]+/g, '-').slice(0, 80)}`).catch(() => 'none');
      return [`page: ${JSON.stringify(state, null, 1)}`, `screenshot: ${file}`, 'events:', ...events.slice(-40)].join('\n');
    },
  };
}

/**
 * Transitions over (a dialog fading in, a menu opening): a screenshot and axe's colours then show
 * what a person sees, not a frame of a fade. Endless animations (a loader, a striped progress bar)
 * are not waited for.
 */
export async function settle(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 5000 },
    )
    .catch(() => {});
}
