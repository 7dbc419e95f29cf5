import { z } from 'zod';

/** GET /api/brm/pending-approvals?getCountOnly=true: how many requests await the caller's decision. */
export const pendingApprovalsCountQuery = z.strictObject({ getCountOnly: z.literal('true') });
export type PendingApprovalsCountQuery = z.infer<typeof pendingApprovalsCountQuery>;

/** The count-only answer: the number of pending items the caller may decide. */
export const pendingApprovalsCountResponse = z.object({ count: z.number().int().min(0) });
export type PendingApprovalsCountResponse = z.infer<typeof pendingApprovalsCountResponse>;
