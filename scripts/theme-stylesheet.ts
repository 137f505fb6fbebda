import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { providerSettings, THEME_STYLE_ATTRIBUTE } from '../src/lib/theme.ts';

/**
 * What the app's MantineProvider writes into the page as it starts (its `<style>` elements: the
 * theme's CSS variables and Mantine's global classes), rendered once at build time with the same
 * settings (src/lib/theme.ts `providerSettings`), as one `<style>` for the signed-in pages' documents
 * (scripts/route-pages.ts). The app finds it there and then leaves both out (src/main.tsx): computing
 * the variables (every shade and variant of fourteen colours) was about a tenth of a phone's
 * main-thread time before those pages' first paint (docs/decisions/0063-first-render-in-slices.md).
 */
export function themeStyleElement(): string {
  const html = renderToStaticMarkup(createElement(MantineProvider, providerSettings));
  const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!.trim());
  if (styles.length === 0 || !styles[0]!.includes('--mantine-')) throw new Error(`MantineProvider wrote no CSS variables: ${html.slice(0, 200)}`);
  const css = styles.join('\n');
  if (/<\/style/i.test(css)) throw new Error("the theme's CSS holds '</style', it cannot be inlined");
  return `<style ${THEME_STYLE_ATTRIBUTE}>${css}</style>`;
}
