import { Box, Group, Rating, Text } from '@mantine/core';
import { libraryMessages } from '../../lib/messages.ts';

/** SPEC §9: five stars; a rating goes from 1 to 5. */
export const STAR_COUNT = 5;

export interface AverageStarsProps {
  /** puntuacionMedia, 0 (no rating yet) to 5. */
  value: number;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}

/**
 * The average score of a card (SPEC §3 "rounded to fill 5 stars"): read-only stars filled to the
 * nearest half star, read out as one image 'Puntuación media: 3,5 de 5'.
 */
export function AverageStars({ value, size = 'sm' }: AverageStarsProps) {
  const average = Math.min(Math.max(Number.isFinite(value) ? value : 0, 0), STAR_COUNT);
  return (
    <Box role="img" aria-label={libraryMessages.averageRating(average)} display="inline-flex">
      <Rating value={average} fractions={2} count={STAR_COUNT} readOnly size={size} aria-hidden />
    </Box>
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
 * The detail page's rating (SPEC §2 "Video detail", §4 "Rating"): five stars named '1 estrella' …
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
