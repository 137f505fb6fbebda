/**
 * Calendar boundaries of the upload-date filter in the user's time zone, with Intl only.
 * A day starts at its first instant in that zone (00:00, or the first existing time when a
 * daylight-saving change skips midnight); weeks start on Monday (es-ES).
 */

export interface CalendarDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** An instant range: from (included) and before (excluded), as ISO-8601 UTC text; either may be open. */
export interface InstantRange {
  from?: string;
  before?: string;
}

/** The zone's wall-clock reader; made for each computation (a few microseconds), nothing is kept between requests. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    era: 'short',
  });
}

/** True for an IANA time-zone name Intl knows (e.g. Europe/Madrid, UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

interface WallTime extends CalendarDate {
  hour: number;
  minute: number;
  second: number;
}

function wallTime(zone: Intl.DateTimeFormat, instant: number): WallTime {
  const parts: Record<string, string> = {};
  for (const p of zone.formatToParts(new Date(instant))) parts[p.type] = p.value;
  const year = Number(parts.year);
  return {
    year: parts.era === 'BC' || parts.era === 'B' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Milliseconds since the epoch of a UTC wall time (years 0–99 taken literally). */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}

/** The zone's offset from UTC at an instant, in milliseconds (Madrid in winter: +3 600 000). */
function offsetAt(zone: Intl.DateTimeFormat, instant: number): number {
  const w = wallTime(zone, instant);
  return utc(w.year, w.month, w.day, w.hour, w.minute, w.second) - Math.floor(instant / 1000) * 1000;
}

const sameDate = (a: CalendarDate, b: CalendarDate) => a.year === b.year && a.month === b.month && a.day === b.day;

/** The first instant of a calendar day in a time zone. */
export function startOfDay(timeZone: string, date: CalendarDate): number {
  const zone = formatterFor(timeZone);
  const guess = utc(date.year, date.month, date.day);
  const first = guess - offsetAt(zone, guess);
  const second = guess - offsetAt(zone, first);
  const candidates = [first, second].filter((t) => sameDate(wallTime(zone, t), date));
  if (candidates.length === 0) return first;
  let start = Math.min(...candidates);
  // Midnight skipped by a daylight-saving change: the day starts at the first instant that is in it.
  const w = wallTime(zone, start);
  if (w.hour !== 0 || w.minute !== 0) {
    const before = start - (w.hour * 3600 + w.minute * 60 + w.second) * 1000;
    if (sameDate(wallTime(zone, before), date)) start = before;
  }
  return start;
}

/** The calendar day an instant falls on in a time zone. */
export function dateIn(timeZone: string, instant: number): CalendarDate {
  const { year, month, day } = wallTime(formatterFor(timeZone), instant);
  return { year, month, day };
}

/** The date n days after (negative: before) a date. */
export function addDays(date: CalendarDate, n: number): CalendarDate {
  const d = new Date(utc(date.year, date.month, date.day) + n * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The same day n months earlier or later, clamped to the month's last day (31 August − 6 months → 28/29 February). */
export function addMonths(date: CalendarDate, n: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(utc(year, month + 1, 1) - 86_400_000).getUTCDate();
  return { year, month, day: Math.min(date.day, last) };
}

/** 0 for Monday … 6 for Sunday. */
function weekdayFromMonday(date: CalendarDate): number {
  return (new Date(utc(date.year, date.month, date.day)).getUTCDay() + 6) % 7;
}

/** `2026-02-28` → a date, or undefined when it is not a real calendar day. */
export function parseDate(text: string): CalendarDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (date.month < 1 || date.month > 12 || date.day < 1) return undefined;
  const check = addDays(date, 0);
  return sameDate(check, date) ? date : undefined;
}

const iso = (instant: number) => new Date(instant).toISOString();

export type UploadDateFilter =
  | { op: 'tw' | 'tm' | 'l6m' | 'ty' }
  | { op: 'gt'; date: CalendarDate }
  | { op: 'btw'; from: CalendarDate; to: CalendarDate };

/**
 * The instants an upload-date filter admits, in a time zone, at a given moment:
 * tw this week (since Monday), tm this month, ty this year, l6m since the same day six months ago,
 * gt after that day (from the next day on), btw both days included.
 */
export function uploadDateRange(filter: UploadDateFilter, timeZone: string, now: number = Date.now()): InstantRange {
  const today = dateIn(timeZone, now);
  const from = (date: CalendarDate): InstantRange => ({ from: iso(startOfDay(timeZone, date)) });
  switch (filter.op) {
    case 'tw':
      return from(addDays(today, -weekdayFromMonday(today)));
    case 'tm':
      return from({ ...today, day: 1 });
    case 'ty':
      return from({ year: today.year, month: 1, day: 1 });
    case 'l6m':
      return from(addMonths(today, -6));
    case 'gt':
      return from(addDays(filter.date, 1));
    case 'btw':
      return { from: iso(startOfDay(timeZone, filter.from)), before: iso(startOfDay(timeZone, addDays(filter.to, 1))) };
  }
}
