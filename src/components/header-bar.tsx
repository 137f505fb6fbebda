import type { ReactNode } from 'react';
import { Box, Group } from '@mantine/core';

/**
 * The signed-in pages' top bar: 64 px, sticky, the site's name at the left and the user menu at the
 * right (`children`), as the app's header (app-header.tsx) draws it.
 */
export function HeaderBar({ children }: { children: ReactNode }) {
  return (
    <Box
      component="header"
      h={64}
      px={{ base: 'sm', sm: 'lg' }}
      bg="var(--mantine-color-body)"
      pos="sticky"
      top={0}
      style={{ zIndex: 100, borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group h="100%" justify="space-between" wrap="nowrap">
        {children}
      </Group>
    </Box>
  );
}
