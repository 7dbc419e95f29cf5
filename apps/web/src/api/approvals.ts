import {
  api,
  pendingApprovalsCountResponse,
  type PendingApprovalsCountQuery,
  type PendingApprovalsCountResponse,
} from '@pra/contracts';
import { call } from './client';

const countOnly: PendingApprovalsCountQuery = { getCountOnly: 'true' };

/** GET /api/brm/pending-approvals?getCountOnly=true */
export function getPendingApprovalsCount(signal?: AbortSignal): Promise<PendingApprovalsCountResponse> {
  return call(pendingApprovalsCountResponse, {
    method: 'get',
    url: api.pendingApprovals,
    params: countOnly,
    signal,
  });
}
