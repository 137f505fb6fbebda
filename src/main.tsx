import './lib/styles/first-screen-styles.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import { cssVariablesResolver, theme } from './lib/theme.ts';
import { createApp } from './router.tsx';

const { router } = createApp();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    {/* All the theme's CSS variables from here (deduplicateCssVariables={false}): the stylesheet does
        not carry Mantine's 27 KB default-css-variables.css, which the provider computes anyway. */}
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" deduplicateCssVariables={false}>
      <RouterProvider router={router} />
    </MantineProvider>
  </StrictMode>,
);
