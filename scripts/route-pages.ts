import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { minify, transformWithOxc } from 'vite';

/**
 * Per-route copies of index.html (docs/DECISIONS.md, "First screen budget", Lighthouse): each page of
 * src/routes/ (a route file that is not a layout) gets `pages/<name>.html`, index.html with
 * `<link rel="modulepreload">` for the code its route and layouts load when it is opened (their split
 * chunks and everything those import statically) and `<link rel="preload" as="style">` for their
 * stylesheets (not render-blocking: Vite's loader still adds them, in its order, when the route's
 * code is imported, and finds them downloaded). The browser then fetches them with the entry instead
 * of after it has run. Both at `fetchpriority="low"`: the entry runs first and is needed first, and
 * on HTTP/1.1 (six connections) about twenty preloads at high priority held it back (Lighthouse's
 * simulated first paint 2.7–3.1 s with them, 1.7–1.9 s at low priority).
 * `pages/pages.json` lists `{ path, pattern, file }`; server/plugins/spa.ts answers a page's address
 * with its copy. index.html itself ('/', the sign-in page, which is in the entry) is unchanged.
 * The pages of `early.paths` also run, before the app, `early.source` compiled alone (no imports) as an
 * inline script followed by a call of its `startEarlyRequests()`: their first API reads start as the
 * document is parsed. The inline script's hash is in `pages/inline-scripts.json`; the server allows
 * it, and nothing else inline, in those documents' Content-Security-Policy.
 * With `themeStyle` (scripts/theme-stylesheet.ts), every page's document also holds that `<style>`
 * after its stylesheet link: the theme's CSS variables the app would otherwise compute as it starts
 * (src/main.tsx leaves them out when they are there). Inline, not a file: as one more
 * render-blocking request it put the simulated first paint on a phone 0.15–0.25 s later; inline
 * it is about 4 KB more of the document, compressed.
 * With `firstPaints` (scripts/first-paint.tsx), a page's document also shows, in `<div id="root">`,
 * what the app would draw first there (the header bar; the dashboard's first row), painted as soon
 * as the stylesheets have arrived and replaced by the app's first commit.
 */

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

export interface RoutePage {
  /** The route's path as TanStack writes it ('/videos/$id'). */
  path: string;
  /** A regular expression matching the addresses of that route ('^/videos/[^/]+/?$'). */
  pattern: string;
  /** The copy of index.html, relative to the client directory. */
  file: string;
}

export const ROUTE_PAGES_FILE = 'pages/pages.json';

/** The chunks and stylesheets a chunk needs, as Vite's preload helper lists them (the chunk, its imports depth first, then its CSS). */
function collect(manifest: Manifest, key: string, seen: Set<string>, scripts: string[], styles: string[]): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return;
  scripts.push(chunk.file);
  for (const imported of chunk.imports ?? []) collect(manifest, imported, seen, scripts, styles);
  for (const css of chunk.css ?? []) if (!styles.includes(css)) styles.push(css);
}

/** The split chunks of one route file that its first display loads (component and loader, not the error or pending parts). */
function routeChunkKeys(manifest: Manifest, routeFile: string): string[] {
  return Object.keys(manifest).filter((key) => {
    const [file, query] = key.split('?');
    if (file !== routeFile || !query) return false;
    const groups = new URLSearchParams(query).get('tsr-split')?.split('---') ?? [];
    return groups.includes('component') || groups.includes('loader');
  });
}

/** `_auth/videos/$id` → '/videos/$id' and '^/videos/[^/]+/?$' (pathless `_layouts` and `index` leave no segment). */
function routePath(id: string): { path: string; pattern: string } {
  const segments = id.split('/').filter((segment) => !segment.startsWith('_') && segment !== 'index');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    path: `/${segments.join('/')}`,
    pattern: `^/${segments.map((segment) => (segment.startsWith('$') ? '[^/]+' : escape(segment))).join('/')}/?$`,
  };
}

/** Where the pages' inline scripts' hashes are listed for the server's Content-Security-Policy. */
export const INLINE_SCRIPTS_FILE = 'pages/inline-scripts.json';

/** `'sha256-…'` of an inline script's text, as Content-Security-Policy names it. */
export function scriptHash(code: string): string {
  return `'sha256-${crypto.createHash('sha256').update(code, 'utf8').digest('base64')}'`;
}

/**
 * Compiles the early-requests module into one classic script for inlining (its `export`s dropped,
 * wrapped in a function so that nothing leaks into the page's globals, followed by the call).
 */
async function compileEarlyScript(root: string, source: string): Promise<string> {
  const module = fs.readFileSync(path.join(root, source), 'utf8').replace(/^export /gm, '');
  const code = `(() => {\n${module}\nstartEarlyRequests();\n})();\n`;
  const compiled = await transformWithOxc(code, path.basename(source), { lang: 'ts', target: 'es2022' });
  const minified = await minify(path.basename(source).replace(/\.ts$/, '.js'), compiled.code, { module: false });
  if (minified.errors.length > 0) throw new Error(`${source}: ${minified.errors.map((error) => error.message).join('; ')}`);
  if (/<\/script/i.test(minified.code)) throw new Error(`${source}: the compiled script holds '</script', it cannot be inlined`);
  return minified.code.trim();
}

