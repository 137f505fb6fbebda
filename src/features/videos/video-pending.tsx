import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { libraryMessages } from '../../lib/messages.ts';

/** A video's page while its video is still coming (a slow link): the header stays, a spinner below it. */
export function VideoPending() {
  return (
    <Center component="main" py={64} role="status">
      <Loader size="md" aria-hidden />
      <VisuallyHidden>{libraryMessages.loadingVideo}</VisuallyHidden>
    </Center>
  );
}
