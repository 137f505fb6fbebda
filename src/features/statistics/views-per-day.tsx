import { lazy, Suspense, useId, useState } from 'react';
import { Card, Group, Skeleton, Switch, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { appLabels } from '../../components/app-labels.ts';
import { StatisticsFailure } from './statistics-failure.tsx';
import { formatCount } from './statistics-tables.ts';
import type { StatisticsDay } from './statistics.queries.ts';
// Type only: the chart's code stays in its own chunk.
import type { DayPoint } from './views-chart.tsx';

/** The drawing in its own small chunk, fetched when the chart first shows. */
const ViewsChart = lazy(() => import('./views-chart.tsx'));

const dayLabel = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** 'YYYY-MM-DD' (a calendar day of the time zone asked for) as es-ES short: '22 nov'. */
export function formatDay(dia: string): string {
  const time = Date.parse(`${dia}T00:00:00Z`);
  return Number.isNaN(time) ? dia : dayLabel.format(time);
}

const CHART_HEIGHT = 240;

export interface ViewsPerDayProps {
  days: readonly StatisticsDay[] | undefined;
  failed: boolean;
  retrying: boolean;
  onRetry: () => void;
}

/**
 * Views per day of the last 30 days (R-STAT-8): an area chart, and the same
 * numbers as a real table. The table is always there for assistive technology (visually hidden);
 * 'Ver como tabla' shows it instead of the drawing, for whoever would rather read the numbers (or
 * cannot point at the chart for its tooltips).
 */
export function ViewsPerDay({ days, failed, retrying, onRetry }: ViewsPerDayProps) {
  const titleId = useId();
  const [asTable, setAsTable] = useState(false);
  const points: DayPoint[] | undefined = days?.map((day) => ({ ...day, label: formatDay(day.dia) }));

  // Shown ('Ver como tabla'): Mantine's table. Visually hidden beside the drawing, for assistive
  // technology only: the same table in plain elements, about 150 styled components fewer in the page's
  // first render (docs/decisions/0063-first-render-in-slices.md).
  const table = (styled: boolean) => {
    if (!points) return undefined;
    if (!styled) {
      return (
        <table aria-labelledby={titleId}>
          <thead>
            <tr>
              <th scope="col">{appLabels.viewsPerDayDay}</th>
              <th scope="col">{appLabels.viewsPerDayViews}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.dia}>
                <td>
                  <time dateTime={point.dia}>{point.label}</time>
                </td>
                <td>{formatCount(point.visualizaciones)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    return (
      <Table aria-labelledby={titleId} verticalSpacing={4} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{appLabels.viewsPerDayDay}</Table.Th>
            <Table.Th scope="col" ta="right">
              {appLabels.viewsPerDayViews}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {points.map((point) => (
            <Table.Tr key={point.dia}>
              <Table.Td>
                <time dateTime={point.dia}>{point.label}</time>
              </Table.Td>
              <Table.Td ta="right">{formatCount(point.visualizaciones)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  };

  let body;
  if (failed && points === undefined) body = <StatisticsFailure onRetry={onRetry} retrying={retrying} />;
  else if (points === undefined) body = <Skeleton height={CHART_HEIGHT} aria-hidden />;
  else if (points.length === 0) {
    body = (
      <Text c="dimmed" size="sm" ta="center" py="lg">
        {appLabels.noData}
      </Text>
    );
  }
  else if (asTable) body = <Table.ScrollContainer minWidth={240} mah={CHART_HEIGHT + 120} type="native">{table(true)}</Table.ScrollContainer>;
  else {
    body = (
      <>
        <Suspense fallback={<Skeleton height={CHART_HEIGHT} aria-hidden />}>
          <ViewsChart points={points} />
        </Suspense>
        <VisuallyHidden>{table(false)}</VisuallyHidden>
      </>
    );
  }

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="center" gap="xs" mb="sm" wrap="wrap">
        <Title order={2} fz="md" fw={600} id={titleId}>
          {appLabels.viewsPerDayTitle}
        </Title>
        {points !== undefined && points.length > 0 && (
          <Switch size="sm" label={appLabels.viewsPerDayShowTable} checked={asTable} onChange={(event) => setAsTable(event.currentTarget.checked)} />
        )}
      </Group>
      {body}
    </Card>
  );
}
