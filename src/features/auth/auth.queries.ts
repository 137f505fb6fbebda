import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api/client.ts';

/** GET /api/me, keyed by the token's user claim so another user never sees a cached name. */
export function currentUserQuery(user: string | undefined) {
  return queryOptions({
    queryKey: ['me', user ?? ''],
    queryFn: async () => unwrap(await api.GET('/api/me')),
    enabled: user !== undefined,
  });
}
