import type { ReactNode } from 'react';
import { Center, Paper, Stack, Title } from '@mantine/core';
import { AppTitle } from '../../components/app-header.tsx';

interface AuthCardProps {
  /** A heading under the app title (e.g. 'Registro'). */
  heading?: string;
  children: ReactNode;
}

/** The centred card of the sign-in screens: logo and 'Contenido audiovisual TAO' above the form. */
export function AuthCard({ heading, children }: AuthCardProps) {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper component="main" withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={420}>
        <Stack gap="lg">
          <Stack gap="xs" align="center">
            <AppTitle logoSize={44} />
            {heading && (
              <Title order={2} size="h4" c="dimmed" fw={500}>
                {heading}
              </Title>
            )}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
