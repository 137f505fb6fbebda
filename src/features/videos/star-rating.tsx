import { Group, Rating, Text } from '@mantine/core';
import { libraryMessages } from '../../lib/messages.ts';

/** R-VID-2: five stars; a rating goes from 1 to 5. */
export const STAR_COUNT = 5;

export interface AverageStarsProps {
  /** puntuacionMedia, 0 (no rating yet) to 5. */
  value: number;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}

/** Mantine Rating's star and sizes, so the cards' stars look as the detail page's. */
const STAR_PATH = 'M12 17.75l-6.172 3.245l1.179 -6.873l-5 -4.867l6.9 -1l3.086 -6.253l3.086 6.253l6.9 1l-5 4.867l1.179 6.873z';
const STAR_SIZES = { xs: 0.875, sm: 1.125, md: 1.25, lg: 1.75 } as const;

function Star({ filled, clipPath }: { filled: boolean; clipPath?: string }) {
  const color = filled ? 'var(--mantine-color-yellow-filled)' : 'var(--mantine-color-gray-3)';
  return (
    <svg
      viewBox="0 0 24 24"
      strokeLinecap="round"
      strokeLinejoin="round"
      fill={color}
      stroke={color}
      data-filled={filled || undefined}
      style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', clipPath }}
    >
      <path d={STAR_PATH} />
    </svg>
  );
}

/**
 * The average score of a card (R-LIB-10): read-only stars filled to the
 * nearest half star, read out as one image 'Puntuación media: 3,5 de 5'. Drawn as Mantine's Rating
 * draws them, without its radio inputs and labels (ten of each per card, for stars nobody can
 * change: about a fifth of a card's first render; docs/decisions/0063-first-render-in-slices.md).
 */
export function AverageStars({ value, size = 'sm' }: AverageStarsProps) {
  const average = Math.min(Math.max(Number.isFinite(value) ? value : 0, 0), STAR_COUNT);
  const halves = Math.round(average * 2);
  const side = `calc(${STAR_SIZES[size]}rem * var(--mantine-scale))`;
  return (
    <span role="img" aria-label={libraryMessages.averageRating(average)} style={{ display: 'inline-flex' }}>
      {Array.from({ length: STAR_COUNT }, (_, index) => {
        const filledHalves = Math.min(Math.max(halves - index * 2, 0), 2);
        return (
          <span key={index} aria-hidden style={{ position: 'relative', display: 'block', width: side, height: side }}>
            <Star filled={false} />
            {filledHalves > 0 && <Star filled clipPath={filledHalves === 1 ? 'inset(0 50% 0 0)' : undefined} />}
          </span>
        );
      })}
    </span>
  );
}

export interface StarRatingProps {
  /** The user's own rating, or null when not rated yet. */
  value: number | null;
  /** Called with 1..5 when the user picks a star (click, or arrows then Enter/Space). */
  onChange: (stars: number) => void;
  /** While the rating is being saved: shown, not changeable. */
  busy?: boolean;
}

/**
 * The detail page's rating (R-VID-1, R-VID-2): five stars named '1 estrella' …
 * '5 estrellas' in a group 'Su puntuación'. Keyboard: Tab into the stars, arrows to move, Enter or
 * Space to rate.
 */
export function StarRating({ value, onChange, busy = false }: StarRatingProps) {
  return (
    <Group gap="xs" role="radiogroup" aria-label={libraryMessages.yourRating} aria-busy={busy || undefined}>
      <Text size="sm" fw={500} aria-hidden>
        {libraryMessages.yourRating}
      </Text>
      <Rating
        value={value ?? 0}
        count={STAR_COUNT}
        readOnly={busy}
        size="lg"
        // Mantine adds a radio for 0 ("no rating"): it is named so, and picking it changes nothing.
        getSymbolLabel={(stars) => (stars === 0 ? libraryMessages.noRating : libraryMessages.ratingStar(stars))}
        onChange={(stars) => {
          if (stars >= 1 && stars <= STAR_COUNT) onChange(stars);
        }}
      />
    </Group>
  );
}
