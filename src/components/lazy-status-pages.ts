import { lazyRouteComponent } from '@tanstack/react-router';

/**
 * The 404 and 500 pages, loaded when first shown (TanStack Router's lazy route components: a failed
 * download reloads the page once). No page of the first screen shows them.
 */
export const LazyNotFoundPage = lazyRouteComponent(() => import('./status-page.tsx'), 'NotFoundPage');
export const LazyErrorPage = lazyRouteComponent(() => import('./status-page.tsx'), 'ErrorPage');
