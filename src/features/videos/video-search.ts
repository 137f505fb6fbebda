/** The video list's filters in the address (R-LIB-12): q, tag, fav, upload-date, score, not-seen, and subtitulos (R-LIB-26). */
export const videoSearchKeys = ['q', 'tag', 'fav', 'upload-date', 'score', 'not-seen', 'subtitulos'] as const;

type VideoSearchKey = (typeof videoSearchKeys)[number];
export type VideoSearch = Partial<Record<VideoSearchKey, string>>;

/**
 * The filters' part of `validateSearch` of the authenticated layout (/videos, /videos/$id,
 * /statistics), which also retains them across its links: keeps each filter that carries a
 * scalar, as text (the router parses `5` and `true` into numbers and booleans); anything else is
 * dropped, never an error. Dropped keys are set to undefined explicitly: the router merges the
 * validated search over the raw one, so an omitted key would let the raw value through.
 */
export function validateVideoSearch(search: Record<string, unknown>): VideoSearch {
  const result: VideoSearch = {};
  for (const key of videoSearchKeys) {
    const value = search[key];
    const valid = typeof value === 'string' ? value.trim() !== '' : typeof value === 'boolean' || Number.isFinite(value);
    result[key] = valid ? String(value) : undefined;
  }
  return result;
}

/**
 * The address form of a set of filters for a navigation inside the area: every filter key present,
 * the ones not set as undefined (the layout retains the filters a navigation leaves out).
 */
export function addressOf(filters: VideoSearch): VideoSearch {
  return Object.fromEntries(videoSearchKeys.map((key) => [key, filters[key]]));
}

/**
 * Videos per page of the list: 24 fills whole rows of the grid at 1, 2, 3 and 4 columns
 * (video-grid.tsx), is well within the API's 500, and is a few screens of cards on a phone.
 */
export const VIDEO_PAGE_SIZE = 24;
