import type { CurrentRole } from '@pra/contracts';

/** A calendar date (YYYY-MM-DD) moved by whole days (calendar arithmetic, no time zone involved); '' for no date. */
export function addDays(date: string, days: number): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return '';
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Today in the hospital's time zone, as the server counted it for the role (its end less the days left). */
export function todayOf(role: Pick<CurrentRole, 'endsOn' | 'daysLeft'>): string {
  return role.endsOn && role.daysLeft !== undefined ? addDays(role.endsOn, -role.daysLeft) : '';
}
