import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api/client.ts';

/**
 * The auth area's reads: one `queryOptions` per read, used by the route loader that primes it
 * (src/routes/_auth.tsx) and by the component that shows it (the header, session-area.tsx).
 */

/** GET /api/me, keyed by the token's user claim so another user never sees a cached name. */
export function currentUserQuery(user: string | null | undefined) {
  return queryOptions({
    queryKey: ['me', user ?? ''],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/me', { signal })),
    enabled: typeof user === 'string',
  });
}
