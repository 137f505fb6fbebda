import { Group, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { videoOpinionMachine } from '../../../machines/video-opinion/video-opinion.machine.ts';
import { libraryMessages } from '../../lib/messages.ts';
import { FavoriteToggle } from './favorite-toggle.tsx';
import { AverageStars, StarRating } from './star-rating.tsx';
import type { Video } from './videos.queries.ts';

export interface VideoOpinionControlsProps {
  /** The video as cached: its id, the user's rating and favourite when the page opened, the average. */
  video: Pick<Video, 'id' | 'puntuacion' | 'favorito' | 'puntuacionMedia'>;
  /** The opinion machine with its writes and toasts provided (the app's, or test doubles). */
  logic: typeof videoOpinionMachine;
}

/**
 * The detail page's rating and favourite (R-VID-1, R-LIB-18): the user's own stars,
 * the average beside them, and the heart. Each control shows the value being saved and takes no
 * other change until it is saved (the machine's 'savingRating' / 'savingFavorite').
 */
export function VideoOpinionControls({ video, logic }: VideoOpinionControlsProps) {
  const actorRef = useActorRef(logic, {
    input: { videoId: video.id, rating: video.puntuacion, favorite: video.favorito },
  });
  const rating = useSelector(actorRef, (snapshot) => snapshot.context.pendingRating ?? snapshot.context.rating);
  const favorite = useSelector(actorRef, (snapshot) => snapshot.context.pendingFavorite ?? snapshot.context.favorite);
  const savingRating = useSelector(actorRef, (snapshot) => snapshot.hasTag('savingRating'));
  const savingFavorite = useSelector(actorRef, (snapshot) => snapshot.hasTag('savingFavorite'));
  const average = Math.min(Math.max(video.puntuacionMedia, 0), 5);

  return (
    <Group gap="md" wrap="wrap" align="center">
      <StarRating value={rating} busy={savingRating} onChange={(stars) => actorRef.send({ type: 'opinion.rate', stars })} />
      <Group gap={6} wrap="nowrap" align="center">
        <AverageStars value={average} />
        {/* The stars' own label says it to screen readers. */}
        <Text size="sm" c="gray.7" aria-hidden>
          {libraryMessages.averageRating(average)}
        </Text>
      </Group>
      <FavoriteToggle
        favorite={favorite}
        busy={savingFavorite}
        onChange={(next) => actorRef.send({ type: 'opinion.favorite', favorite: next })}
      />
    </Group>
  );
}
