import type { AnchorHTMLAttributes, Ref } from 'react';
import { Button, Menu, type ButtonProps, type MenuItemProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';

/** Mantine components as type-safe router links (TanStack Router `createLink`). */

type AsAnchor<P> = P & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof P | 'color'> & { ref?: Ref<HTMLAnchorElement> };

function MantineButtonAnchor(props: AsAnchor<ButtonProps>) {
  return <Button component="a" {...props} />;
}

function MantineMenuItemAnchor(props: AsAnchor<MenuItemProps>) {
  return <Menu.Item component="a" {...props} />;
}

export const ButtonLink = createLink(MantineButtonAnchor);
export const MenuItemLink = createLink(MantineMenuItemAnchor);
