/** Types of the rating and favourite of one video (R-VID-1, R-LIB-18, R-VID-2). */
import type { components } from '../../contract/openapi.gen.ts';

export type Video = components['schemas']['Video'];

export interface VideoOpinionInput {
  videoId: number;
  /** The user's own rating (1–5), null when not rated yet. */
  rating: number | null;
  favorite: boolean;
}

export interface VideoOpinionContext extends VideoOpinionInput {
  /** The rating being saved (shown while it is saved), null when none is. */
  pendingRating: number | null;
  /** The favourite value being saved, null when none is. */
  pendingFavorite: boolean | null;
}

/** rateVideo's input: PATCH /api/videos/{id} replace /puntuacion. */
export interface RateVideoInput {
  id: number;
  value: number;
}
/** setFavorite's input: PATCH /api/videos/{id} replace /favorito. */
export interface SetFavoriteInput {
  id: number;
  value: boolean;
}

/** From the user: a star picked (1–5), the heart toggled (the new value). */
export type VideoOpinionEvent = { type: 'opinion.rate'; stars: number } | { type: 'opinion.favorite'; favorite: boolean };

/** What was saved or failed: the params of `notifySaved` / `notifyFailed` (the app shows the R-VID-2 toast). */
export type OpinionChange = { change: 'rating'; value: number } | { change: 'favorite'; value: boolean };

/** 'busy': something is being saved; 'savingRating' / 'savingFavorite': which control waits. */
export type VideoOpinionTag = 'busy' | 'savingRating' | 'savingFavorite';
