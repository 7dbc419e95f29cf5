import { z } from 'zod';
import { CLIENT_LOG_MAX_CHARS } from './limits';
import { inputText } from './text';

/** GET /api/system/message: the operator's banner. */
export const systemMessage = z.object({
  enabled: z.boolean(),
  /** Shown only to signed-in users when true. */
  loggedInOnly: z.boolean(),
  severity: z.enum(['info', 'success', 'warning', 'danger']),
  title: z.string(),
  text: z.string(),
});
export type SystemMessage = z.infer<typeof systemMessage>;

export { CLIENT_LOG_MAX_CHARS } from './limits';

/** POST /api/client-log: a failure the browser saw (message, request url and method). */
export const clientLogBody = z.strictObject({
  errorMessage: inputText().min(1).max(CLIENT_LOG_MAX_CHARS),
});
export type ClientLogBody = z.infer<typeof clientLogBody>;

/** The `{ success }` answer shared by calls that only report whether they worked. */
export const successResponse = z.object({ success: z.boolean() });
export type SuccessResponse = z.infer<typeof successResponse>;
