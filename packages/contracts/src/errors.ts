import { z } from 'zod';

/** Every failed call answers this envelope: one or more human-readable messages. */
export const errorEnvelope = z.object({
  errors: z.array(z.string()).min(1),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
