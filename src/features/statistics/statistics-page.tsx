import { useDeferredValue } from 'react';
import { Button, SimpleGrid, Stack, Tabs } from '@mantine/core';
import { IconArrowLeft, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { appLabels } from '../../components/app-labels.ts';
import { ButtonLink } from '../../components/router-links.tsx';
import { useAfterFirstRender } from '../../lib/use-after-first-render.ts';
import type { statisticsExportMachine } from '../../../machines/statistics-export/statistics-export.machine.ts';
import type { StatisticsTableId, TablePaging } from './statistics-search.ts';
import { StatisticsInfoBoxes } from './statistics-info-boxes.tsx';
import { StatisticsTableCard } from './statistics-table-card.tsx';
import { statisticsTables, type StatisticsTableDefinition } from './statistics-tables.ts';
import { StatisticsTop } from './statistics-top.tsx';
import { infoBoxesQuery, statisticsTableQuery, viewsPerDayQuery } from './statistics.queries.ts';
import { ViewsPerDay } from './views-per-day.tsx';

export interface StatisticsPageProps {
  /** Each table's page, from the address. */
  pagings: Record<StatisticsTableId, TablePaging>;
  /** Another page or page size of a table: the route puts it in the address. */
  onPaging: (table: StatisticsTableId, paging: TablePaging) => void;
  /** The export machine with the app's side effects (`createStatisticsExportLogic`) or test doubles. */
  exportLogic: typeof statisticsExportMachine;
}

/** What the query gives a section: its data, whether it failed, whether 'Recargar' is asking again. */
function sectionState<T>(query: { data: T | undefined; isError: boolean; isFetching: boolean; refetch: () => unknown }) {
  return {
    failed: query.isError,
    retrying: query.isError && query.isFetching,
    onRetry: () => void query.refetch(),
  };
}

interface TableSectionProps {
  table: StatisticsTableDefinition;
  paging: TablePaging;
  onPaging: (table: StatisticsTableId, paging: TablePaging) => void;
  onExport: (table: StatisticsTableId) => void;
  exportBusy: boolean;
  exporting: boolean;
}

function TableSection({ table, paging, onPaging, onExport, exportBusy, exporting }: TableSectionProps) {
  const query = useQuery(statisticsTableQuery({ table: table.id, limit: paging.limit, offset: paging.offset }));
  // Rows that arrive are rendered at a transition's priority, in slices between which the browser
  // paints and answers input; a query's own update would render all four tables' rows in one task.
  const rows = useDeferredValue(query.data);
  return (
    <StatisticsTableCard
      table={table}
      paging={paging}
      rows={rows}
      {...sectionState(query)}
      onPaging={(next) => onPaging(table.id, next)}
      onExport={() => onExport(table.id)}
      exportBusy={exportBusy}
      exporting={exporting}
    />
  );
}

/**
 * The statistics dashboard (R-STAT-2): 'Volver' to the list as it was (the layout
 * keeps its filters), 'Datos Generales', 'Exportar dashboard', the General tab with the info boxes,
 * the views of the last 30 days and the four paged tables. Each part loads and fails on its own
 * (the route primes every read without waiting); the exports run on the export machine.
 */
export function StatisticsPage({ pagings, onPaging, exportLogic }: StatisticsPageProps) {
  const infoBoxes = useQuery(infoBoxesQuery());
  const viewsPerDay = useQuery(viewsPerDayQuery());
  const exporter = useActorRef(exportLogic);
  const exportBusy = useSelector(exporter, (snapshot) => snapshot.hasTag('busy'));
  const request = useSelector(exporter, (snapshot) => snapshot.context.request);
  const tablesShown = useAfterFirstRender();

  return (
    <StatisticsTop
      back={
        // The list's filters come along (the layout retains them): back to the same list.
        // Never narrower than its label: on a 320 px phone the title wraps instead ('Volve' otherwise).
        <ButtonLink to="/videos" variant="subtle" px="xs" leftSection={<IconArrowLeft size={18} />} style={{ flexShrink: 0 }}>
          {appLabels.back}
        </ButtonLink>
      }
      exportButton={
        <Button
          leftSection={<IconDownload size={18} aria-hidden />}
          disabled={exportBusy && request?.kind !== 'dashboard'}
          loading={request?.kind === 'dashboard'}
          onClick={() => exporter.send({ type: 'export.dashboard' })}
        >
          {appLabels.exportDashboard}
        </Button>
      }
    >
      <Tabs value="general">
        <Tabs.List>
          <Tabs.Tab value="general">{appLabels.statisticsTabGeneral}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general" pt="lg">
          <Stack gap="lg">
            <StatisticsInfoBoxes boxes={infoBoxes.data} {...sectionState(infoBoxes)} />
            <ViewsPerDay days={viewsPerDay.data} {...sectionState(viewsPerDay)} />
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              {tablesShown && statisticsTables.map((table) => (
                <TableSection
                  key={table.id}
                  table={table}
                  paging={pagings[table.id]}
                  onPaging={onPaging}
                  onExport={(id) => exporter.send({ type: 'export.table', table: id })}
                  exportBusy={exportBusy}
                  exporting={request?.kind === 'table' && request.table === table.id}
                />
              ))}
            </SimpleGrid>
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </StatisticsTop>
  );
}
