import { useState } from 'react';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { createStatisticsExportLogic } from '../../features/statistics/statistics-export.actors.ts';
import { StatisticsPage } from '../../features/statistics/statistics-page.tsx';
import {
  addressOfPaging,
  statisticsTableIds,
  tablePagings,
  validateStatisticsSearch,
  type StatisticsSearch,
  type StatisticsTableId,
  type TablePaging,
} from '../../features/statistics/statistics-search.ts';
import { infoBoxesQuery, statisticsTableQuery, viewsPerDayQuery } from '../../features/statistics/statistics.queries.ts';
import { documentTitle, pageTitleMessages } from '../../lib/first-screen-messages.ts';

/**
 * /statistics (R-STAT-3): admin only. The tables' paging lives in the address (uma_, oma_,
 * vmv_, vmr_ limit/offset/page; the list's filters are the layout's, src/routes/_auth.tsx). The
 * loader primes every read without waiting: each part of the page shows its own skeleton, and its
 * own failure with 'Recargar', never the error page.
 */
export const Route = createFileRoute('/_auth/statistics')({
  validateSearch: (search: Record<string, unknown>): StatisticsSearch => validateStatisticsSearch(search),
  beforeLoad: ({ context: { auth, ssoPending } }) => {
    // Admin only (R-SEC-1). Without any token the layout shows 'Sesión expirada' instead; with a
    // single sign-on token pending, the role is the exchanged token's (checked again once it is stored).
    if (!ssoPending && auth.hasToken() && !auth.isAdmin()) throw redirect({ to: '/Forbidden' });
  },
  loaderDeps: ({ search }) => tablePagings(search),
  loader: ({ context: { queryClient, auth, ssoPending }, deps }) => {
    if (ssoPending || !auth.isAdmin()) return;
    void queryClient.prefetchQuery(infoBoxesQuery());
    void queryClient.prefetchQuery(viewsPerDayQuery());
    for (const table of statisticsTableIds) {
      void queryClient.prefetchQuery(statisticsTableQuery({ table, limit: deps[table].limit, offset: deps[table].offset }));
    }
  },
  head: () => ({ meta: [{ title: documentTitle(pageTitleMessages.statistics) }] }),
  component: StatisticsRoute,
});

function StatisticsRoute() {
  const pagings = Route.useLoaderDeps();
  const navigate = Route.useNavigate();
  const { toasts } = Route.useRouteContext();
  const [exportLogic] = useState(() => createStatisticsExportLogic(toasts));
  // Only this table's keys change: the list's filters and the other tables' pages stay.
  const onPaging = (table: StatisticsTableId, paging: TablePaging) =>
    void navigate({ search: (previous) => ({ ...previous, ...addressOfPaging(table, paging) }) });
  return <StatisticsPage pagings={pagings} onPaging={onPaging} exportLogic={exportLogic} />;
}
