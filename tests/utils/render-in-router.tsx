import type { ReactNode } from 'react';
import { act } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { renderWithTheme } from './render.tsx';

/** A query client for tests: no retries, nothing goes stale (seed it with setQueryData). */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
}

/**
 * Renders a component as the only route of a memory router (the header's links and router
 * hooks need one), inside the Mantine theme and a query client.
 */
export async function renderInRouter(Component: () => ReactNode, { queryClient = createTestQueryClient(), path = '/videos' } = {}) {
  const rootRoute = createRootRoute({ component: Component });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: [path] }) });
  await act(async () => {
    renderWithTheme(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router as never} />
      </QueryClientProvider>,
    );
    await router.load();
  });
  return { router, queryClient };
}
