import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { ErrorPage, NotFoundPage } from '../components/status-page.tsx';
import type { Auth } from '../features/auth/session-actor.ts';
import { ToastViewport } from '../features/toast/toast-viewport.tsx';

/** What every route gets from `createApp` (src/router.tsx): loaders read the cache, guards the role. */
export interface RouterContext {
  queryClient: QueryClient;
  auth: Auth;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

function RootLayout() {
  return (
    <>
      <Outlet />
      <ToastViewport />
    </>
  );
}
