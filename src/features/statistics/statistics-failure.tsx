import { Button, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { statisticsMessages } from '../../lib/messages.ts';

/** A dashboard read that failed (R-STAT-6): 'Error al obtener los datos' and 'Recargar', which asks again. */
export function StatisticsFailure({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <Stack align="center" gap="xs" py="md" role="alert">
      <Text c="red.8" size="sm" fw={500} ta="center">
        {statisticsMessages.loadFailed}
      </Text>
      <Button variant="light" size="xs" leftSection={<IconRefresh size={16} aria-hidden />} loading={retrying} onClick={onRetry}>
        {statisticsMessages.reload}
      </Button>
    </Stack>
  );
}
