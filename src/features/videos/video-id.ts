/** The contract's video ids: 1 to 2^31 − 1. */
const MAX_VIDEO_ID = 2_147_483_647;

/**
 * A video id as the address writes it: decimal digits without leading zeros, within the contract's
 * range (docs/decisions/0026-filters-in-the-address-and-layout.md: `0x10`, `2.0`, `007` are not ids). Anything else is null (the 404 page).
 */
export function parseVideoId(text: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_VIDEO_ID ? id : null;
}
