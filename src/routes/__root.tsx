import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Outlet, createRootRouteWithContext, useRouterState, type AnyRouteMatch } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { LazyErrorPage, LazyNotFoundPage } from '../components/lazy-status-pages.ts';
import type { Auth } from '../features/auth/session-actor.ts';
import { documentTitle, pageMessages } from '../lib/first-screen-messages.ts';
import { lazyWithPreload } from '../lib/lazy-with-preload.tsx';
import { focusPageWhenShown } from '../lib/page-focus.ts';
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
  notFoundComponent: LazyNotFoundPage,
  errorComponent: LazyErrorPage,
});

function RootLayout() {
  const { toasts } = Route.useRouteContext();
  useDocumentTitle();
  usePageFocus();
  return (
    <>
      <Outlet />
      <Toasts store={toasts} />
    </>
  );
}

// ---- toasts: their code (Mantine's Notification) comes with the first one -------------------------

const ToastViewport = lazyWithPreload(() => import('../components/lazy-toast-viewport.tsx').then((module) => module.ToastViewport));

/** No page shows a toast before the user acts: the viewport's code is loaded with the first toast. */
function Toasts({ store }: { store: ToastStore }) {
  const any = useSyncExternalStore(store.subscribe, () => store.getSnapshot().length > 0, () => false);
  const shown = useRef(false);
  if (any) shown.current = true;
  return shown.current ? <ToastViewport store={store} /> : null;
}

// ---- document title: each route's `head`, or the status page's --------------------------------

type MatchState = Pick<AnyRouteMatch, 'status' | '_notFound' | 'meta'>;

function titleOf(matches: readonly MatchState[]): string {
  if (matches.some((match) => match.status === 'notFound' || match._notFound)) return documentTitle(pageMessages.notFound);
  if (matches.some((match) => match.status === 'error')) return documentTitle(pageMessages.error);
  for (const match of [...matches].reverse()) {
    const title = match.meta?.find((meta) => meta !== undefined && 'title' in meta && typeof meta.title === 'string');
    if (title && 'title' in title && typeof title.title === 'string') return title.title;
  }
  return documentTitle();
}

/** The deepest route's title (its `head`), '404' or '500' pages' own: set on document.title. */
function useDocumentTitle() {
  const title = useRouterState({ select: (state) => titleOf(state.matches) });
  useEffect(() => {
    document.title = title;
  }, [title]);
}

// ---- focus after navigation ------------------------------------------------------------------

/** Each page shown (a new path, not a change of its search) moves focus to it (src/lib/page-focus.ts). */
function usePageFocus() {
  const pathname = useRouterState({ select: (state) => state.resolvedLocation?.pathname });
  const pagesShown = useRef(0);
  useEffect(() => {
    if (pathname === undefined) return;
    pagesShown.current += 1;
    return focusPageWhenShown({ headingToo: pagesShown.current > 1 });
  }, [pathname]);
}
