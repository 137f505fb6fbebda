/**
 * `npm run qa -- <command>`: the QA paths of every machine, as a tool.
 *
 *   list [machine]                         every path of every machine (or one), as numbered steps, with its id
 *   run [machine] [path-id]                the machine's test (or every machine's) in jsdom, or one path of it
 *   run --browser [machine] [path-id]      its paths (or every browser plan's) in Chromium against a fresh product
 *                                          (--base-url URL: another instance)
 *   report [--out dir] [--results file]    the HTML report (test-results/qa/index.html): diagrams, paths, last results
 *
 * `run` prints Vitest's report and exits with its code; each run's results are merged into
 * test-results/qa/results.json, which `report` reads. docs/QA.md has the details.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { jsdomOnlyReason } from './browser/plan.ts';
import { browserPlans, findBrowserPlan } from './browser/plans.ts';
import { listLines } from './list.ts';
import { writeReport } from './report.ts';
import { findEntry, registry, type QaEntry } from './registry.ts';
import { BROWSER_SUITE, BROWSER_TEST_FILE, mergeVitestReportFile, QA_DIR, readResults, ROOT, writeResults } from './results.ts';

const USAGE = `npm run qa -- <command>

  list [machine]                        los caminos de cada máquina (o de una), paso a paso, con su id
  run [machine] [path-id]               la prueba de la máquina en jsdom (sin máquina: todas), o un camino
  run --browser [machine] [path-id]     los caminos en Chromium contra un servidor real recién creado (sin máquina: todas)
        [--base-url URL]                … o contra otra instancia (QA_ADMIN_USER, QA_ADMIN_PASSWORD, QA_ADMIN_TOTP_SECRET)
  report [--out dir] [--results file]   el informe HTML (por defecto test-results/qa/index.html)

Máquinas: ${registry.map((entry) => entry.name).join(', ')} (upload = upload-queue)
En Chromium: ${browserPlans.map((plan) => plan.machine).join(', ')}`;

class UsageError extends Error {}

function entryOf(name: string | undefined): QaEntry {
  if (!name) throw new UsageError('Falta la máquina.');
  const entry = findEntry(name);
  if (!entry) throw new UsageError(`No hay ninguna máquina '${name}'. Máquinas: ${registry.map((candidate) => candidate.name).join(', ')}`);
  return entry;
}

/** Splits `--flag value` options from the positional arguments. */
function parse(args: string[]) {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg.startsWith('--')) {
      const [flag, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      if (inline !== undefined) options[flag] = inline;
      else if (['out', 'results', 'base-url'].includes(flag)) options[flag] = args[++index] ?? '';
      else options[flag] = true;
    } else positional.push(arg);
  }
  return { positional, options };
}

// ---- list ---------------------------------------------------------------------------------------

function list(name: string | undefined): number {
  for (const line of listLines(name ? [entryOf(name)] : registry)) console.log(line);
  return 0;
}

// ---- run ----------------------------------------------------------------------------------------

/** Runs Vitest with a JSON report beside its usual output; merges the results; answers Vitest's exit code. */
function vitest(args: string[], env: NodeJS.ProcessEnv = {}): number {
  fs.mkdirSync(QA_DIR, { recursive: true });
  const json = path.join(QA_DIR, 'last-run.json');
  fs.rmSync(json, { force: true });
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } },
  );
  if (fs.existsSync(json)) {
    const store = readResults();
    const recorded = mergeVitestReportFile(store, json);
    writeResults(store);
    console.log(`\nQA: ${recorded} resultados de caminos guardados en ${path.relative(ROOT, path.join(QA_DIR, 'results.json'))} (npm run qa -- report)`);
  }
  return result.status ?? 1;
}

function pathOf(entry: QaEntry, id: string) {
  const found = entry.model.paths.find((qaPath: { id: string }) => qaPath.id === id);
  if (!found) {
    throw new UsageError(`La máquina ${entry.name} no tiene ningún camino '${id}'. Sus caminos: ${entry.model.paths.map((qaPath: { id: string }) => qaPath.id).join(', ')}`);
  }
  return found;
}

