/**
 * The built client, as `npm test` has just built it (`npm run build`): what the first screen weighs,
 * whether the Mantine CSS split by area styles everything each part shows, and that the source maps
 * stay private. In the e2e project because it reads the build, as the browser tests do (`npm run
 * test:unit` does not build).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_DIR,
  FIRST_SCREEN_BUDGET_GZIP,
  MANIFEST_FILE,
  PRIVATE_DIR,
  formatFirstScreen,
  indexHtmlAssets,
  measureFirstScreen,
} from '../../bench/first-screen.ts';
import { startProduct, type RunningProduct } from './harness.ts';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const root = path.resolve(import.meta.dirname, '../..');

function readManifest(): Manifest {
  if (!fs.existsSync(MANIFEST_FILE)) throw new Error(`${MANIFEST_FILE} is missing: run \`npm run build\` first (npm test does it).`);
  return JSON.parse(fs.readFileSync(MANIFEST_FILE, 'utf8')) as Manifest;
}

describe('the first screen (/)', () => {
  it(`loads at most ${FIRST_SCREEN_BUDGET_GZIP / 1024} KB gzip of JS and CSS before any user action`, () => {
    const screen = measureFirstScreen();
    console.log(`First screen (/), per file:\n${formatFirstScreen(screen)}`);
    expect(screen.assets.some((asset) => asset.file.endsWith('.js'))).toBe(true);
    expect(screen.assets.some((asset) => asset.file.endsWith('.css'))).toBe(true);
    expect(screen.total.gzip).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_GZIP);
  });
});

// ---- Mantine CSS per area (src/lib/styles/) -------------------------------------------------------

/** Mantine's hashed class names (`m_77c9d27d`), as its components' code and its CSS write them. */
const MANTINE_CLASS = /\bm_[0-9a-f]{6,8}\b/g;
const classesIn = (text: string) => new Set(text.match(MANTINE_CLASS) ?? []);

/** Every class some Mantine stylesheet gives a rule: a component class without one needs no CSS. */
function mantineStyledClasses(): Set<string> {
  const sheets = ['core', 'dates', 'charts', 'dropzone'].map((pkg) => path.join(root, 'node_modules/@mantine', pkg, 'styles.css'));
  const styled = new Set<string>();
  for (const sheet of sheets) for (const name of fs.readFileSync(sheet, 'utf8').match(/\.m_[0-9a-f]{6,8}\b/g) ?? []) styled.add(name.slice(1));
  return styled;
}

describe('the Mantine CSS each part of the app loads', () => {
  it('styles every Mantine class the code of the part uses (the entry, each route, each lazy dialog)', () => {
    const manifest = readManifest();
    const styled = mantineStyledClasses();
    const read = (file: string) => fs.readFileSync(path.join(CLIENT_DIR, file), 'utf8');

    const staticClosure = (key: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(key)) return seen;
      seen.add(key);
      for (const imported of manifest[key]?.imports ?? []) staticClosure(imported, seen);
      return seen;
    };
    const cssOf = (keys: Set<string>) => {
      const classes = new Set<string>();
      for (const key of keys) for (const css of manifest[key]!.css ?? []) for (const name of classesIn(read(css))) classes.add(name);
      return classes;
    };
    const importers = new Map<string, string[]>();
    for (const [key, chunk] of Object.entries(manifest)) {
      for (const target of chunk.dynamicImports ?? []) importers.set(target, [...(importers.get(target) ?? []), key]);
    }
    // A route's chunk is shown under its layouts' (src/routes/_auth.tsx for src/routes/_auth/…): the
    // router loads every matched route's chunk before it renders.
    const layoutsOf = (key: string): string[] => {
      const file = key.split('?')[0]!;
      if (!file.startsWith('src/routes/')) return [];
      const dirs = path.dirname(file.slice('src/routes/'.length)).split('/').filter((dir) => dir !== '.');
      const layoutFiles = dirs.map((_, i) => `src/routes/${dirs.slice(0, i + 1).join('/')}.tsx`);
      return Object.keys(manifest).filter((other) => layoutFiles.includes(other.split('?')[0]!));
    };
    // What is surely loaded with a chunk: its own CSS and its static imports', its layouts', and what
    // every way of reaching it (each chunk that imports it dynamically) has loaded before.
    const loaded = new Map<string, Set<string>>();
    const loadedWith = (key: string, path: string[] = []): Set<string> => {
      const known = loaded.get(key);
      if (known) return known;
      const own = cssOf(staticClosure(key));
      const layouts = layoutsOf(key).map((layout) => loadedWith(layout, [...path, key]));
      const before = (importers.get(key) ?? []).filter((importer) => !path.includes(importer)).map((importer) => loadedWith(importer, [...path, key]));
      const inherited = before.length === 0 ? new Set<string>() : before.reduce((all, next) => new Set([...all].filter((name) => next.has(name))));
      const result = new Set([...own, ...inherited, ...layouts.flatMap((layout) => [...layout])]);
      loaded.set(key, result);
      return result;
    };

    const unstyled: string[] = [];
    const roots = Object.entries(manifest).filter(([key, chunk]) => chunk.isEntry || importers.has(key));
    expect(roots.length).toBeGreaterThan(5);
    for (const [key] of roots) {
      const available = loadedWith(key);
      for (const member of staticClosure(key)) {
        const missing = [...classesIn(read(manifest[member]!.file))].filter((name) => styled.has(name) && !available.has(name));
        if (missing.length > 0) unstyled.push(`${key} (${manifest[member]!.file}): ${missing.join(' ')}`);
      }
    }
    expect(unstyled, 'Mantine classes used without their CSS: add the component to the area\'s src/lib/styles/ module').toEqual([]);
  });
});

// ---- no public source maps ------------------------------------------------------------------------

describe('source maps', () => {
  let product: RunningProduct;
  beforeAll(async () => {
    product = await startProduct();
  });
  afterAll(async () => {
    await product?.stop();
  });

  it('are kept beside the build, not served: no .map answers and no sourceMappingURL in the scripts', async () => {
    const manifest = readManifest();
    const html = fs.readFileSync(path.join(CLIENT_DIR, 'index.html'), 'utf8');
    const scripts = new Set([...indexHtmlAssets(html), ...Object.values(manifest).map((chunk) => chunk.file)].filter((file) => file.endsWith('.js')));
    expect(scripts.size).toBeGreaterThan(5);
    expect(fs.readdirSync(path.join(PRIVATE_DIR, 'sourcemaps/assets')).some((file) => file.endsWith('.js.map'))).toBe(true);
    for (const script of scripts) {
      const res = await fetch(`${product.url}/${script}`, { headers: { 'accept-encoding': 'br' } });
      expect(res.status, script).toBe(200);
      expect(await res.text(), script).not.toMatch(/sourceMappingURL/);
      const map = await fetch(`${product.url}/${script}.map`);
      expect(map.status, `${script}.map`).toBe(404);
    }
    expect((await fetch(`${product.url}/.vite/manifest.json`)).status).toBe(404);
  });
});
