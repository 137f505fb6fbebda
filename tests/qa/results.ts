/**
 * The last result of each QA path, kept in test-results/qa/results.json: `npm run qa -- run` merges
 * Vitest's JSON report of each run into it (and `report --results <file>` merges any other Vitest
 * JSON report, e.g. one the whole test command wrote). A path test is named `<id> …`; its machine is
 * the registry's entry whose test file ran it (jsdom) or the describe 'QA en Chromium: <machine>'.
 */
import fs from 'node:fs';
import path from 'node:path';
import { registry } from './registry.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const QA_DIR = path.join(ROOT, 'test-results', 'qa');
export const RESULTS_FILE = path.join(QA_DIR, 'results.json');
export const BROWSER_TEST_FILE = 'tests/e2e/qa-browser.test.ts';
export const BROWSER_SUITE = 'QA en Chromium: ';

export type Where = 'jsdom' | 'browser';

export interface PathResult {
  status: 'passed' | 'failed';
  /** When the run ended (ISO). */
  at: string;
  durationMs: number;
  /** The first lines of the failure. */
  failure?: string;
}

export interface OtherResult {
  title: string;
  status: 'passed' | 'failed';
  at: string;
}

export interface ResultsStore {
  /** machine → path id → result */
  jsdom: Record<string, Record<string, PathResult>>;
  browser: Record<string, Record<string, PathResult>>;
  /** machine → the test file's other tests (the coverage checks…), by title */
  checks: Record<string, Record<string, OtherResult>>;
}

/** The parts of Vitest's JSON report (the Jest-compatible one `--reporter=json` writes) read here. */
interface VitestJson {
  startTime?: number;
  testResults: Array<{
    name: string;
    endTime?: number;
    assertionResults: Array<{
      ancestorTitles: string[];
      title: string;
      status: string;
      duration?: number | null;
      failureMessages?: string[];
    }>;
  }>;
}

export function readResults(file = RESULTS_FILE): ResultsStore {
  if (!fs.existsSync(file)) return { jsdom: {}, browser: {}, checks: {} };
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ResultsStore>;
  return { jsdom: stored.jsdom ?? {}, browser: stored.browser ?? {}, checks: stored.checks ?? {} };
}

export function writeResults(store: ResultsStore, file = RESULTS_FILE): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(store, null, 2)}\n`);
}

const PATH_TITLE = /^([0-9a-f]{8}) /;
// Vitest colours its messages; the report shows plain text.
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * Merges the passed and failed tests of a Vitest JSON report into the store (skipped ones leave the
 * last result as it was). Answers how many path results it recorded.
 */
export function mergeVitestReport(store: ResultsStore, report: VitestJson): number {
  let recorded = 0;
  for (const file of report.testResults) {
    const relative = path.relative(ROOT, file.name).split(path.sep).join('/');
    const at = new Date(file.endTime ?? report.startTime ?? Date.now()).toISOString();
    const jsdomMachine = registry.find((entry) => entry.testFile === relative)?.name;
    for (const test of file.assertionResults) {
      if (test.status !== 'passed' && test.status !== 'failed') continue;
      const status = test.status;
      const browserSuite = test.ancestorTitles.find((title) => title.startsWith(BROWSER_SUITE));
      const machine = relative === BROWSER_TEST_FILE && browserSuite ? browserSuite.slice(BROWSER_SUITE.length) : jsdomMachine;
      if (!machine) continue;
      const id = PATH_TITLE.exec(test.title)?.[1];
      if (id) {
        const where: Where = relative === BROWSER_TEST_FILE ? 'browser' : 'jsdom';
        const failure = test.failureMessages?.length ? plain(test.failureMessages.join('\n')).split('\n').slice(0, 12).join('\n') : undefined;
        (store[where][machine] ??= {})[id] = { status, at, durationMs: Math.round(test.duration ?? 0), ...(failure ? { failure } : {}) };
        recorded += 1;
      } else if (relative !== BROWSER_TEST_FILE) {
        const title = [...test.ancestorTitles, test.title].join(' › ');
        (store.checks[machine] ??= {})[title] = { title, status, at };
      }
    }
  }
  return recorded;
}

export function mergeVitestReportFile(store: ResultsStore, file: string): number {
  return mergeVitestReport(store, JSON.parse(fs.readFileSync(file, 'utf8')) as VitestJson);
}
