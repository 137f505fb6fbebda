/**
 * R-VID-9: which source the player gives its <video>. HLS through hls.js wherever there are Media
 * Source Extensions (Chromium 156 plays HLS itself too, but without our quality choice or start at
 * the lowest rendition), through the browser itself where only it plays HLS (older iPhones), and the
 * progressive MP4 otherwise or while no rendition is ready (`urlHls` null).
 */
export type MediaSourceChoice =
  | { kind: 'native-hls'; url: string }
  | { kind: 'hls.js'; url: string }
  | { kind: 'mp4'; url: string };

export interface MediaAbilities {
  /** `video.canPlayType('application/vnd.apple.mpegurl')`: '' when the browser cannot play HLS itself. */
  nativeHls: string;
  /** Media Source Extensions (`window.MediaSource` or `ManagedMediaSource`) exist. */
  mse: boolean;
}

export function chooseMediaSource(video: { urlHls: string | null; urlVideo: string }, abilities: MediaAbilities): MediaSourceChoice {
  if (video.urlHls === null) return { kind: 'mp4', url: video.urlVideo };
  if (abilities.mse) return { kind: 'hls.js', url: video.urlHls };
  if (abilities.nativeHls !== '') return { kind: 'native-hls', url: video.urlHls };
  return { kind: 'mp4', url: video.urlVideo };
}

/** What this browser can do, asked of a <video> element. */
export function mediaAbilities(element: HTMLVideoElement): MediaAbilities {
  const scope = globalThis as { MediaSource?: unknown; ManagedMediaSource?: unknown };
  return {
    nativeHls: typeof element.canPlayType === 'function' ? element.canPlayType('application/vnd.apple.mpegurl') : '',
    mse: typeof scope.MediaSource === 'function' || typeof scope.ManagedMediaSource === 'function',
  };
}
