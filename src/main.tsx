import './lib/styles/first-screen-styles.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import { providerSettings, THEME_STYLE_ATTRIBUTE } from './lib/theme.ts';
import { createApp } from './router.tsx';
import { afterYielding, settledOrAfter } from './lib/yield-to-browser.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A signed-in page's document holds the theme's CSS variables and Mantine's global classes, built
// with the same settings (scripts/theme-stylesheet.ts): the provider then writes neither. Elsewhere
// (the sign-in page's index.html) it computes them.
const themeInDocument = document.querySelector(`style[${THEME_STYLE_ATTRIBUTE}]`) !== null;

/**
 * How long the first render waits for the router to load the address's route (its code, guards and
 * loaders). Past it (a slow or failing server: reads retry for seconds) the app renders at once, as
 * it did before, and the router's own pending views take over (a video's 'Cargando el video').
 */
const FIRST_RENDER_WAIT_MS = 1000;

// Three tasks instead of one: running the app's code, building the app (query cache, session,
// router), then its first render. Between them the browser may paint, take input or run what
// arrived from the network (docs/decisions/0063-first-render-in-slices.md). The first render
// comes once the route has loaded and is a transition: React renders the whole page in slices of a
// few milliseconds between which the browser stays responsive. Rendered before the route had loaded,
// the router's load (started as it mounts) rendered the page again, synchronously, in one long task
// (docs/decisions/0063-first-render-in-slices.md).
afterYielding(() => {
  const { router } = createApp();
  void settledOrAfter(router.load(), FIRST_RENDER_WAIT_MS).then(() =>
    afterYielding(() => {
      const reactRoot = createRoot(root);
      startTransition(() =>
        reactRoot.render(
          <StrictMode>
            <MantineProvider {...providerSettings} withCssVariables={!themeInDocument} withGlobalClasses={!themeInDocument}>
              <RouterProvider router={router} />
            </MantineProvider>
          </StrictMode>,
        ),
      );
    }),
  );
});
