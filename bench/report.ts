/**
 * What every benchmark shares to report its figures: a summary of repeated runs (median and spread)
 * and a Markdown section it leaves for `bench/run-all.ts`, which stitches the sections of one
 * `npm run bench` into bench/results.md under the machine and the date.
 *
 * A benchmark run on its own (`npx tsx bench/x.ts`) prints its section too; it only writes the
 * file when BENCH_RESULTS_DIR is set (run-all sets it), so a lone run never leaves files behind.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Summary {
  /** how many samples */
  runs: number;
  median: number;
  min: number;
  max: number;
  /** (max − min) / median, in percent: how far the runs stray from each other */
  spreadPercent: number;
}

/** Median, extremes and spread of some samples (at least one). */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('summarize: no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  const min = sorted[0]!;
  const max = sorted[sorted.length - 1]!;
  return { runs: sorted.length, median, min, max, spreadPercent: median === 0 ? 0 : ((max - min) / median) * 100 };
}

/** "1234.5 (1200.1–1250.9, ±4 %, 3 runs)": the median first, then what the runs ranged over. */
export function formatSummary(summary: Summary, digits = 1, unit = ''): string {
  const u = unit ? ` ${unit}` : '';
  if (summary.runs === 1) return `${summary.median.toFixed(digits)}${u} (1 run)`;
  return (
    `${summary.median.toFixed(digits)}${u} (${summary.min.toFixed(digits)}–${summary.max.toFixed(digits)}, ` +
    `spread ${summary.spreadPercent.toFixed(0)} %, ${summary.runs} runs)`
  );
}

/**
 * How a goal this project set itself, beyond those of docs/REQUIREMENTS.md, is named in the reports ("own goal ≥ 50 %":
 * run-all.ts counts the two kinds apart).
 */
export const OWN_GOAL = 'own goal';

/**
 * A ratio as a percentage with its goal: "83 % (goal ≥ 70 %: met)"; with `own`, a goal this project
 * set itself: "17 % (own goal ≥ 50 %: MISSED)".
 */
export function formatRatio(ratio: number, goal: { atLeast?: number; atMost?: number; percent?: boolean; own?: boolean }): string {
  const percent = goal.percent ?? true;
  const word = goal.own ? OWN_GOAL : 'goal';
  // One decimal, so a ratio just under its goal (49.6 %) never reads as the goal itself.
  const show = (x: number) => (percent ? `${(x * 100).toFixed(1)} %` : `${x.toFixed(2)}×`);
  if (goal.atLeast !== undefined) return `${show(ratio)} (${word} ≥ ${show(goal.atLeast)}: ${ratio >= goal.atLeast ? 'met' : 'MISSED'})`;
  if (goal.atMost !== undefined) return `${show(ratio)} (${word} ≤ ${show(goal.atMost)}: ${ratio <= goal.atMost ? 'met' : 'MISSED'})`;
  return show(ratio);
}

/** A Markdown table from a header row and rows of cells. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * Prints the benchmark's section and, under `npm run bench`, leaves it for bench/results.md.
 * `id` orders and names it (kebab-case, e.g. "videos-list"); `markdown` is its body (tables,
 * sentences), without the title.
 */
export function reportSection(id: string, title: string, markdown: string): void {
  const text = `## ${title}\n\n${markdown.trim()}\n`;
  console.log(`\n${text}`);
  const dir = process.env.BENCH_RESULTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${id}.md`), text);
}
