import type { AnchorHTMLAttributes, Ref } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';

/**
 * Mantine components as type-safe router links (TanStack Router `createLink`). The menu's link is in
 * menu-item-link.tsx: the status pages of the first screen use this file, and Menu stays out of it.
 */

export type AsAnchor<P> = P & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof P | 'color'> & { ref?: Ref<HTMLAnchorElement> };

function MantineButtonAnchor(props: AsAnchor<ButtonProps>) {
  return <Button component="a" {...props} />;
}

export const ButtonLink = createLink(MantineButtonAnchor);
