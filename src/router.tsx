import { QueryClientProvider } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { LazyErrorPage, LazyNotFoundPage } from './components/lazy-status-pages.ts';
import { createAuth } from './features/auth/session-actor.ts';
import { createQueryClient } from './lib/query-client.ts';
import { createToastStore } from './lib/toasts.ts';
import { routeTree } from './routeTree.gen.ts';

export interface CreateAppOptions {
  /** Tests pass a memory history; the browser's by default. */
  history?: RouterHistory;
  /** Tests shorten the reads' retry back-off (R-SES-4: 1 s, 2 s, 4 s …). */
  retryDelay?: (attempt: number) => number;
}

/**
 * The whole app, built fresh: the query cache, the session, the toasts and the router that hands
 * them to every route through its context. main.tsx calls it once; each test builds its own.
 * Nothing is started by importing a module.
 */
export function createApp({ history, retryDelay }: CreateAppOptions = {}) {
  const queryClient = createQueryClient({
    ...(retryDelay ? { retryDelay } : {}),
    // 'Error obteniendo datos' once a read has failed after its retries (R-SES-3).
    onReadError: (error) => auth.readFailed(error),
  });
  // Ending the session goes to '/' through the router: no page load.
  const auth = createAuth({ queryClient, goToLogin: () => void router.navigate({ to: '/' }) });
  const toasts = createToastStore();
  const router = createRouter({
    routeTree,
    ...(history ? { history } : {}),
    context: { queryClient, auth, toasts },
    Wrap: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
    defaultPreload: 'intent',
    // TanStack Query owns caching: the router always asks it (its staleTime decides).
    defaultPreloadStaleTime: 0,
    // R-GEN-6: router errors on every route show '500'; unknown paths '404'.
    defaultErrorComponent: LazyErrorPage,
    defaultNotFoundComponent: LazyNotFoundPage,
    scrollRestoration: true,
  });
  return {
    router,
    queryClient,
    auth,
    toasts,
    /** Stops the session (tests call it when they finish). */
    dispose: () => auth.stop(),
  };
}

export type AppRouter = ReturnType<typeof createApp>['router'];

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
