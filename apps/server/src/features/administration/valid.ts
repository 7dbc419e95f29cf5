import type { z } from 'zod';
import { AppError } from '../../platform/app-error';

/**
 * The value as the API's contract schema reads it, or a 400 with each problem ("name: …"). The
 * administration use cases run their input through the same schemas the API validates with, so
 * the operators' CLI and its CSV import store nothing the API would refuse.
 */
export function valid<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw AppError.many(
    'badRequest',
    result.error.issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    ),
  );
}
