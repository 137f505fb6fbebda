import { createRouter, type RouterHistory } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { ErrorPage, NotFoundPage } from './components/status-page.tsx';
import { routeTree } from './routeTree.gen.ts';

/** The app's router; tests pass a memory history. */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    context: { queryClient },
    defaultPreload: 'intent',
    // TanStack Query owns caching: the router always asks it (its staleTime decides).
    defaultPreloadStaleTime: 0,
    // SPEC.md §2: router errors on every route show '500'; unknown paths '404'.
    defaultErrorComponent: ErrorPage,
    defaultNotFoundComponent: NotFoundPage,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
