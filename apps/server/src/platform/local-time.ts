/**
 * Dates in the hospital's time zone (PORTAL_TIME_ZONE). Governance works in calendar dates there:
 * a grant whose end date is 2027-03-01 ends at 23:59:59 local time that day, whatever the DST
 * offset, and "days left" counts local calendar days. Pure functions of an instant and a zone.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(instant: Date, zone: string): LocalParts {
  const out: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(instant)) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return out as unknown as LocalParts;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether the text is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [y, m, d] = match.slice(1).map(Number) as [number, number, number];
  const check = new Date(Date.UTC(y, m - 1, d));
  return check.getUTCFullYear() === y && check.getUTCMonth() === m - 1 && check.getUTCDate() === d;
}

/** The local calendar date (YYYY-MM-DD) of an instant. */
export function localDate(instant: Date, zone: string): string {
  const p = localParts(instant, zone);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The local hour (0-23) of an instant. */
export function localHour(instant: Date, zone: string): number {
  return localParts(instant, zone).hour;
}

/** The zone's offset from UTC at an instant, in milliseconds (local = UTC + offset). */
function offsetMs(instant: Date, zone: string): number {
  const p = localParts(instant, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - (instant.getTime() - instant.getUTCMilliseconds());
}

/** The instant a local wall-clock time happens (the earlier one in a DST overlap). */
export function localInstant(
  date: string,
  time: { hour: number; minute: number; second: number },
  zone: string,
): Date {
  const match = DATE.exec(date);
  if (!match) throw new RangeError(`not a date: ${date}`);
  const [y, m, d] = match.slice(1).map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, time.hour, time.minute, time.second);
  // Two passes settle on the offset in force at that wall time (DST changes by at most hours).
  let guess = wall - offsetMs(new Date(wall), zone);
  guess = wall - offsetMs(new Date(guess), zone);
  return new Date(guess);
}

/** The last second of a local calendar date: when a grant ending that day ends. */
export function endOfLocalDay(date: string, zone: string): Date {
  return localInstant(date, { hour: 23, minute: 59, second: 59 }, zone);
}

/** The calendar date `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  const match = DATE.exec(date);
  if (!match) throw new RangeError(`not a date: ${date}`);
  const [y, m, d] = match.slice(1).map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to` (both YYYY-MM-DD; negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const day = (text: string) => {
    const [y, m, d] = text.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d) / 86_400_000;
  };
  return day(to) - day(from);
}

/** Local calendar days left until an instant's local date: 0 on the day itself. */
export function daysLeft(now: Date, end: Date, zone: string): number {
  return daysBetween(localDate(now, zone), localDate(end, zone));
}
