import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { ErrorPage, NotFoundPage } from '../components/status-page.tsx';
import { ToastViewport } from '../components/toast-viewport.tsx';
import type { Auth } from '../features/auth/session-actor.ts';
import type { ToastStore } from '../lib/toasts.ts';

/**
 * What every route gets from `createApp` (src/router.tsx): loaders read the query cache, guards
 * the role, and an area's write actors are made with the cache (and the toasts) they update.
 */
export interface RouterContext {
  queryClient: QueryClient;
  auth: Auth;
  toasts: ToastStore;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

function RootLayout() {
  const { toasts } = Route.useRouteContext();
  return (
    <>
      <Outlet />
      <ToastViewport store={toasts} />
    </>
  );
}
