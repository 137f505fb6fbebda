import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Per-route copies of index.html: each page of src/routes/ (a route file that is not a layout) gets
 * `pages/<name>.html`, index.html with `<link rel="modulepreload">` for the code its route and
 * layouts load when it is opened and `<link rel="preload" as="style">` for their stylesheets (Vite's
 * loader still applies them, in its order, when the route's code is imported). The browser then
 * fetches them with the entry instead of after it has run; at `fetchpriority="low"` so the entry,
 * needed first, is not held back on HTTP/1.1's six connections. `pages/pages.json` lists
 * `{ path, pattern, file }` for server/plugins/spa.ts. index.html itself ('/', the sign-in page, in
 * the entry) is unchanged.
 * The pages of `early.paths` also run `early.code` (the early reads, vite.config.ts) as an inline
 * script before the app's; its hash is in `pages/inline-scripts.json`, which the server's
 * Content-Security-Policy for those documents allows, and nothing else inline. With `themeStyle`
 * (scripts/theme-stylesheet.ts) every page's document holds the theme's CSS variables in a `<style>`.
 * `<div id="root">` keeps index.html's inert loading logo, which React's first render replaces (src/main.tsx).
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

/**
 * The split chunks of one route file that its first display loads: component, loader and pending
 * component (TanStack's route load awaits the pending one too, before the first render), not the
 * error part.
 */
function routeChunkKeys(manifest: Manifest, routeFile: string): string[] {
  return Object.keys(manifest).filter((key) => {
    const [file, query] = key.split('?');
    if (file !== routeFile || !query) return false;
    const groups = new URLSearchParams(query).get('tsr-split')?.split('---') ?? [];
    return groups.includes('component') || groups.includes('loader') || groups.includes('pendingComponent');
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

export function writeRoutePages({
  root,
  outDir,
  manifest,
  early,
  themeStyle,
}: {
  root: string;
  outDir: string;
  manifest: Manifest;
  early?: { code: string; paths: string[] };
  themeStyle?: string;
}): RoutePage[] {
  const routesDir = path.join(root, 'src/routes');
  const indexHtml = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const earlyScript = early?.code.trim() ?? null;
  if (earlyScript && /<\/script/i.test(earlyScript)) throw new Error("the early reads' script holds '</script', it cannot be inlined");
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
      // Before the app's script and the preloads: the reads are asked before the preloads take the
      // browser's six connections (HTTP/1.1), and they exist when the app asks.
      const entryScript = /^\s*<script type="module"[^>]*><\/script>$/m.exec(html);
      if (!entryScript) throw new Error('index.html has no module script');
      html = html.replace(entryScript[0], `    <script>${earlyScript}</script>\n${entryScript[0]}`);
    }
    fs.mkdirSync(path.join(outDir, 'pages'), { recursive: true });
    fs.writeFileSync(path.join(outDir, file), html);
    pages.push({ path: routePathText, pattern, file });
  }
  fs.writeFileSync(path.join(outDir, ROUTE_PAGES_FILE), `${JSON.stringify(pages, null, 2)}\n`);
  fs.writeFileSync(path.join(outDir, INLINE_SCRIPTS_FILE), `${JSON.stringify(earlyScript ? [scriptHash(earlyScript)] : [])}\n`);
  return pages;
}
