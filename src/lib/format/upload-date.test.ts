import { describe, expect, it } from 'vitest';
import { formatUploadDate } from './upload-date.ts';

describe('formatUploadDate (R-GEN-2: the user’s local date format)', () => {
  const iso = '2024-03-05T12:00:00.000Z';

  it('writes day, month and year as the locale does', () => {
    expect(formatUploadDate(iso, 'es-ES', 'UTC')).toBe('05/03/2024');
    expect(formatUploadDate(iso, 'en-US', 'UTC')).toBe('03/05/2024');
    expect(formatUploadDate(iso, 'de-DE', 'UTC')).toBe('05.03.2024');
  });

  it('shows the day in the user’s time zone', () => {
    const lateEvening = '2024-03-05T23:30:00.000Z';
    expect(formatUploadDate(lateEvening, 'es-ES', 'UTC')).toBe('05/03/2024');
    expect(formatUploadDate(lateEvening, 'es-ES', 'Europe/Madrid')).toBe('06/03/2024');
  });

  it('uses the browser’s languages when no locale is given', () => {
    expect(formatUploadDate(iso, undefined, 'UTC')).toBe(
      new Intl.DateTimeFormat([...navigator.languages], { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso)),
    );
  });

  it('gives an empty text for an unreadable date', () => {
    expect(formatUploadDate('ayer', 'es-ES')).toBe('');
  });
});
