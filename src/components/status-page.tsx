import type { ReactNode } from 'react';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { dialogMessages, pageMessages } from '../lib/messages.ts';
import { AppLogo } from './app-logo.tsx';
import { appLabels } from './app-labels.ts';
import { ButtonLink } from './router-links.tsx';

interface StatusPageProps {
  code: string;
  message: string;
  action?: ReactNode;
}

/** A full-page status: big code, its message, one way out. Used by 404, 405 and 500. */
function StatusPage({ code, message, action }: StatusPageProps) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack align="center" gap="xs" ta="center">
        <AppLogo size={56} label={pageMessages.appTitle} />
        <Title
          order={1}
          fz={{ base: 96, sm: 140 }}
          fw={800}
          lh={1}
          mt="md"
          c="tao.7"
          style={{ letterSpacing: '-0.04em' }}
        >
          {code}
        </Title>
        <Text size="xl" fw={500} c="dimmed" maw={480}>
          {message}
        </Text>
        {action && <div style={{ marginTop: 'var(--mantine-spacing-lg)' }}>{action}</div>}
      </Stack>
    </Center>
  );
}

function BackToVideos() {
  return (
    <ButtonLink to="/videos" variant="light" size="md" leftSection={<IconArrowLeft size={18} />}>
      {appLabels.backToVideos}
    </ButtonLink>
  );
}

export function NotFoundPage() {
  return <StatusPage code={pageMessages.notFoundCode} message={pageMessages.notFound} action={<BackToVideos />} />;
}

export function ForbiddenPage() {
  return <StatusPage code={pageMessages.forbiddenCode} message={pageMessages.forbidden} action={<BackToVideos />} />;
}

export function ErrorPage() {
  return (
    <StatusPage
      code={pageMessages.errorCode}
      message={pageMessages.error}
      action={
        <Button variant="light" size="md" leftSection={<IconRefresh size={18} />} onClick={() => window.location.reload()}>
          {dialogMessages.reload}
        </Button>
      }
    />
  );
}
