import type { AnchorHTMLAttributes, Ref } from 'react';
import { ActionIcon, Anchor, Button, Card, Group, NativeSelect, Skeleton, Table, Text, Title, type AnchorProps } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconDownload } from '@tabler/icons-react';
import { createLink } from '@tanstack/react-router';
import { appLabels } from '../../components/app-labels.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { StatisticsFailure } from './statistics-failure.tsx';
import { canNext, canPrevious, nextPage, PAGE_SIZES, parsePageSize, previousPage, withPageSize, type TablePaging } from './statistics-search.ts';
import { displayCell, rowVideoId, type AnyStatisticsRow, type StatisticsColumn, type StatisticsTableDefinition } from './statistics-tables.ts';

type AnchorAsLinkProps = AnchorProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof AnchorProps | 'color'> & { ref?: Ref<HTMLAnchorElement> };

function MantineAnchor(props: AnchorAsLinkProps) {
  return <Anchor {...props} />;
}

/** A text link through the router (TanStack Router `createLink`): the layout keeps the list's filters on it. */
const AnchorLink = createLink(MantineAnchor);

const PAGE_SIZE_OPTIONS = PAGE_SIZES.map(String);

/** Skeleton rows while a page loads: as many as the page holds, up to 10 (a taller card only jumps more). */
const MAX_SKELETON_ROWS = 10;

export interface StatisticsTableCardProps {
  table: StatisticsTableDefinition;
  paging: TablePaging;
  /** The page's rows; undefined until they arrive. */
  rows: readonly AnyStatisticsRow[] | undefined;
  /** The read failed (after its retries): 'Error al obtener los datos' with 'Recargar'. */
  failed: boolean;
  /** The read is being asked again after a failure ('Recargar' shows a loader). */
  retrying: boolean;
  onRetry: () => void;
  /** Another page or page size (the address holds it). */
  onPaging: (paging: TablePaging) => void;
  onExport: () => void;
  /** An export runs: every export button is disabled… */
  exportBusy: boolean;
  /** …and this one's shows the loader. */
  exporting: boolean;
}

function Cell({ row, column }: { row: AnyStatisticsRow; column: StatisticsColumn }) {
  const text = displayCell(row, column);
  const videoId = column.kind === 'video' ? rowVideoId(row) : undefined;
  const numeric = column.kind === 'count' || column.kind === 'rating';
  return (
    <Table.Td ta={numeric ? 'right' : undefined} style={numeric ? { fontVariantNumeric: 'tabular-nums' } : { overflowWrap: 'anywhere' }}>
      {videoId === undefined ? (
        numeric ? text : <BreakableText>{text}</BreakableText>
      ) : (
        <AnchorLink to="/videos/$id" params={{ id: videoId }} size="sm">
          {text}
        </AnchorLink>
      )}
    </Table.Td>
  );
}

/**
 * One dashboard table (R-STAT-2): its title, column headers and the page's rows
 * (skeleton rows while they load, 'No se han encontrado datos' when there are none, 'Error al
 * obtener los datos' with 'Recargar' when the read failed); under it the paging: previous, 'Página
 * N' (1-based), next, the page size and 'Exportar'. Narrower than a 320 px phone, the table
 * scrolls inside its card.
 */
export function StatisticsTableCard({
  table,
  paging,
  rows,
  failed,
  retrying,
  onRetry,
  onPaging,
  onExport,
  exportBusy,
  exporting,
}: StatisticsTableCardProps) {
  const titleId = `statistics-${table.id}-title`;
  const { columns } = table;
  const numericColumn = (column: StatisticsColumn) => column.kind === 'count' || column.kind === 'rating';

  let body;
  if (failed && rows === undefined) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columns.length}>
          <StatisticsFailure onRetry={onRetry} retrying={retrying} />
        </Table.Td>
      </Table.Tr>
    );
  } else if (rows === undefined) {
    body = Array.from({ length: Math.min(paging.limit, MAX_SKELETON_ROWS) }, (_, index) => (
      <Table.Tr key={index} aria-hidden>
        {columns.map((column) => (
          <Table.Td key={column.header}>
            <Skeleton height={12} my={4} width={numericColumn(column) ? 40 : '70%'} ml={numericColumn(column) ? 'auto' : undefined} />
          </Table.Td>
        ))}
      </Table.Tr>
    ));
  } else if (rows.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columns.length}>
          <Text c="dimmed" size="sm" ta="center" py="lg">
            {appLabels.noData}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row, index) => (
      <Table.Tr key={index}>
        {columns.map((column) => (
          <Cell key={column.header} row={row} column={column} />
        ))}
      </Table.Tr>
    ));
  }

  return (
    <Card withBorder radius="md" padding="md" h="100%" component="section" aria-labelledby={titleId} style={{ minWidth: 0 }}>
      <Title order={2} fz="md" fw={600} mb="sm" id={titleId}>
        {table.title}
      </Title>
      {/* Fits a 320 px phone's card (268 px inside); narrower than that, the table scrolls in it. */}
      <Table.ScrollContainer minWidth={260} type="native">
        <Table aria-labelledby={titleId} aria-busy={rows === undefined && !failed} verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.header} ta={numericColumn(column) ? 'right' : undefined} scope="col">
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" align="center" gap="xs" mt="sm" wrap="wrap">
        <Group gap={4} wrap="nowrap" align="center">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={appLabels.previousPage}
            disabled={!canPrevious(paging)}
            onClick={() => onPaging(previousPage(paging))}
          >
            <IconChevronLeft size={18} aria-hidden />
          </ActionIcon>
          <Text size="sm" px="xs" miw={72} ta="center" aria-live="polite">
            {appLabels.pageNumber(paging.page + 1)}
          </Text>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={appLabels.nextPage}
            disabled={!canNext(paging, failed ? undefined : rows?.length)}
            onClick={() => onPaging(nextPage(paging))}
          >
            <IconChevronRight size={18} aria-hidden />
          </ActionIcon>
        </Group>
        {/* On a 320 px phone 'Exportar' goes under the page size rather than past the card's edge. */}
        <Group gap="xs" wrap="wrap" align="center">
          {/* The browser's own select: a phone shows its picker, and nothing is mounted (or measured) for a
              list that stays closed on four tables (docs/decisions/0063-first-render-in-slices.md). */}
          <NativeSelect
            size="xs"
            label={appLabels.rowsPerPage}
            data={PAGE_SIZE_OPTIONS}
            value={String(paging.limit)}
            onChange={(event) => {
              const size = parsePageSize(event.currentTarget.value);
              if (size !== undefined && size !== paging.limit) onPaging(withPageSize(size));
            }}
            // The label beside its field, on one line: the footer stays one row high on a desktop.
            styles={{ root: { display: 'flex', alignItems: 'center', gap: 8 }, label: { whiteSpace: 'nowrap', fontWeight: 400 }, wrapper: { width: 72 } }}
          />
          <Button
            variant="light"
            size="xs"
            leftSection={<IconDownload size={16} aria-hidden />}
            aria-label={appLabels.exportTableOf(table.title)}
            disabled={exportBusy && !exporting}
            loading={exporting}
            onClick={onExport}
          >
            {appLabels.exportTable}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
