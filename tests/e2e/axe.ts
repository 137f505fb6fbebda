import { AxeBuilder } from '@axe-core/playwright';
import type { Result } from 'axe-core';
import type { Page } from 'playwright-core';
import { settle } from './harness.ts';

/** What the product is held to (R-A11Y-1): WCAG 2.0, 2.1 and 2.2 A and AA, plus axe's best practices. */
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
  await settle(page);
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).options({ resultTypes: ['violations'] }).analyze();
  return results.violations.map(describeViolation);
}

/**
 * The labels of the buttons, links, tabs and menu entries on the page whose text a person cannot
 * read against what is behind it: WCAG's contrast below 4.5:1 (3:1 for large text), computed from the
 * text's colour and the background colours it sits on, blended as the browser paints them. axe-core
 * leaves out text of the very colour of its background (it takes it for hidden), which is how a
 * button's label once vanished ('Quitar administrador', Mantine 9's light variant with a shade).
 * Disabled controls (WCAG exempts them) and text over a picture or gradient (not judged) are left out.
 */
export async function unreadableLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Rgba = { r: number; g: number; b: number; a: number };
    const parse = (value: string): Rgba | null => {
      const rgb = /^rgba?\(([^)]+)\)$/.exec(value);
      if (rgb) {
        const [r = 0, g = 0, b = 0, a = 1] = rgb[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
        return { r, g, b, a };
      }
      const srgb = /^color\(srgb ([^)]+)\)$/.exec(value);
      if (srgb) {
        const [r = 0, g = 0, b = 0, a = 1] = srgb[1]!.split(/[\s/]+/).filter(Boolean).map(Number);
        return { r: r * 255, g: g * 255, b: b * 255, a };
      }
      return null;
    };
    const over = (top: Rgba, below: Rgba): Rgba => ({
      r: top.r * top.a + below.r * (1 - top.a),
      g: top.g * top.a + below.g * (1 - top.a),
      b: top.b * top.a + below.b * (1 - top.a),
      a: 1,
    });
    const luminance = ({ r, g, b }: Rgba) => {
      const channel = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    /** The colour painted behind `element`: its and its ancestors' backgrounds down to an opaque one; null over a picture. */
    const backgroundOf = (element: Element): Rgba | null => {
      const layers: Rgba[] = [];
      for (let at: Element | null = element; at; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (style.backgroundImage !== 'none') return null;
        const color = parse(style.backgroundColor);
        if (color && color.a > 0) {
          layers.push(color);
          if (color.a >= 1) break;
        }
      }
      return layers.reduceRight<Rgba>((below, layer) => over(layer, below), { r: 255, g: 255, b: 255, a: 1 });
    };
    const failures: string[] = [];
    const controls = document.querySelectorAll('button, a[href], [role="button"], [role="tab"], [role="menuitem"]');
    for (const control of controls) {
      if (control.matches(':disabled, [aria-disabled="true"], [data-disabled]') || control.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim();
        const holder = node.parentElement;
        if (!text || !holder || holder.getClientRects().length === 0) continue;
        const style = getComputedStyle(holder);
        if (style.visibility !== 'visible' || Number(style.opacity) === 0) continue;
        const background = backgroundOf(holder);
        const ink = parse(style.color);
        if (!background || !ink) continue;
        const [light, dark] = [luminance(over(ink, background)), luminance(background)].sort((x, y) => y - x) as [number, number];
        const ratio = (light + 0.05) / (dark + 0.05);
        const size = Number.parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        if (ratio < (large ? 3 : 4.5)) failures.push(`«${text}» (${control.getAttribute('aria-label') ?? control.tagName.toLowerCase()}): ${ratio.toFixed(2)}:1`);
      }
    }
    return failures;
  });
}

