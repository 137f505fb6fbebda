import { FILTER_KEYS, hasFilters, parseFilters, toApiQuery } from '../../../machines/video-filters/video-filters.ts';
import type { FilterSearch, VideoListQuery } from '../../../machines/video-filters/video-filters.types.ts';

/**
 * The list's filters in session storage (R-LIB-12: keys q, tag, fav, upload-date, score,
 * not-seen), written as the address writes them. Storage that cannot be used (privacy modes,
 * quota) is treated as empty: the filters then live in the address only.
 */
function sessionStorageOrNull(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStoredFilters(storage: Storage | null = sessionStorageOrNull()): FilterSearch {
  const search: FilterSearch = {};
  if (!storage) return search;
  for (const key of FILTER_KEYS) {
    try {
      const value = storage.getItem(key);
      if (value !== null) search[key] = value;
    } catch {
      // Unreadable: as if not stored.
    }
  }
  return search;
}

/** Stores the whole set: a key without a value is removed. */
export function writeStoredFilters(search: FilterSearch, storage: Storage | null = sessionStorageOrNull()): void {
  if (!storage) return;
  for (const key of FILTER_KEYS) {
    try {
      const value = search[key];
      if (value === undefined) storage.removeItem(key);
      else storage.setItem(key, value);
    } catch {
      // Full or refused: the address still has the filters.
    }
  }
}

/** R-LIB-4: "A helper clears all of them" ('Todos'; also worth calling on logout). */
export function clearStoredFilters(storage: Storage | null = sessionStorageOrNull()): void {
  writeStoredFilters({}, storage);
}

/**
 * The API query of the list the page will show, for the route loader to prime: the address's
 * filters; null when the address has none but the session has stored ones (the page restores those
 * into the address first, R-LIB-12).
 */
export function listFiltersToLoad(search: FilterSearch, storage: Storage | null = sessionStorageOrNull()): VideoListQuery | null {
  const filters = parseFilters(search);
  if (!hasFilters(filters) && hasFilters(parseFilters(readStoredFilters(storage)))) return null;
  return toApiQuery(filters);
}
