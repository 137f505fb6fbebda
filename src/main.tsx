import './lib/styles/first-screen-styles.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import { providerSettings, THEME_STYLE_ATTRIBUTE } from './lib/theme.ts';
import { createApp } from './router.tsx';
import { afterYielding } from './lib/yield-to-browser.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A signed-in page's document holds the theme's CSS variables and Mantine's global classes, built
// with the same settings (scripts/theme-stylesheet.ts): the provider then writes neither. Elsewhere
// (the sign-in page's index.html) it computes them.
const themeInDocument = document.querySelector(`style[${THEME_STYLE_ATTRIBUTE}]`) !== null;

// Three tasks instead of one: running the app's code, building the app (query cache, session,
// router), then its first render. Between them the browser may paint, take input or run what
// arrived from the network (docs/DECISIONS.md, "Less work in the first render").
afterYielding(() => {
  const { router } = createApp();
  afterYielding(() => {
    createRoot(root).render(
      <StrictMode>
        <MantineProvider {...providerSettings} withCssVariables={!themeInDocument} withGlobalClasses={!themeInDocument}>
          <RouterProvider router={router} />
        </MantineProvider>
      </StrictMode>,
    );
  });
});
