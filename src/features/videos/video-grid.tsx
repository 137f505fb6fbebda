import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Center, Loader, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { libraryMessages } from '../../lib/messages.ts';
import { CARD_SIZES, GRID_BREAKPOINTS, GRID_GAP } from './card-picture.ts';

/** A row's height before it is measured (a card is about this tall). */
export const ESTIMATED_ROW_HEIGHT = 440;
/**
 * Rows rendered beyond the window, above and below: one (a card's height of margin as the user
 * scrolls). Two rendered a quarter more cards in a phone's first render (four where two show) and
 * four more on a laptop, for no card in view (docs/decisions/0063-first-render-in-slices.md).
 */
export const OVERSCAN_ROWS = 1;
/** `onEndReached` fires when one of the last this many rows is rendered. */
export const END_THRESHOLD_ROWS = 2;
export { CARD_SIZES, GRID_BREAKPOINTS };

export function useGridColumns(): number {
  const two = useMediaQuery(GRID_BREAKPOINTS.two, false, { getInitialValueInEffect: false });
  const three = useMediaQuery(GRID_BREAKPOINTS.three, false, { getInitialValueInEffect: false });
  const four = useMediaQuery(GRID_BREAKPOINTS.four, false, { getInitialValueInEffect: false });
  return four ? 4 : three ? 3 : two ? 2 : 1;
}

export interface VideoGridProps<T extends { id: number }> {
  items: readonly T[];
  /** `firstRow`: the card is in the list's first row (its picture is fetched first and at once). */
  renderItem: (item: T, position: { firstRow: boolean }) => ReactNode;
  /** Accessible name of the list ('Videos'). */
  label: string;
  /** Endless scrolling: asked for the next page when the last rows come into view. */
  onEndReached?: () => void;
  /** There is a next page. */
  hasMore?: boolean;
  /** The next page is being fetched (a spinner closes the list; `onEndReached` waits). */
  loadingMore?: boolean;
  /** The items are placeholders (loading or failed): the list is marked busy. */
  busy?: boolean;
  /** Overrides the columns of the window width (tests, narrow containers). */
  columns?: number;
  /** Shown under the empty list's message (an administrator's 'Subir video'). */
  emptyAction?: ReactNode;
}

/**
 * The video grid (R-LIB-3): rows of 1–4 cards by width, virtualized against the window's scroll
 * (@tanstack/react-virtual), so only the rows in and near view are in the DOM however long the list
 * (10,000 videos render a few rows). Empty: 'No existen videos que se ajusten a estos filtros', and
 * under it `emptyAction` when given.
 */
export function VideoGrid<T extends { id: number }>({
  items,
  renderItem,
  label,
  onEndReached,
  hasMore = false,
  loadingMore = false,
  busy = false,
  columns: columnsOverride,
  emptyAction,
}: VideoGridProps<T>) {
  const widthColumns = useGridColumns();
  const columns = Math.max(1, Math.floor(columnsOverride ?? widthColumns));
  const rowCount = Math.ceil(items.length / columns);
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);

  useEffect(() => {
    // Where the list starts on the page (below the header and the filters).
    const element = listRef.current;
    if (element) setScrollMargin(element.getBoundingClientRect().top + window.scrollY);
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    overscan: OVERSCAN_ROWS,
    // The window's size from the first render on (the virtualizer's default is 0 × 0 until it has
    // observed the window, after the first commit): the rows in view then come in the first render,
    // in slices, rather than in a synchronous render right after it
    // (docs/decisions/0063-first-render-in-slices.md).
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    scrollMargin,
    gap: GRID_GAP,
    // A row not laid out (height 0: hidden, or a DOM without layout) keeps its estimate.
    measureElement: (element) => element.getBoundingClientRect().height || ESTIMATED_ROW_HEIGHT,
  });
  const rows = virtualizer.getVirtualItems();
  const lastRendered = rows.at(-1)?.index ?? -1;

  useEffect(() => {
    if (!onEndReached || !hasMore || loadingMore || rowCount === 0) return;
    if (lastRendered >= rowCount - END_THRESHOLD_ROWS) onEndReached();
  }, [onEndReached, hasMore, loadingMore, rowCount, lastRendered]);

  if (items.length === 0 && !busy) {
    return (
      <Stack mih={200} py="xl" align="center" justify="center" gap="md">
        <Text c="gray.7" ta="center">
          {libraryMessages.emptyList}
        </Text>
        {emptyAction}
      </Stack>
    );
  }

  return (
    <Box ref={listRef}>
      <Box
        role="list"
        aria-label={label}
        aria-busy={busy || loadingMore || undefined}
        style={{ position: 'relative', width: '100%', height: virtualizer.getTotalSize() }}
      >
        {rows.map((row) => (
          <Box
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start - scrollMargin}px)` }}
          >
            <SimpleGrid cols={columns} spacing={GRID_GAP}>
              {items.slice(row.index * columns, row.index * columns + columns).map((item, column) => (
                <div key={item.id} role="listitem" aria-setsize={items.length} aria-posinset={row.index * columns + column + 1}>
                  {renderItem(item, { firstRow: row.index === 0 })}
                </div>
              ))}
            </SimpleGrid>
          </Box>
        ))}
      </Box>
      {loadingMore && (
        <Center py="lg" role="status">
          <Loader size="sm" aria-hidden />
          <VisuallyHidden>{libraryMessages.loadingMore}</VisuallyHidden>
        </Center>
      )}
    </Box>
  );
}
