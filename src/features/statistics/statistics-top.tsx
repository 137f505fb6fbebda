import type { ReactNode } from 'react';
import { Container, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft, IconDownload } from '@tabler/icons-react';
import { appLabels } from '../../components/app-labels.ts';

/** 'Volver' as the dashboard draws it (a subtle button link to the list). */
export const backButtonLook = {
  variant: 'subtle',
  px: 'xs',
  leftSection: <IconArrowLeft size={18} />,
  // Never narrower than its label: on a 320 px phone the title wraps instead ('Volve' otherwise).
  style: { flexShrink: 0 },
} as const;

/** 'Exportar dashboard' as the dashboard draws it. */
export const exportButtonLook = { leftSection: <IconDownload size={18} aria-hidden /> } as const;

interface StatisticsTopProps {
  /** 'Volver' (a router link in the app, a plain link in the document's first paint). */
  back: ReactNode;
  /** 'Exportar dashboard'. */
  exportButton: ReactNode;
  /** `main` in the app; the document's first paint is no landmark. */
  component?: 'main' | 'div';
  /** The tab and what it holds. */
  children?: ReactNode;
}

/**
 * The dashboard's frame and first row: 'Volver', 'Datos Generales' and 'Exportar dashboard', then
 * `children`. The page (statistics-page.tsx) and the first paint its document holds until the app has
 * rendered (scripts/first-paint.tsx) are both this, so the app draws the row where it already was.
 */
export function StatisticsTop({ back, exportButton, component = 'main', children }: StatisticsTopProps) {
  return (
    <Container size="xl" py="lg" px={{ base: 'xs', sm: 'md' }} component={component}>
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
