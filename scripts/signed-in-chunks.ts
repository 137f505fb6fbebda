import fs from 'node:fs';
import { build, type Plugin, type Rolldown } from 'vite';

/**
 * Fewer, larger chunks for the signed-in pages: left to automatic chunking, /videos loaded about 28
 * script files, each a round trip on a phone's network. Which modules a page uses is only known once
 * the bundle is tree-shaken, so `vite build` first chunks the app without writing (a probe), then
 * builds with these groups: `shared` (what the signed-in routes load that the first screen may load
 * later too), and of what only the signed-in routes load, `signed-in` (both the video pages and the
 * statistics page), `video-pages` and `statistics-page`. The entry, the route chunks and the lazy
 * parts (upload wizard, administrators' dialogs, chart) are chunked as before.
 */
interface ChunkPlan {
  signedIn: Set<string>;
  shared: Set<string>;
  /** What only the video pages (the list, a video's page) load. */
  videoPages: Set<string>;
  /** What only the statistics page loads. */
  statisticsPage: Set<string>;
}

const PROBE = 'TAO_CHUNK_PROBE';
const emptyPlan = (): ChunkPlan => ({ signedIn: new Set(), shared: new Set(), videoPages: new Set(), statisticsPage: new Set() });
declare global {
  var __taoChunkPlan: ChunkPlan | undefined;
}

const isRouteSplit = (id: string | null | undefined) => id != null && /[?&]tsr-split=/.test(id);
const isSignedInRoute = (id: string | null | undefined) =>
  isRouteSplit(id) && /[\\/]src[\\/]routes[\\/]_auth(?:[\\/.])/.test(id!) && /tsr-split=[^&]*(?:component|loader)/.test(id!);

/** A route file's name under src/routes ('_auth/videos/index'), and whether it is a layout (a folder of that name exists: '_auth'). */
function routeOf(id: string): { name: string; layout: boolean } {
  const file = id.split('?')[0]!;
  const name = /[\\/]src[\\/]routes[\\/](.+)\.tsx?$/.exec(file)?.[1]?.split(/[\\/]/).join('/') ?? file;
  return { name, layout: fs.existsSync(file.replace(/\.tsx?$/, '')) };
}

/** From the probe's chunks: the modules of each group. */
export function planChunks(bundle: Rolldown.OutputBundle): ChunkPlan {
  const chunks = Object.values(bundle).filter((output): output is Rolldown.OutputChunk => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const walk = (from: Rolldown.OutputChunk[], follow: (chunk: Rolldown.OutputChunk) => string[]) => {
    const seen = new Set<Rolldown.OutputChunk>();
    const queue = [...from];
    while (queue.length > 0) {
      const chunk = queue.pop()!;
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      for (const file of follow(chunk)) {
        const next = byFile.get(file);
        if (next) queue.push(next);
      }
    }
    return seen;
  };
  const entry = chunks.filter((chunk) => chunk.isEntry);
  // The first screen and all it may load later, short of the signed-in routes.
  const firstScreen = walk(entry, (chunk) => [...chunk.imports, ...chunk.dynamicImports].filter((file) => !isSignedInRoute(byFile.get(file)?.facadeModuleId)));
  const initial = walk(entry, (chunk) => chunk.imports);
  // What each signed-in page loads with its route: its own route chunks and its layouts'.
  const routeChunks = chunks.filter((chunk) => isSignedInRoute(chunk.facadeModuleId));
  const pages = new Map<string, Rolldown.OutputChunk[]>();
  for (const chunk of routeChunks) {
    const route = routeOf(chunk.facadeModuleId!);
    if (route.layout) continue;
    const own = routeChunks.filter((other) => {
      const { name } = routeOf(other.facadeModuleId!);
      return name === route.name || route.name.startsWith(`${name}/`);
    });
    pages.set(route.name, own);
  }
  const pagesLoading = new Map<Rolldown.OutputChunk, string[]>();
  for (const [page, own] of pages) for (const chunk of walk(own, (next) => next.imports)) pagesLoading.set(chunk, [...(pagesLoading.get(chunk) ?? []), page]);
  const plan = emptyPlan();
  for (const [chunk, loadedBy] of pagesLoading) {
    if (initial.has(chunk) || isRouteSplit(chunk.facadeModuleId)) continue;
    // Code the first screen may load too: one file, as before. Otherwise by the kind of page that
    // loads it: the video pages' own code (the list's and a video's: cards, description, player…) in
    // one file the statistics page does not load, the statistics page's own in another, and the rest
    // (what both kinds load) in one.
    const videoPages = loadedBy.some((page) => page.startsWith('_auth/videos'));
    const statisticsPage = loadedBy.some((page) => !page.startsWith('_auth/videos'));
    const group = firstScreen.has(chunk) ? plan.shared : videoPages && statisticsPage ? plan.signedIn : videoPages ? plan.videoPages : plan.statisticsPage;
    for (const id of chunk.moduleIds) group.add(id);
  }
  return plan;
}

/** The plugin (runs the probe before the build) and the groups it fills. */
export function signedInChunks(): { plugin: Plugin; groups: Rolldown.CodeSplittingGroup[] } {
  const probing = process.env[PROBE] === '1';
  let plan = emptyPlan();
  const plugin: Plugin = {
    name: 'tao-signed-in-chunks',
    apply: 'build',
    async config(config) {
      if (probing) return;
      process.env[PROBE] = '1';
      try {
        globalThis.__taoChunkPlan = undefined;
        await build({ root: config.root, mode: config.mode, logLevel: 'silent', build: { write: false } });
        if (!globalThis.__taoChunkPlan) throw new Error('the chunk probe made no plan');
        plan = globalThis.__taoChunkPlan;
      } finally {
        delete process.env[PROBE];
        globalThis.__taoChunkPlan = undefined;
      }
    },
    generateBundle(_options, bundle) {
      if (probing) globalThis.__taoChunkPlan = planChunks(bundle);
    },
  };
  const groups: Rolldown.CodeSplittingGroup[] = probing
    ? []
    : [
        { name: 'shared', test: (id) => plan.shared.has(id) },
        { name: 'signed-in', test: (id) => plan.signedIn.has(id) },
        { name: 'video-pages', test: (id) => plan.videoPages.has(id) },
        { name: 'statistics-page', test: (id) => plan.statisticsPage.has(id) },
      ];
  return { plugin, groups };
}

/** Whether this build is the probe (it writes nothing: the plugins that write files stand aside). */
export const isChunkProbe = () => process.env[PROBE] === '1';
