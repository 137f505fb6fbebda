import { Menu, type MenuItemProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { AsAnchor } from './router-links.tsx';

function MantineMenuItemAnchor(props: AsAnchor<MenuItemProps>) {
  return <Menu.Item component="a" {...props} />;
}

/** A Mantine menu entry as a type-safe router link (the header's 'Ver estadísticas'). */
export const MenuItemLink = createLink(MantineMenuItemAnchor);
