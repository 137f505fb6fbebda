/** Types of the playback machine (R-VID-1: the player; the saved position of openapi.yaml). */

export interface PlaybackInput {
  videoId: number;
  /** The position saved by the user's last viewing (seconds), null when none. */
  posicion: number | null;
  /** R-VID-28: the second the address asks for (`?t=`), null when none; it wins over `posicion`. */
  startAt?: number | null;
}

export interface PlaybackContext {
  videoId: number;
  /** Where to resume (the saved position when the page opened). */
  resumeAt: number | null;
  /** R-VID-28: where the address asks to start (`?t=`), until the media is first loaded. */
  startAt: number | null;
  /** The media's duration once its metadata is known (seconds). */
  duration: number | null;
  /** The playback position last reported by the media (seconds); the saved one until then. */
  position: number;
  /** The whole seconds the server holds (what was last saved), null when nothing is saved. */
  savedPosition: number | null;
  /** Reloads after network errors since the media last played (R-VID-16). */
  attempts: number;
  /** R-VID-32: the quality chosen in 'Calidad', an hls.js level index; -1 for 'Automática'. */
  quality: number;
  /** The level hls.js last said is playing (LEVEL_SWITCHED), null until it says, and again after a reload. */
  playingLevel: number | null;
}

/**
 * From the host, as the <video> element reports them: 'media.loaded' (loadedmetadata),
 * 'media.seeked' (seeked), 'media.play' (playing), 'media.pause' (pause, not at the end),
 * 'media.time' (timeupdate), 'media.ended' (ended); 'page.leave' when the page goes away or is
 * hidden (unmount, pagehide, visibilitychange to hidden).
 */
export type PlaybackEvent =
  | { type: 'media.loaded'; duration: number }
  | { type: 'media.seeked' }
  | { type: 'media.play' }
  | { type: 'media.pause'; position: number }
  | { type: 'media.time'; position: number }
  | { type: 'media.ended' }
  | { type: 'page.leave' }
  /** waiting or stalled: the media ran out of data while playing. */
  | { type: 'media.waiting' }
  /** The media (or hls.js, fatally) failed; `network` when the data did not arrive. */
  | { type: 'media.error'; network: boolean }
  /** The user pressed 'Reintentar'. */
  | { type: 'retry' }
  /** R-VID-32: the user chose in 'Calidad' an hls.js level index, or -1 for 'Automática'. */
  | { type: 'quality.choose'; level: number }
  /** hls.js's LEVEL_SWITCHED: the media now plays this level index. */
  | { type: 'media.levelSwitched'; level: number };

/** `applyQuality`'s params: hls.js plays this level index from now on (-1: it chooses). */
export interface ApplyQualityParams {
  level: number;
}

/** `reload`'s params: load the media again and come back to this position. */
export interface ReloadParams {
  seconds: number;
}

/** `seek`'s params: move the media to this position. */
export interface SeekParams {
  seconds: number;
}

/** `savePosition`'s params: PATCH /api/videos/{id} replace /posicion. */
export interface SavePositionParams {
  id: number;
  /** Whole seconds. */
  seconds: number;
  /** The page is going away: the request must outlive it (fetch `keepalive`). */
  leaving: boolean;
}
