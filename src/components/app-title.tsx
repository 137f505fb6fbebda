import { Group, Title, VisuallyHidden } from '@mantine/core';
import { pageMessages } from '../lib/first-screen-messages.ts';
import { AppLogo } from './app-logo.tsx';

/**
 * Logo and 'Contenido audiovisual TAO'. On the sign-in screens it is the page's heading; in the
 * header of the other pages it is the site's name (`heading={false}`), and each page has its own h1.
 * `nameHidden`: the name is left to assistive technology, only the logo shows (the header on phones).
 */
export function AppTitle({ logoSize = 36, heading = true, nameHidden = false }: { logoSize?: number; heading?: boolean; nameHidden?: boolean }) {
  const title = (
    <Title order={1} {...(heading ? {} : { component: 'span' as const })} fz={{ base: 'md', sm: 'lg' }} fw={700} lh={1.2}>
      {pageMessages.appTitle}
    </Title>
  );
  return (
    <Group gap="sm" wrap="nowrap">
      <AppLogo size={logoSize} />
      {nameHidden ? <VisuallyHidden>{title}</VisuallyHidden> : title}
    </Group>
  );
}
