/**
 * A card's picture as the browser chooses it: the list's columns, a card's width by window width
 * (`sizes`) and the thumbnail's files (`srcset`). Imports nothing: the document's early reads
 * (src/early-requests.ts) preload the first row's pictures with the very same attributes.
 */

/**
 * The list's columns by window width: 1 on phones (up to 639 px), 2 on tablets, 3 on laptops, 4 on
 * wide screens.
 */
export const GRID_BREAKPOINTS = { two: '(min-width: 640px)', three: '(min-width: 992px)', four: '(min-width: 1280px)' } as const;
/** The gap between the list's cards, in pixels. */
export const GRID_GAP = 16;
/** The library page: Mantine's `xl` container, at most this wide, with `md` padding (16 px) each side. */
const PAGE_MAX_WIDTH = 1320;
const PAGE_PADDING = 16;

/** A card's width for `n` columns in a window `window` wide (a CSS length). */
const cardWidth = (columns: number, window: string) => `calc((${window} - ${2 * PAGE_PADDING + (columns - 1) * GRID_GAP}px) / ${columns})`;

/**
 * A card's width by window width, as `sizes` states it to the browser for the thumbnail's `srcset`
 * (video-card.tsx): the columns above, the page's width and padding, the gap.
 */
export const CARD_SIZES = [
  `(min-width: ${PAGE_MAX_WIDTH}px) ${(PAGE_MAX_WIDTH - 2 * PAGE_PADDING - 3 * GRID_GAP) / 4}px`,
  `${GRID_BREAKPOINTS.four} ${cardWidth(4, '100vw')}`,
  `${GRID_BREAKPOINTS.three} ${cardWidth(3, '100vw')}`,
  `${GRID_BREAKPOINTS.two} ${cardWidth(2, '100vw')}`,
  `calc(100vw - ${2 * PAGE_PADDING}px)`,
].join(', ');

/**
 * The thumbnail's card-sized copy (GET /api/media `w=400`): a card is 296–405 pixels wide from 640
 * pixels of window up, so on a screen of one device pixel per CSS pixel the browser takes it instead
 * of the 640-pixel (or wider) picture; on denser screens and phones it takes the picture.
 */
const CARD_THUMBNAIL_WIDTH = 400;
/** The thumbnail's width the browser assumes for the picture itself (640 for a frame of the video; an uploaded one may be wider). */
const THUMBNAIL_WIDTH = 640;

/** `srcset` of a thumbnail location: its card-sized copy and the picture. */
export function thumbnailSrcSet(url: string): string {
  const small = `${url}${url.includes('?') ? '&' : '?'}w=${CARD_THUMBNAIL_WIDTH}`;
  return `${small} ${CARD_THUMBNAIL_WIDTH}w, ${url} ${THUMBNAIL_WIDTH}w`;
}

/** The list's columns in a window where `matches` answers its media queries (GRID_BREAKPOINTS). */
export function gridColumns(matches: (query: string) => boolean): number {
  return matches(GRID_BREAKPOINTS.four) ? 4 : matches(GRID_BREAKPOINTS.three) ? 3 : matches(GRID_BREAKPOINTS.two) ? 2 : 1;
}
