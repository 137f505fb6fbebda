import { AspectRatio, Center, Container, Paper } from '@mantine/core';
import { IconArrowLeft, IconPlayerPlay } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { appLabels } from '../../../components/app-labels.ts';
import { ButtonLink } from '../../../components/router-links.tsx';

export const Route = createFileRoute('/_auth/videos/$id')({
  component: VideoDetailPage,
});

function VideoDetailPage() {
  return (
    <Container size="lg" py="lg" component="main">
      {/* The list's filters come along (the layout retains them): 'Volver' returns to the same list. */}
      <ButtonLink to="/videos" variant="subtle" leftSection={<IconArrowLeft size={18} />} mb="md" px="xs">
        {appLabels.back}
      </ButtonLink>
      <Paper radius="md" style={{ overflow: 'hidden' }} shadow="sm">
        <AspectRatio ratio={16 / 9}>
          <Center bg="dark.8" aria-label={appLabels.player} role="region">
            <IconPlayerPlay size={64} stroke={1.2} color="var(--mantine-color-dark-3)" />
          </Center>
        </AspectRatio>
      </Paper>
    </Container>
  );
}
