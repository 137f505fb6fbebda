/**
 * R-GEN-2: dates are shown in the user's local date format — day, month and year in the order
 * and with the separators of `locale` (the browser's language by default), in the user's time zone.
 * An unreadable date gives ''.
 */
export function formatUploadDate(iso: string, locale?: string | readonly string[], timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const locales = locale ?? (typeof navigator === 'undefined' ? undefined : [...navigator.languages]);
  return new Intl.DateTimeFormat(locales as string | string[] | undefined, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    ...(timeZone ? { timeZone } : {}),
  }).format(date);
}
