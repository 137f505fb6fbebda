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

/** `?t=754`: the second the video starts at (a search snippet's, or a shared moment's). */
export interface VideoSearch {
  t?: number;
}

/** A whole number of seconds (at most 99999); anything else is dropped (the video starts where it would). */
export function parseStartSecond(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]{0,4})$/.test(text)) return undefined;
  return Number(text);
}
