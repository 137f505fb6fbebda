import type { ReactNode } from 'react';
import { Alert, Button, Center, Paper, Stack, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { AppTitle } from '../../components/app-header.tsx';
import { authMessages } from '../../lib/messages.ts';

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

/** The end of a sign-in form: the error (if any) and 'Entrar', with a spinner while sending. */
export function AuthFormEnd({ error, busy }: { error: string | null | undefined; busy: boolean }) {
  return (
    <>
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />}>
          {error}
        </Alert>
      )}
      <Button type="submit" fullWidth loading={busy}>
        {authMessages.enter}
      </Button>
    </>
  );
}
