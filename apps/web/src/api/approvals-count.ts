import type { PendingApprovalsCountResponse, PendingApprovalsQuery } from '@pra/contracts';
import { api } from '@pra/contracts/paths';
import { call } from './client';

const countOnly: PendingApprovalsQuery = { getCountOnly: 'true' };

/**
 * GET /api/brm/pending-approvals?getCountOnly=true, the welcome page's badge. Apart from the other
 * approvals calls, its schema (and the schema library) loads with the call, after the page is up.
 */
export async function getPendingApprovalsCount(signal?: AbortSignal): Promise<PendingApprovalsCountResponse> {
  const { pendingApprovalsCountResponse } = await import('@pra/contracts/approvals');
  return call(pendingApprovalsCountResponse, {
    method: 'get',
    url: api.pendingApprovals,
    params: countOnly,
    signal,
  });
}
