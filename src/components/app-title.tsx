import type { ComponentType, ReactNode } from 'react';
import { Group, Title } from '@mantine/core';
import { pageMessages } from '../lib/first-screen-messages.ts';
import { AppLogo } from './app-logo.tsx';

interface AppTitleProps {
  logoSize?: number;
  heading?: boolean;
  /**
   * Wraps the name beside the logo: the header on phones passes Mantine's VisuallyHidden, leaving the
   * name to assistive technology (from the signed-in chunk, whose CSS styles it: the first screen's
   * code does not refer to that component).
   */
  NameWrapper?: ComponentType<{ children: ReactNode }> | undefined;
}

/**
 * Logo and 'Contenido audiovisual TAO'. On the sign-in screens it is the page's heading; in the
 * header of the other pages it is the site's name (`heading={false}`), and each page has its own h1.
 */
export function AppTitle({ logoSize = 36, heading = true, NameWrapper }: AppTitleProps) {
  const title = (
    <Title order={1} {...(heading ? {} : { component: 'span' as const })} fz={{ base: 'md', sm: 'lg' }} fw={700} lh={1.2}>
      {pageMessages.appTitle}
    </Title>
  );
  return (
    <Group gap="sm" wrap="nowrap">
      <AppLogo size={logoSize} />
      {NameWrapper ? <NameWrapper>{title}</NameWrapper> : title}
    </Group>
  );
}
