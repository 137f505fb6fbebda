import { act } from '@testing-library/react';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { onTestFinished } from 'vitest';
import { storeToken } from '../../src/lib/auth-token.ts';
import { createApp } from '../../src/router.tsx';
import { renderWithTheme } from './render.tsx';

/** Retries of failed reads come 5 ms apart in UI tests (R-SES-4's 1 s, 2 s, 4 s in the app). */
export const TEST_RETRY_DELAY_MS = 5;

/**
 * Renders a fresh app — its own router, query cache and session, as main.tsx builds them — at
 * `path` of a memory history, with `token` stored as the session token first. The network is
 * Mock Service Worker's (tests/utils/msw.ts). The app is disposed when the test finishes.
 */
export async function renderApp(path: string, { token }: { token?: string } = {}) {
  if (token !== undefined) storeToken(token);
  const app = createApp({
    history: createMemoryHistory({ initialEntries: [path] }),
    retryDelay: () => TEST_RETRY_DELAY_MS,
  });
  onTestFinished(() => app.dispose());
  await act(async () => {
    renderWithTheme(<RouterProvider router={app.router} />);
    await app.router.load();
  });
  return app;
}
