import { Button, Container, Group, SimpleGrid, Stack, Tabs, Title } from '@mantine/core';
import { IconArrowLeft, IconDownload } from '@tabler/icons-react';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { appLabels } from '../../components/app-labels.ts';
import { ButtonLink } from '../../components/router-links.tsx';
import { StatisticsTableCard } from '../../features/statistics/statistics-table-card.tsx';
import { statisticsTables } from '../../features/statistics/statistics-tables.ts';

export const Route = createFileRoute('/_auth/statistics')({
  beforeLoad: ({ context: { auth } }) => {
    // Admin only (SPEC.md §6). Without any token the layout shows 'Sesión expirada' instead.
    if (auth.hasToken() && !auth.isAdmin()) throw redirect({ to: '/Forbidden' });
  },
  component: StatisticsPage,
});

function StatisticsPage() {
  return (
    <Container size="xl" py="lg" component="main">
      <Stack gap="lg">
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            {/* The list's filters come along (the layout retains them): back to the same list. */}
            <ButtonLink to="/videos" variant="subtle" px="xs" leftSection={<IconArrowLeft size={18} />}>
              {appLabels.back}
            </ButtonLink>
            <Title order={1} fz="h2">{appLabels.statisticsTitle}</Title>
          </Group>
          {/* Enabled once the dashboard has data (statistics issue). */}
          <Button leftSection={<IconDownload size={18} />} disabled>
            {appLabels.exportDashboard}
          </Button>
        </Group>
        <Tabs value="general">
          <Tabs.List>
            <Tabs.Tab value="general">{appLabels.statisticsTabGeneral}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="general" pt="lg">
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              {statisticsTables.map((table) => (
                <StatisticsTableCard key={table.id} title={table.title} columns={table.columns} />
              ))}
            </SimpleGrid>
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </Container>
  );
}
