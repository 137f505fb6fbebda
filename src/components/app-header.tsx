import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChartBar, IconChevronDown, IconLogout, IconTags, IconUpload, IconUsers } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { authMessages } from '../lib/messages.ts';
import { appLabels } from './app-labels.ts';
import { AppTitle } from './app-title.tsx';
import { HeaderBar } from './header-bar.tsx';
import { MenuItemLink } from './menu-item-link.tsx';

/** Below Mantine's `xs` (36em) the header shows its logo without the app's name beside it. */
export const HEADER_NAME_HIDDEN = '(max-width: 35.99em)';

export interface AppHeaderProps {
  /** The user's name, shown on the menu. */
  nombre: string;
  /** Shows the admin entries (R-LIB-2). */
  isAdmin: boolean;
  onLogout: () => void;
  /** Opens the 'Subir video' dialog (admin); the entry is disabled without it. */
  onUploadVideo?: (() => void) | undefined;
  /** Opens 'Administrar usuarios' (admin); the entry is disabled without it. */
  onManageUsers?: (() => void) | undefined;
  /** Opens 'Administrar etiquetas' (admin); the entry is disabled without it. */
  onManageTags?: (() => void) | undefined;
}

/** The header of the authenticated pages: title (back to the list) and the user menu. */
export function AppHeader({ nombre, isAdmin, onLogout, onUploadVideo, onManageTags, onManageUsers }: AppHeaderProps) {
  // On a phone the bar shows the logo and the user's name: beside the name the app's name took three
  // lines, and a long user name pushed the menu off a 320 px screen. It stays the link's name.
  const phone = useMediaQuery(HEADER_NAME_HIDDEN, false, { getInitialValueInEffect: false });
  return (
    <HeaderBar>
      <Link to="/videos" style={{ color: 'inherit', textDecoration: 'none' }}>
        <AppTitle heading={false} NameWrapper={phone ? VisuallyHidden : undefined} />
      </Link>
      <UserMenu nombre={nombre} isAdmin={isAdmin} onLogout={onLogout} onManageUsers={onManageUsers} onUploadVideo={onUploadVideo} onManageTags={onManageTags} />
    </HeaderBar>
  );
}

function UserMenu({ nombre, isAdmin, onLogout, onUploadVideo, onManageTags, onManageUsers }: AppHeaderProps) {
  return (
    // In the header (its banner landmark), not a portal at the end of the page; focus goes to the
    // first entry when it opens (no placeholder without a role inside the menu). Issue 12, axe.
    <Menu position="bottom-end" shadow="md" width={240} withinPortal={false} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton py={6} px="xs" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Group gap="xs" wrap="nowrap">
            <Avatar name={nombre} color="initials" size={32} radius="xl" aria-hidden />
            <Text fw={500} size="sm" truncate maw={{ base: 120, sm: 240 }}>
              {nombre}
            </Text>
            {/* The name comes from what the button shows (WCAG label in name), then what it is. */}
            <VisuallyHidden>{` (${appLabels.userMenu})`}</VisuallyHidden>
            <IconChevronDown size={14} stroke={1.8} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {isAdmin && (
          <>
            <Menu.Item leftSection={<IconUpload size={16} />} disabled={!onUploadVideo} onClick={onUploadVideo}>
              {appLabels.uploadVideo}
            </Menu.Item>
            <Menu.Item leftSection={<IconTags size={16} />} disabled={!onManageTags} onClick={onManageTags}>
              {appLabels.manageTags}
            </Menu.Item>
            <Menu.Item leftSection={<IconUsers size={16} />} disabled={!onManageUsers} onClick={onManageUsers}>
              {appLabels.manageUsers}
            </Menu.Item>
            {/* The list's filters come along: the authenticated layout retains them (src/routes/_auth.tsx). */}
            <MenuItemLink to="/statistics" leftSection={<IconChartBar size={16} />}>
              {appLabels.viewStatistics}
            </MenuItemLink>
            <Menu.Divider />
          </>
        )}
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={onLogout}>
          {authMessages.logout}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
