import type { ReactNode } from 'react';
import { Container, Group, Stack, Title } from '@mantine/core';
import { appLabels } from '../../components/app-labels.ts';

interface StatisticsTopProps {
  /** 'Volver' (a router link to the list). */
  back: ReactNode;
  /** 'Exportar dashboard'. */
  exportButton: ReactNode;
  /** The tab and what it holds. */
  children?: ReactNode;
}

/** The dashboard's frame and first row: 'Volver', 'Datos Generales' and 'Exportar dashboard', then `children`. */
export function StatisticsTop({ back, exportButton, children }: StatisticsTopProps) {
  return (
    <Container size="xl" py="lg" px={{ base: 'xs', sm: 'md' }} component="main">
      <Stack gap="lg">
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            {back}
            <Title order={1} fz="h2">
              {appLabels.statisticsTitle}
            </Title>
          </Group>
          {exportButton}
        </Group>
        {children}
      </Stack>
    </Container>
  );
}
