import type { ReactNode } from 'react';
import { Card, Table, Text, Title } from '@mantine/core';
import { appLabels } from '../../components/app-labels.ts';

interface StatisticsTableCardProps {
  title: string;
  columns: readonly string[];
  /** Table rows; without any, the empty state 'No se han encontrado datos'. */
  children?: ReactNode;
}

/** One dashboard table: title, column headers, rows or the empty state. */
export function StatisticsTableCard({ title, columns, children }: StatisticsTableCardProps) {
  const titleId = `statistics-${title.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Title order={2} fz="md" fw={600} mb="sm" id={titleId}>
        {title}
      </Title>
      <Table.ScrollContainer minWidth={320}>
        <Table aria-labelledby={titleId} verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {children ?? (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Text c="dimmed" size="sm" ta="center" py="lg">
                    {appLabels.noData}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
