import { createTheme } from '@mantine/core';

/** The one Mantine theme of the app: TAO blue, rounded cards, system fonts. */
export const theme = createTheme({
  primaryColor: 'tao',
  colors: {
    tao: ['#e6f2ff', '#cde0fa', '#9bbef0', '#669ae7', '#3b7cdf', '#2169db', '#105fda', '#004fc2', '#0046ae', '#003c9a'],
  },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
});
