import type { ReactNode } from 'react';
import { Button, Center, Paper, Stack, Title } from '@mantine/core';
import { AppTitle } from '../../components/app-title.tsx';
import { authMessages } from '../../lib/first-screen-messages.ts';
import { lazyWithPreload } from '../../lib/lazy-with-preload.tsx';

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

// An error shows after the server's answer: the alert's code comes with what a submitted form needs
// next (sign-in-code.ts), not with the page.
const AuthErrorAlert = lazyWithPreload(() => import('./auth-error-alert.tsx').then((module) => module.AuthErrorAlert));
export const preloadAuthErrorAlert = () => AuthErrorAlert.preload();

/** The end of a sign-in form: the error (if any) and 'Entrar', with a spinner while sending. */
export function AuthFormEnd({ error, busy }: { error: string | null | undefined; busy: boolean }) {
  return (
    <>
      {error && <AuthErrorAlert error={error} />}
      <Button type="submit" fullWidth loading={busy}>
        {authMessages.enter}
      </Button>
    </>
  );
}