export async function writeRoutePages({
  root,
  outDir,
  manifest,
  early,
  themeStyle,
  firstPaints = {},
}: {
  root: string;
  outDir: string;
  manifest: Manifest;
  early?: { source: string; paths: string[] };
  themeStyle?: string;
  /** HTML each page's document shows in `<div id="root">` until the app renders, by route path (scripts/first-paint.tsx). */
  firstPaints?: Record<string, string>;
}): Promise<RoutePage[]> {
  const routesDir = path.join(root, 'src/routes');
  const indexHtml = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const earlyScript = early ? await compileEarlyScript(root, early.source) : null;
  // What the entry already brings is not preloaded again.
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  const inEntry = new Set<string>();
  if (entryKey) collect(manifest, entryKey, inEntry, [], []);
  const entryCss = new Set(entryKey ? (manifest[entryKey]!.css ?? []) : []);

  const routeIds = fs
    .readdirSync(routesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.test.tsx'))
    .map((file) => file.replace(/\.tsx?$/, '').split(path.sep).join('/'));
  const pages: RoutePage[] = [];
  fs.rmSync(path.join(outDir, 'pages'), { recursive: true, force: true });
  for (const id of routeIds) {
    // A layout (a file with a folder of the same name) and the root are not pages of their own.
    if (id === '__root' || fs.existsSync(path.join(routesDir, id))) continue;
    // The file and each layout above it that exists, outermost first.
    const parts = id.split('/');
    const files = parts
      .map((_, index) => parts.slice(0, index + 1).join('/'))
      .map((prefix) => ['.tsx', '.ts'].map((ext) => `src/routes/${prefix}${ext}`).find((file) => fs.existsSync(path.join(root, file))))
      .filter((file): file is string => file !== undefined);
    const seen = new Set(inEntry);
    const scripts: string[] = [];
    const styles: string[] = [];
    for (const file of files) for (const key of routeChunkKeys(manifest, file)) collect(manifest, key, seen, scripts, styles);
    // The sign-in page is in the entry: nothing to add, index.html serves it.
    if (scripts.length === 0) continue;
    const links = [
      ...styles.filter((css) => !entryCss.has(css)).map((css) => `    <link rel="preload" as="style" fetchpriority="low" crossorigin href="/${css}">`),
      ...scripts.map((file) => `    <link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`),
    ].join('\n');
    const { path: routePathText, pattern } = routePath(id);
    const file = `pages/${id.split('/').filter((segment) => !segment.startsWith('_') && segment !== 'index').join('.')}.html`;
    let html = indexHtml.replace(/\n\s*<\/head>/, `\n${links}\n  </head>`);
    if (themeStyle) {
      // After the entry's stylesheet, where the provider's own <style> would have come.
      const stylesheets = [...html.matchAll(/^\s*<link rel="stylesheet"[^>]*>$/gm)];
      const last = stylesheets.at(-1);
      if (!last || last.index === undefined) throw new Error('index.html has no stylesheet link');
      const end = last.index + last[0].length;
      html = `${html.slice(0, end)}\n    ${themeStyle}${html.slice(end)}`;
    }
    if (earlyScript && early?.paths.includes(routePathText)) {
      // Inline, before the app's script, its stylesheet and the preloads: it runs as the parser meets
      // it, so the reads are asked before the preloads take the browser's six connections (HTTP/1.1),
      // and they exist when the app asks (docs/DECISIONS.md, "Less work in the first render").
      const entryScript = /^\s*<script type="module"[^>]*><\/script>$/m.exec(html);
      if (!entryScript) throw new Error('index.html has no module script');
      html = html.replace(entryScript[0], `    <script>${earlyScript}</script>\n${entryScript[0]}`);
    }
    const firstPaint = firstPaints[routePathText];
    if (firstPaint) {
      // React replaces it in its first commit (src/main.tsx renders into #root).
      if (!html.includes('<div id="root"></div>')) throw new Error('index.html has no empty <div id="root">');
      html = html.replace('<div id="root"></div>', () => `<div id="root">${firstPaint}</div>`);
    }
    fs.mkdirSync(path.join(outDir, 'pages'), { recursive: true });
    fs.writeFileSync(path.join(outDir, file), html);
    pages.push({ path: routePathText, pattern, file });
  }
  fs.writeFileSync(path.join(outDir, ROUTE_PAGES_FILE), `${JSON.stringify(pages, null, 2)}\n`);
  fs.writeFileSync(path.join(outDir, INLINE_SCRIPTS_FILE), `${JSON.stringify(earlyScript ? [scriptHash(earlyScript)] : [])}\n`);
  return pages;
}
