/**
 * Resolves once the poster is decoded and a frame has been painted with it (at once without a
 * poster): the player's library (hls.js, about 100 KB) then loads after the picture a person sees
 * first instead of beside it on a slow link (docs/decisions/0140-poster-before-the-player-library.md).
 * The picture comes from the browser's cache: the early reads asked for it, the <video> shows it.
 */
export function afterPosterShown(url: string | null): Promise<void> {
  const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  if (!url) return painted();
  const image = new Image();
  image.src = url;
  const decoded = typeof image.decode === 'function' ? image.decode() : Promise.resolve();
  // A picture that fails to load holds nothing back.
  return decoded.catch(() => undefined).then(painted);
}
