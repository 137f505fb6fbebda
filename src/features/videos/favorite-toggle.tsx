import { ActionIcon, type ActionIconProps } from '@mantine/core';
import { IconHeart, IconHeartFilled } from '@tabler/icons-react';
import { HoverTooltip } from '../../components/hover-tooltip.tsx';
import { libraryMessages } from '../../lib/messages.ts';

export interface FavoriteToggleProps extends Pick<ActionIconProps, 'size'> {
  /** The video is one of the user's favourites (filled heart, pressed). */
  favorite: boolean;
  /** Called with the new value (R-LIB-18: toggles on or off). */
  onChange: (favorite: boolean) => void;
  /** While the change is being saved. */
  busy?: boolean;
}

/** The favourite heart (R-LIB-3, R-VID-2): a toggle button named 'Favorito', pressed when it is one. */
export function FavoriteToggle({ favorite, onChange, busy = false, size = 'lg' }: FavoriteToggleProps) {
  const Icon = favorite ? IconHeartFilled : IconHeart;
  return (
    <HoverTooltip label={favorite ? libraryMessages.removeFavorite : libraryMessages.addFavorite}>
      <ActionIcon
        variant="subtle"
        color="red.8"
        size={size}
        radius="xl"
        aria-label={libraryMessages.favorite}
        aria-pressed={favorite}
        data-favorite={favorite || undefined}
        loading={busy}
        onClick={() => onChange(!favorite)}
      >
        <Icon size={20} aria-hidden />
      </ActionIcon>
    </HoverTooltip>
  );
}
