import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { build, defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { writeRoutePages } from './scripts/route-pages.ts';
import { themeStyleElement } from './scripts/theme-stylesheet.ts';
import { isChunkProbe, signedInChunks } from './scripts/signed-in-chunks.ts';

/** The signed-in pages' code in few files (scripts/signed-in-chunks.ts): a probe build first, then these groups. */
const signedIn = signedInChunks();

/**
 * The early reads (src/early-requests.ts) bundled with what they import (the token's key and
 * claims, the id and time-zone rules, the filters' keys, the statistics' tables and first page, the
 * list's page size) into one classic script that calls `startEarlyRequests()`, for inlining into the
 * signed-in pages' documents (scripts/route-pages.ts).
 */
async function earlyReadsScript(root: string): Promise<string> {
  const entry = '\0tao-early-reads';
  const source = path.join(root, 'src/early-requests.ts');
  const output = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins: [
      {
        name: 'tao-early-reads-entry',
        resolveId: (id) => (id === entry ? id : null),
        load: (id) => (id === entry ? `import { startEarlyRequests } from ${JSON.stringify(source)};\nstartEarlyRequests();\n` : null),
      },
    ],
    build: { write: false, minify: true, target: 'es2022', copyPublicDir: false, rolldownOptions: { input: entry, output: { format: 'iife' } } },
  });
  const [chunk] = (Array.isArray(output) ? output[0]! : (output as Rolldown.RolldownOutput)).output;
  return chunk.code;
}

const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

/**
 * Beside the client's output directory (dist/client → dist/client-private), never served: the source
 * maps and the Vite manifest (bench/first-screen.ts reads it). Beside it, so a build kept apart
 * (scripts/build-apart.sh) keeps its own.
 */
export const PRIVATE_BUILD_DIR_NAME = 'client-private';

/** Files the server may send compressed: everything textual the build writes. */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

/**
 * After the client is written: the source maps and the manifest move out of the served directory
 * (docs/decisions/0052-first-screen-budget-and-code-splitting.md), then every text file gets its .br (quality 11) and .gz
 * (level 9) beside it, which @fastify/static sends with `preCompressed` (server/plugins/spa.ts).
 */
function clientBuildOutput(): Plugin {
  let outDir = '';
  let privateDir = '';
  let root = '';
  return {
    name: 'tao-client-build-output',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      privateDir = path.resolve(outDir, '..', PRIVATE_BUILD_DIR_NAME);
    },
    async closeBundle() {
      // Each page's copy of index.html with its route's code preloaded, the theme's CSS variables in a
      // <style>, and the signed-in pages' first reads asked for before the app runs
      // (scripts/route-pages.ts, scripts/theme-stylesheet.ts, src/early-requests.ts).
      const manifestFile = path.join(outDir, '.vite', 'manifest.json');
      writeRoutePages({
        root,
        outDir,
        manifest: JSON.parse(fs.readFileSync(manifestFile, 'utf8')),
        early: { code: await earlyReadsScript(root), paths: ['/videos', '/videos/$id', '/statistics'] },
        themeStyle: themeStyleElement(),
      });
      fs.rmSync(privateDir, { recursive: true, force: true });
      const files = fs.readdirSync(outDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      for (const entry of files) {
        const file = path.join(entry.parentPath, entry.name);
        const rel = path.relative(outDir, file);
        if (rel.endsWith('.map')) moveFile(file, path.join(privateDir, 'sourcemaps', rel));
        else if (rel === path.join('.vite', 'manifest.json')) moveFile(file, path.join(privateDir, 'manifest.json'));
      }
      fs.rmSync(path.join(outDir, '.vite'), { recursive: true, force: true });
      for (const entry of fs.readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !TEXT_FILE.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const bytes = fs.readFileSync(file);
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        );
      }
    },
  };
}

/**
 * Mantine computes its default theme's CSS variables (every shade and variant of fourteen colours)
 * when its code is first run, only to leave out of the provider's variables those equal to the
 * defaults, which this app never asks for (`deduplicateCssVariables: false`, src/lib/theme.ts). On a
 * phone that was about 30 ms (at Lighthouse's 4× slowdown) of every page's start. This computes them
 * the first time they are needed instead; the build fails if Mantine's file no longer reads as
 * expected (a new version), rather than silently doing the work again.
 */
function lazyMantineDefaultVariables(): Plugin {
  const file = /@mantine\/core\/esm\/core\/MantineProvider\/MantineCssVariables\/remove-default-variables\.mjs$/;
  const computed = 'const defaultCssVariables = defaultCssVariablesResolver(DEFAULT_THEME);';
  return {
    name: 'tao-lazy-mantine-default-variables',
    apply: 'build',
    transform(code, id) {
      if (!file.test(id.split('?')[0]!)) return null;
      if (!code.includes(computed) || (code.match(/defaultCssVariables\./g) ?? []).length !== 3) {
        throw new Error(`${id}: Mantine's default variables are no longer computed as this build expects; check lazyMantineDefaultVariables in vite.config.ts`);
      }
      return {
        code: code
          .replace(computed, 'let defaultCssVariables;\nconst defaults = () => (defaultCssVariables ??= defaultCssVariablesResolver(DEFAULT_THEME));')
          .replace(/defaultCssVariables\./g, 'defaults().'),
        map: null,
      };
    },
  };
}

function moveFile(from: string, to: string) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.renameSync(from, to);
}

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
      // Each route's component and loader come in one chunk when the route is first entered; the
      // entry keeps only what matching needs (paths, search validation, guards).
      autoCodeSplitting: true,
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent'], ['pendingComponent']] },
    }),
    react(),
    lazyMantineDefaultVariables(),
    signedIn.plugin,
    // The probe writes nothing: no pages, no compressed copies.
    ...(isChunkProbe() ? [] : [clientBuildOutput()]),
  ],
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    // Maps without the sourceMappingURL comment, moved beside the build by clientBuildOutput.
    sourcemap: 'hidden',
    manifest: true,
    // Every browser the app supports has <link rel=modulepreload>: no polyfill in the first screen.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // What the entry needs before anything else runs goes in one file: one request, and one
        // compression window instead of ten small ones (about 6 KB less gzip for the first screen).
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'], priority: 1 }, ...signedIn.groups] },
      },
    },
  },
});