/** The newest modification time under `dir` (files only). */
function newest(dir: string): number {
  let latest = 0;
  for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) latest = Math.max(latest, newest(full));
    else latest = Math.max(latest, fs.statSync(full).mtimeMs);
  }
  return latest;
}

/** The browser paths run the built product: build it when dist/ is missing, say so when it is older than the sources. */
function ensureBuilt(): boolean {
  const built = [path.join(ROOT, 'dist/client/index.html'), path.join(ROOT, 'dist/server/server/main.js')];
  if (!built.every((file) => fs.existsSync(file))) {
    console.log('QA: dist/ no existe: npm run build…');
    return spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' }).status === 0;
  }
  const builtAt = Math.min(...built.map((file) => fs.statSync(file).mtimeMs));
  const sources = Math.max(...['src', 'server', 'machines', 'contract'].map((dir) => newest(path.join(ROOT, dir))));
  if (sources > builtAt) console.log('QA: aviso: dist/ es anterior a los fuentes (src/, server/, machines/): `npm run build` para probar lo último.');
  return true;
}

function runCommand(positional: string[], options: Record<string, string | true>): number {
  const [name, id] = positional;
  if (options.browser) {
    const baseUrl = typeof options['base-url'] === 'string' ? options['base-url'] : undefined;
    if (!name) {
      // Every machine that has a browser plan.
      if (!baseUrl && !ensureBuilt()) return 1;
      return vitest(['--project', 'e2e', BROWSER_TEST_FILE], baseUrl ? { QA_BASE_URL: baseUrl } : {});
    }
    const entry = entryOf(name);
    const plan = findBrowserPlan(entry.name);
    if (!plan) throw new UsageError(`${entry.name} no tiene caminos en Chromium (tienen: ${browserPlans.map((candidate) => candidate.machine).join(', ')}).`);
    if (id) {
      const reason = jsdomOnlyReason(plan, pathOf(entry, id));
      if (reason) throw new UsageError(`El camino ${id} de ${entry.name} es solo jsdom: ${reason}`);
    }
    if (!baseUrl && !ensureBuilt()) return 1;
    return vitest(['--project', 'e2e', BROWSER_TEST_FILE, '-t', `${BROWSER_SUITE}${entry.name} ${id ?? ''}`], baseUrl ? { QA_BASE_URL: baseUrl } : {});
  }
  if (options['base-url']) throw new UsageError('--base-url solo vale con --browser.');
  if (!name) return vitest(['--project', 'ui', ...registry.map((entry) => entry.testFile)]);
  const entry = entryOf(name);
  if (id) pathOf(entry, id);
  return vitest(['--project', 'ui', entry.testFile, ...(id ? ['-t', id] : [])]);
}

// ---- report -------------------------------------------------------------------------------------

function report(options: Record<string, string | true>): number {
  const store = readResults();
  if (typeof options.results === 'string') {
    const recorded = mergeVitestReportFile(store, path.resolve(options.results));
    writeResults(store);
    console.log(`QA: ${recorded} resultados de caminos leídos de ${options.results}`);
  }
  const out = typeof options.out === 'string' ? path.resolve(options.out) : QA_DIR;
  const index = writeReport(registry, store, out);
  console.log(`QA: informe en ${path.relative(process.cwd(), index) || index} (${registry.length} máquinas, una página cada una)`);
  return 0;
}

// ---- main ---------------------------------------------------------------------------------------

function main(argv: string[]): number {
  const [command, ...rest] = argv;
  const { positional, options } = parse(rest);
  switch (command) {
    case 'list':
      return list(positional[0]);
    case 'run':
      return runCommand(positional, options);
    case 'report':
      return report(options);
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return 0;
    default:
      throw new UsageError(`Orden desconocida '${command}'.`);
  }
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`${error.message}\n\n${USAGE}`);
  process.exitCode = 2;
}
