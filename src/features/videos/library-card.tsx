import { memo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Link } from '@tanstack/react-router';
import type { videoOpinionMachine } from '../../../machines/video-opinion/video-opinion.machine.ts';
import { VideoCard } from './video-card.tsx';
import type { Etiqueta, Video } from './videos.queries.ts';

export interface LibraryCardProps {
  video: Video;
  isAdmin: boolean;
  /** The rating and favourite machine with the app's writes and toasts (`createVideoOpinionLogic`). */
  opinionLogic: typeof videoOpinionMachine;
  onEdit?: (video: Video) => void;
  onDelete?: (video: Video) => void;
  /** In the list's first row (VideoCard's `firstRow`). */
  firstRow?: boolean;
  /** The list is in selection mode (R-ADM-15): the card shows its checkbox. */
  selecting?: boolean;
  selected?: boolean;
  /** A batch runs: the checkbox waits. */
  selectionBusy?: boolean;
  onSelect?: (video: Video) => void;
}

/** Every filter of the list, cleared: a tag link shows the videos of that tag, whatever was filtered before. */
const NO_FILTERS = {
  q: undefined,
  tag: undefined,
  fav: undefined,
  'upload-date': undefined,
  score: undefined,
  'not-seen': undefined,
  subtitulos: undefined,
};

const detailLink = (video: Video) => ({ to: '/videos/$id', params: { id: String(video.id) } });
const momentLink = (video: Video, second: number) => ({ to: '/videos/$id', params: { id: String(video.id) }, search: { t: second } });
const tagLink = (tag: Etiqueta) => ({ to: '/videos', search: { ...NO_FILTERS, tag: `in:${tag.id}` } });

/**
 * A card of the list with its heart saved through the opinion machine (R-LIB-18):
 * the same workflow, writes and R-LIB-18 toasts as the detail page. The heart shows the value being
 * saved, then the cached video's (the write updates every cached list).
 *
 * Memoized: the grid and the page render again as the list is measured and laid out (the
 * virtualizer's sizes, as the page mounts), and with the same cached video and the same actions a
 * card has nothing new to draw; on a phone those renders redrew every card in one synchronous task
 * (docs/decisions/0063-first-render-in-slices.md).
 */
export const LibraryCard = memo(function LibraryCard({
  video,
  isAdmin,
  opinionLogic,
  onEdit,
  onDelete,
  firstRow = false,
  selecting = false,
  selected = false,
  selectionBusy = false,
  onSelect,
}: LibraryCardProps) {
  const actorRef = useActorRef(opinionLogic, {
    input: { videoId: video.id, rating: video.puntuacion, favorite: video.favorito },
  });
  const pendingFavorite = useSelector(actorRef, (snapshot) => snapshot.context.pendingFavorite);
  const savingFavorite = useSelector(actorRef, (snapshot) => snapshot.hasTag('savingFavorite'));
  const shown = pendingFavorite === null ? video : { ...video, favorito: pendingFavorite };

  return (
    <VideoCard
      video={shown}
      isAdmin={isAdmin}
      linkComponent={Link}
      detailLink={detailLink}
      momentLink={momentLink}
      tagLink={tagLink}
      favoriteBusy={savingFavorite}
      firstRow={firstRow}
      onFavoriteChange={(_, favorite) => actorRef.send({ type: 'opinion.favorite', favorite })}
      {...(onEdit ? { onEdit } : {})}
      {...(onDelete ? { onDelete } : {})}
      selection={selecting && onSelect ? { selected, disabled: selectionBusy, onChange: onSelect } : undefined}
    />
  );
});
