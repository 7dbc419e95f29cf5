import { z } from 'zod';

/** A calendar date, YYYY-MM-DD (in the hospital's time zone where it means a day). */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD')
  .refine((text) => {
    const [y, m, d] = text.split('-').map(Number) as [number, number, number];
    const check = new Date(Date.UTC(y, m - 1, d));
    return check.getUTCMonth() === m - 1 && check.getUTCDate() === d;
  }, 'Enter a real date');
