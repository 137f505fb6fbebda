import { AspectRatio, Center, Container, Paper } from '@mantine/core';
import { IconArrowLeft, IconPlayerPlay } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { appLabels } from '../../../components/app-labels.ts';
import { ButtonLink } from '../../../components/router-links.tsx';
import { validateVideoSearch } from '../../../features/videos/video-search.ts';

export const Route = createFileRoute('/_auth/videos/$id')({
  // The list's filters ride along so 'Volver' returns to the same list.
  validateSearch: validateVideoSearch,
  component: VideoDetailPage,
});

function VideoDetailPage() {
  const search = Route.useSearch();
  return (
    <Container size="lg" py="lg" component="main">
      <ButtonLink
        to="/videos"
        search={validateVideoSearch(search)}
        variant="subtle"
        leftSection={<IconArrowLeft size={18} />}
        mb="md"
        px="xs"
      >
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
