/**
 * What the first screen (/) makes the browser download before any user action, read from the build:
 * index.html's module script, modulepreloads and stylesheets, then, following the Vite manifest, the
 * static imports (and their CSS) of the entry and of the chunks the route files of / split into
 * (TanStack Router's automatic code splitting loads them as soon as / matches). Dynamic imports past
 * those (a dialog opened later, another page) are not counted. Sizes are raw, gzip level 9 and brotli
 * quality 11, the encodings the build writes beside each file (vite.config.ts) and the server sends.
 *
 *   npx tsx bench/first-screen.ts        (after `npm run build`; prints the per-chunk table and
 *                                         reports it for bench/results.md; TAO_DIST: a build kept apart)
 *
 * tests/e2e/first-screen-budget.test.ts fails the build above FIRST_SCREEN_BUDGET_GZIP.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { markdownTable, reportSection } from './report.ts';

/** ≤ 150 KB gzip of JS + CSS for / (R-PERF-1). */
export const FIRST_SCREEN_BUDGET_GZIP = 150 * 1024;

/** The route files whose split chunks / loads at once (a route file that is not split is in the entry). */
export const FIRST_SCREEN_ROUTE_FILES = ['src/routes/__root.tsx', 'src/routes/index.tsx'];

const root = path.resolve(import.meta.dirname, '..');
/** The build: dist/, or TAO_DIST (a build kept apart, scripts/build-apart.sh), as for the end-to-end tests. */
const dist = path.resolve(root, process.env.TAO_DIST ?? 'dist');
export const CLIENT_DIR = path.join(dist, 'client');
/** Written by the build beside its client directory, never served (vite.config.ts). */
export const PRIVATE_DIR = path.join(dist, 'client-private');
export const MANIFEST_FILE = path.join(PRIVATE_DIR, 'manifest.json');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface AssetSize {
  /** path under dist/client, e.g. assets/index-abc.js */
  file: string;
  /** why it is loaded: 'index.html' or the route file */
  via: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface FirstScreen {
  assets: AssetSize[];
  total: { raw: number; gzip: number; brotli: number };
}

function sizes(bytes: Buffer): { raw: number; gzip: number; brotli: number } {
  return {
    raw: bytes.length,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(bytes, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
}

/** The files index.html itself makes the browser fetch: module scripts, modulepreloads, stylesheets. */
export function indexHtmlAssets(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /type="module"/.test(tag);
    const rel = /\brel="([^"]+)"/.exec(tag)?.[1];
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (!url || !url.startsWith('/') || url.startsWith('//')) continue;
    if (isScript || rel === 'modulepreload' || rel === 'stylesheet') found.push(url.slice(1));
  }
  return found;
}

export function measureFirstScreen(clientDir = CLIENT_DIR, manifestFile = MANIFEST_FILE, routeFiles = FIRST_SCREEN_ROUTE_FILES): FirstScreen {
  const html = fs.readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const via = new Map<string, string>();
  const add = (file: string, reason: string) => {
    if (!via.has(file)) via.set(file, reason);
  };
  for (const file of indexHtmlAssets(html)) add(file, 'index.html');

  const visited = new Set<string>();
  const follow = (key: string, reason: string) => {
    if (visited.has(key)) return;
    visited.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    add(chunk.file, reason);
    for (const css of chunk.css ?? []) add(css, reason);
    for (const imported of chunk.imports ?? []) follow(imported, reason);
  };
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  follow(entries[0]![0], 'index.html');
  const routeKeys = Object.keys(manifest).filter((key) => routeFiles.includes(key.split('?')[0]!));
  for (const key of routeKeys) follow(key, key.split('?')[0]!);

  const missing = [...via.keys()].filter((file) => !fs.existsSync(path.join(clientDir, file)));
  if (missing.length > 0) throw new Error(`${manifestFile} does not match the build in ${clientDir} (no ${missing.join(', ')}): was another build written since?`);
  const assets = [...via].map(([file, reason]) => ({ file, via: reason, ...sizes(fs.readFileSync(path.join(clientDir, file))) }));
  assets.sort((a, b) => b.gzip - a.gzip);
  const total = assets.reduce((sum, a) => ({ raw: sum.raw + a.raw, gzip: sum.gzip + a.gzip, brotli: sum.brotli + a.brotli }), { raw: 0, gzip: 0, brotli: 0 });
  return { assets, total };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

export function formatFirstScreen({ assets, total }: FirstScreen): string {
  const rows = [['file', 'loaded by', 'raw KB', 'gzip KB', 'brotli KB'], ...assets.map((a) => [a.file, a.via, kb(a.raw), kb(a.gzip), kb(a.brotli)])];
  rows.push(['total', '', kb(total.raw), kb(total.gzip), kb(total.brotli)]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i >= 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
  return [line(rows[0]!), ...rows.slice(1).map(line), `budget: ${kb(FIRST_SCREEN_BUDGET_GZIP)} KB gzip`].join('\n');
}

/** The section of bench/results.md: each file with its sizes, the total against the budget. */
export function firstScreenSection({ assets, total }: FirstScreen): string {
  const met = total.gzip <= FIRST_SCREEN_BUDGET_GZIP;
  return (
    `What the browser downloads for / before any user action, read from the build (index.html's scripts, modulepreloads and ` +
    `stylesheets, then the static imports of the entry and of the route chunks of /, following the Vite manifest). Sizes ` +
    `in KB (1,024 bytes): raw, gzip level 9 and brotli quality 11, the encodings the server sends. One measure: sizes do not vary.\n\n` +
    markdownTable(
      ['file', 'loaded by', 'raw', 'gzip', 'brotli'],
      [
        ...assets.map((a) => [a.file, a.via, kb(a.raw), kb(a.gzip), kb(a.brotli)]),
        ['total JS + CSS', '', kb(total.raw), `${kb(total.gzip)} KB (goal ≤ ${kb(FIRST_SCREEN_BUDGET_GZIP)} KB: ${met ? 'met' : 'MISSED'})`, kb(total.brotli)],
      ],
    )
  );
}

if (process.argv[1] === import.meta.filename) {
  const [clientDir, manifestFile] = process.argv.slice(2);
  const screen = measureFirstScreen(clientDir ?? CLIENT_DIR, manifestFile ?? MANIFEST_FILE);
  reportSection('first-screen', 'First screen: JS and CSS for /', firstScreenSection(screen));
}
