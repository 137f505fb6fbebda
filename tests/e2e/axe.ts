import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const axeSource = fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * The axe-core violations of what the page shows now, as `rule: html` lines (empty when none).
 * The page's context needs `bypassCSP: true`: the app's CSP rightly refuses the injected script.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ html: string }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, nodes: violation.nodes.map((node) => node.html) }));
  });
  return violations.flatMap((violation) => violation.nodes.map((html) => `${violation.id}: ${html.slice(0, 200)}`));
}
