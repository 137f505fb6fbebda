import { AxeBuilder } from '@axe-core/playwright';
import type { Result } from 'axe-core';
import type { Page } from 'playwright-core';

/** What the product is held to (issue 12): WCAG 2.0, 2.1 and 2.2 A and AA, plus axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/** One violation as a person fixing it reads it: rule, impact, what it asks, and every element at fault. */
export function describeViolation(violation: Result): string {
  const nodes = violation.nodes.map((node) => {
    const target = node.target.map((selector) => (Array.isArray(selector) ? selector.join(' >>> ') : String(selector))).join(' | ');
    const summary = (node.failureSummary ?? '').replace(/\s*\n\s*/g, ' ').trim();
    return `    at ${target}\n       ${node.html.slice(0, 160)}\n       ${summary}`;
  });
  return `${violation.id} [${violation.impact ?? 'unknown'}]: ${violation.help} (${violation.helpUrl})\n${nodes.join('\n')}`;
}

/**
 * The axe-core violations of what the page shows now (@axe-core/playwright, every frame), one
 * readable entry each (empty when none). The page's context needs `bypassCSP: true`: the app's CSP
 * rightly refuses the script axe injects.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).options({ resultTypes: ['violations'] }).analyze();
  return results.violations.map(describeViolation);
}
