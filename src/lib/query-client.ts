import { QueryCache, QueryClient, isCancelledError } from '@tanstack/react-query';
import { isApiError } from './api/api-error.ts';

const FIVE_MINUTES = 5 * 60 * 1000;
const READ_RETRIES = 3;
const STATISTICS_RETRIES = 2;

/** R-SES-4: reads back off 1 s, 2 s, 4 s … capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30000);
}

const isClientError = (error: unknown) => isApiError(error) && error.status >= 400 && error.status < 500;

/** Retries a failed read up to `retries` times, but never a 4xx answer: asking again gets the same answer. */
const retryUpTo = (retries: number) => (failureCount: number, error: unknown) => !isClientError(error) && failureCount < retries;

export interface QueryClientOptions {
  /**
   * Called once for a read that has failed after its retries (TanStack Query's QueryCache
   * `onError`), never for a cancelled one, nor for a query with `meta: { reportsOwnErrors: true }`.
   * The app opens 'Error obteniendo datos' from here.
   */
  onReadError?: (error: unknown) => void;
  /** The back-off between retries; tests shorten it, as machines' named delays are shortened. */
  retryDelay?: (attempt: number) => number;
}

/** R-SES-4 data-fetching policies: reads retry 3 times (not 4xx), writes never; 5-minute cache. */
export function createQueryClient({ onReadError, retryDelay: delay = retryDelay }: QueryClientOptions = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isCancelledError(error) || (isApiError(error) && error.type === 'aborted')) return;
        // A read whose screen reports its own failure (a dialog's list: a toast, and it closes).
        if (query.meta?.['reportsOwnErrors'] === true) return;
        onReadError?.(error);
      },
    }),
    defaultOptions: {
      queries: { retry: retryUpTo(READ_RETRIES), retryDelay: delay, gcTime: FIVE_MINUTES, staleTime: FIVE_MINUTES },
      mutations: { retry: 0 },
    },
  });
}

/** Statistics queries: at most 2 retries, none on a 4xx answer, no refetch on window focus. */
export const statisticsQueryDefaults = {
  retry: retryUpTo(STATISTICS_RETRIES),
  refetchOnWindowFocus: false,
} as const;
