import { useCallback, useMemo, useState } from 'react';
import { Button, Container, Group, Stack, Title, VisuallyHidden } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { hasFilters, toApiQuery } from '../../../machines/video-filters/video-filters.ts';
import type { FilterSearch, WriteAddressParams } from '../../../machines/video-filters/video-filters.types.ts';
import { appLabels } from '../../components/app-labels.ts';
import type { ToastStore } from '../../lib/toasts.ts';
import { LibraryCard } from './library-card.tsx';
import { useVideoManagement } from './manage/video-management.tsx';
import { placeholderVideos } from './placeholder-videos.ts';
import { useVideoSelection } from './selection/use-video-selection.tsx';
import { useUploadLauncher } from './upload/upload-launcher.ts';
import { useVideoFilters } from './use-video-filters.ts';
import { createVideoOpinionLogic } from './video.actors.ts';
import { VideoCard } from './video-card.tsx';
import { VideoFiltersBar } from './video-filters-bar.tsx';
import { VideoGrid } from './video-grid.tsx';
import { tagsQuery, videoListQuery, type Video } from './videos.queries.ts';

export interface VideoLibraryProps {
  /** The address's filters (validated by the authenticated layout). */
  search: FilterSearch;
  /** Writes the filters into the address. */
  navigate: (params: WriteAddressParams) => void;
  queryClient: QueryClient;
  toasts: ToastStore;
  isAdmin: boolean;
}

const placeholders = placeholderVideos();

/**
 * The library (R-LIB-1): tabs, search and filter chips over the filters machine, and the
 * endless, virtualized grid of cards. While the tags or the list load, or when they failed, the lorem
 * placeholder cards show in a loading style; an empty answer says 'No existen videos que se ajusten a
 * estos filtros', and to an administrator whose list no filter narrows (an empty library) offers
 * 'Subir video' under it, the header menu's wizard (R-LIB-14).
 */
export function VideoLibrary({ search, navigate, queryClient, toasts, isAdmin }: VideoLibraryProps) {
  const filtersRef = useVideoFilters({ search, navigate });
  const filters = useSelector(filtersRef, (snapshot) => snapshot.context.filters);
  const ready = useSelector(filtersRef, (snapshot) => snapshot.hasTag('ready'));
  const apiQuery = useMemo(() => toApiQuery(filters), [filters]);

  const tags = useQuery(tagsQuery());
  const list = useInfiniteQuery({ ...videoListQuery(apiQuery), enabled: ready });
  const [opinionLogic] = useState(() => createVideoOpinionLogic(queryClient, toasts));
  // R-LIB-2: only administrators edit and delete (the cards of others show no such buttons).
  const management = useVideoManagement(queryClient, toasts);
  const cardActions = isAdmin ? management.cardActions : {};
  const openUpload = useUploadLauncher();
  const uploadFirst =
    isAdmin && openUpload && !hasFilters(filters) ? (
      <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={openUpload}>
        {appLabels.uploadVideo}
      </Button>
    ) : null;

  const videos = useMemo(() => list.data?.pages.flatMap((page) => page.videos) ?? [], [list.data]);
  // R-ADM-15: administrators select videos of the list for a batch change.
  const selection = useVideoSelection({ queryClient, toasts, videos, tags: tags.data ?? [] });
  const selectedIds = useMemo(() => new Set(selection.selected), [selection.selected]);
  const showPlaceholders = !list.data || list.isError || tags.isPending || tags.isError;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const onEndReached = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    // While selecting, room under the last cards for the bar fixed at the window's bottom.
    <Container size="xl" py="lg" pb={isAdmin && selection.selecting ? 160 : undefined} component="main">
      <VisuallyHidden>
        {/* The page's heading for assistive technology; the cards' titles are its second level. */}
        <Title order={1}>{appLabels.videos}</Title>
      </VisuallyHidden>
      <Stack gap="lg">
        <VideoFiltersBar actorRef={filtersRef} tags={tags.data ?? []} isAdmin={isAdmin} />
        {isAdmin && (
          <Group justify="flex-end" mt={-4} mb={-4}>
            {selection.toggle}
          </Group>
        )}
        {isAdmin && selection.bar}
        {showPlaceholders ? (
          <VideoGrid<Video>
            items={placeholders}
            label={appLabels.videos}
            busy
            renderItem={(video) => <VideoCard video={video} placeholder />}
          />
        ) : (
          <VideoGrid<Video>
            items={videos}
            label={appLabels.videos}
            hasMore={hasNextPage}
            loadingMore={isFetchingNextPage}
            onEndReached={onEndReached}
            emptyAction={uploadFirst}
            renderItem={(video, { firstRow }) => (
              <LibraryCard
                video={video}
                isAdmin={isAdmin}
                opinionLogic={opinionLogic}
                firstRow={firstRow}
                {...cardActions}
                {...(isAdmin
                  ? { selecting: selection.selecting, selected: selectedIds.has(video.id), selectionBusy: selection.busy, onSelect: selection.onSelect }
                  : {})}
              />
            )}
          />
        )}
      </Stack>
      {isAdmin && management.dialogs}
    </Container>
  );
}
