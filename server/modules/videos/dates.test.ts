import { describe, expect, it } from 'vitest';
import { addMonths, isTimeZone, parseDate, startOfDay, uploadDateRange } from './dates.ts';

const at = (iso: string) => Date.parse(iso);

describe('upload-date boundaries in a time zone', () => {
  it('knows IANA zones and refuses the rest', () => {
    expect(isTimeZone('Europe/Madrid')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('this week starts on Monday 00:00 in the zone (Madrid winter: Sunday 23:00 UTC)', () => {
    // Wednesday 4 March 2026
    expect(uploadDateRange({ op: 'tw' }, 'Europe/Madrid', at('2026-03-04T12:00:00Z'))).toEqual({ from: '2026-03-01T23:00:00.000Z' });
    expect(uploadDateRange({ op: 'tw' }, 'UTC', at('2026-03-04T12:00:00Z'))).toEqual({ from: '2026-03-02T00:00:00.000Z' });
    // Sunday 23:30 UTC is already Monday in Madrid: a new week there, still the old one in UTC
    expect(uploadDateRange({ op: 'tw' }, 'Europe/Madrid', at('2026-03-08T23:30:00Z'))).toEqual({ from: '2026-03-08T23:00:00.000Z' });
    expect(uploadDateRange({ op: 'tw' }, 'UTC', at('2026-03-08T23:30:00Z'))).toEqual({ from: '2026-03-02T00:00:00.000Z' });
    // Monday itself
    expect(uploadDateRange({ op: 'tw' }, 'Europe/Madrid', at('2026-03-02T10:00:00Z'))).toEqual({ from: '2026-03-01T23:00:00.000Z' });
    // summer time: Monday 00:00 Madrid is Sunday 22:00 UTC
    expect(uploadDateRange({ op: 'tw' }, 'Europe/Madrid', at('2026-07-01T12:00:00Z'))).toEqual({ from: '2026-06-28T22:00:00.000Z' });
    // the week after the clocks go forward (Sunday 29 March 2026): Monday 30 is in summer time
    expect(uploadDateRange({ op: 'tw' }, 'Europe/Madrid', at('2026-04-01T12:00:00Z'))).toEqual({ from: '2026-03-29T22:00:00.000Z' });
    // a week that began in winter time and is now in summer time
    expect(uploadDateRange({ op: 'tw' }, 'Europe/Madrid', at('2026-03-29T12:00:00Z'))).toEqual({ from: '2026-03-22T23:00:00.000Z' });
  });

  it('this month, this year, the last six months', () => {
    const now = at('2026-08-31T21:30:00Z'); // 1 September 06:30 in Tokyo, 31 August 23:30 in Madrid
    expect(uploadDateRange({ op: 'tm' }, 'Europe/Madrid', now)).toEqual({ from: '2026-07-31T22:00:00.000Z' });
    expect(uploadDateRange({ op: 'tm' }, 'Asia/Tokyo', now)).toEqual({ from: '2026-08-31T15:00:00.000Z' });
    expect(uploadDateRange({ op: 'ty' }, 'Europe/Madrid', now)).toEqual({ from: '2025-12-31T23:00:00.000Z' });
    // 31 August − 6 months: the last day of February
    expect(uploadDateRange({ op: 'l6m' }, 'Europe/Madrid', now)).toEqual({ from: '2026-02-27T23:00:00.000Z' });
    expect(uploadDateRange({ op: 'ty' }, 'America/New_York', at('2027-01-01T03:00:00Z'))).toEqual({ from: '2026-01-01T05:00:00.000Z' });
  });

  it('after a day, and between two days (both included)', () => {
    expect(uploadDateRange({ op: 'gt', date: parseDate('2026-03-28')! }, 'Europe/Madrid')).toEqual({ from: '2026-03-28T23:00:00.000Z' });
    // the day the clocks go forward is 23 hours long
    expect(uploadDateRange({ op: 'btw', from: parseDate('2026-03-29')!, to: parseDate('2026-03-29')! }, 'Europe/Madrid')).toEqual({
      from: '2026-03-28T23:00:00.000Z',
      before: '2026-03-29T22:00:00.000Z',
    });
    expect(uploadDateRange({ op: 'btw', from: parseDate('2026-01-01')!, to: parseDate('2026-01-31')! }, 'UTC')).toEqual({
      from: '2026-01-01T00:00:00.000Z',
      before: '2026-02-01T00:00:00.000Z',
    });
  });

  it('a day whose midnight does not exist starts at its first instant', () => {
    // Santiago de Chile moved its clocks from 00:00 to 01:00 on 8 September 2024
    expect(new Date(startOfDay('America/Santiago', { year: 2024, month: 9, day: 8 })).toISOString()).toBe('2024-09-08T04:00:00.000Z');
    // and back from 7 April 00:00 to 6 April 23:00 in 2024: 6 April keeps its midnight, 7 April starts at 00:00 −04
    expect(new Date(startOfDay('America/Santiago', { year: 2024, month: 4, day: 6 })).toISOString()).toBe('2024-04-06T03:00:00.000Z');
    expect(new Date(startOfDay('America/Santiago', { year: 2024, month: 4, day: 7 })).toISOString()).toBe('2024-04-07T04:00:00.000Z');
  });

  it('reads only real calendar days', () => {
    expect(parseDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    for (const text of ['2026-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '2026-4-1', 'hoy']) expect(parseDate(text)).toBeUndefined();
    expect(addMonths({ year: 2026, month: 3, day: 31 }, -1)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(addMonths({ year: 2026, month: 1, day: 15 }, -6)).toEqual({ year: 2025, month: 7, day: 15 });
  });
});
