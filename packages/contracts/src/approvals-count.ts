import { z } from 'zod';

/**
 * GET /api/brm/pending-approvals?getCountOnly=true (query: `pendingApprovalsQuery`): the count-only
 * answer, the number of pending items the caller may decide.
 */
export const pendingApprovalsCountResponse = z.object({ count: z.number().int().min(0) });
export type PendingApprovalsCountResponse = z.infer<typeof pendingApprovalsCountResponse>;
