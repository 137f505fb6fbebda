const TIME_ZONE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * The browser's IANA time zone, for the reads whose answer depends on the calendar (the video
 * list's date filters, the statistics' views per day), when it is one the contract accepts (its
 * `TimeZone` parameter); otherwise undefined, and the server answers in UTC.
 */
export function browserTimeZone(): string | undefined {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof zone === 'string' && zone.length <= 64 && TIME_ZONE.test(zone) ? zone : undefined;
  } catch {
    return undefined;
  }
}
