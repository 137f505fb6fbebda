import { createTheme, type CSSVariablesResolver, type ModalHeaderProps, type ModalProps, type MantineThemeComponent } from '@mantine/core';
import { appLabels } from '../components/app-labels.ts';

/**
 * The one Mantine theme of the app: TAO blue, rounded cards, system fonts. Every dialog's header
 * is a plain block (Mantine's `<header>` inside a dialog reads as a second page banner to
 * assistive technology), and its close button is named 'Cerrar'.
 */
export const theme = createTheme({
  primaryColor: 'tao',
  colors: {
    tao: ['#e6f2ff', '#cde0fa', '#9bbef0', '#669ae7', '#3b7cdf', '#2169db', '#105fda', '#004fc2', '#0046ae', '#003c9a'],
  },
  defaultRadius: 'md',
  // Buttons, links and checkboxes: a ring on keyboard focus; text fields always show theirs when
  // focused (src/lib/styles/focus-ring.css).
  focusRing: 'auto',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  components: {
    // Plain objects, not Modal.extend(): importing Modal here would put the whole dialog stack (focus
    // trap, scroll lock, transitions) in the first screen's bundle, which only the dialogs need.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': appLabels.close } } satisfies Partial<ModalProps> } satisfies MantineThemeComponent,
    ModalHeader: { defaultProps: { component: 'div' } as unknown as Partial<ModalHeaderProps> } satisfies MantineThemeComponent,
  },
});

/**
 * Mantine's light-scheme colours that fail WCAG AA (4.5:1) for small text, given to every
 * MantineProvider: dimmed text (gray 6, 3.3:1 on white) becomes gray 7 (8:1), which keeps secondary
 * text quieter than the body and readable; placeholders (gray 5, 2.1:1) a grey of 4.9:1, lighter
 * than any value; error messages (red 6, 3.3:1) red 9 (5.5:1); and white text on red buttons
 * (Eliminar, Revocar: 3.3:1 on red 6) gets red 8 (4.5:1), red 9 under the pointer (R-A11Y-1, axe).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': '#6b7178',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled': 'var(--mantine-color-red-8)',
    '--mantine-color-red-filled-hover': 'var(--mantine-color-red-9)',
  },
  dark: {},
});

/**
 * The app's MantineProvider settings (src/main.tsx). The theme's CSS variables are all written
 * (`deduplicateCssVariables: false`): the stylesheets do not carry Mantine's 27 KB
 * default-css-variables.css. The signed-in pages' documents bring them, computed at build time with
 * these very settings, in a <style> (scripts/theme-stylesheet.ts); elsewhere the provider
 * computes them as the app starts.
 */
export const providerSettings = {
  theme,
  cssVariablesResolver,
  defaultColorScheme: 'light',
  deduplicateCssVariables: false,
} as const;

/** The attribute of the `<style>` that holds them in a signed-in page's document (scripts/theme-stylesheet.ts). */
export const THEME_STYLE_ATTRIBUTE = 'data-theme-variables';
