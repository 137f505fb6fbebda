import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { libraryMessages } from '../../lib/messages.ts';

/** A video's page while its video is still coming (a slow link): the header stays, a spinner below it. */
export function VideoPending() {
  return (
    // The landmark stays a main (a status role on it is not allowed), its live region inside.
    <Center component="main" py={64}>
      <div role="status">
        <Loader size="md" aria-hidden />
        <VisuallyHidden component="h1">{libraryMessages.loadingVideo}</VisuallyHidden>
      </div>
    </Center>
  );
}
