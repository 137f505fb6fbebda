import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api/api-error.ts';

const FIVE_MINUTES = 5 * 60 * 1000;

/** SPEC.md §7: reads back off 1 s, 2 s, 4 s … capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30000);
}

/** SPEC.md §7 data-fetching policies: reads retry 3 times, writes never; 5-minute cache. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 3, retryDelay, gcTime: FIVE_MINUTES, staleTime: FIVE_MINUTES },
      mutations: { retry: 0 },
    },
  });
}

const isClientError = (error: unknown) => isApiError(error) && error.status >= 400 && error.status < 500;

/** Statistics queries: at most 2 retries, none on a 4xx answer, no refetch on window focus. */
export const statisticsQueryDefaults = {
  retry: (failureCount: number, error: unknown) => !isClientError(error) && failureCount < 2,
  refetchOnWindowFocus: false,
} as const;
