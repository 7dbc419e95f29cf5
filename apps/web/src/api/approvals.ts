import type { ApproveOrDenyBody, ApproveOrDenyResponse, PendingApprovalsResponse } from '@pra/contracts';
import { approveOrDenyResponse, pendingApprovalsResponse } from '@pra/contracts/approvals';
import { api } from '@pra/contracts/paths';
import { call } from './client';

/** GET /api/brm/pending-approvals: the requests the caller may see. */
export function getPendingApprovals(signal?: AbortSignal): Promise<PendingApprovalsResponse> {
  return call(pendingApprovalsResponse, { method: 'get', url: api.pendingApprovals, signal });
}

/** POST /api/brm/pending-approvals/approve-or-deny */
export function approveOrDeny(body: ApproveOrDenyBody): Promise<ApproveOrDenyResponse> {
  return call(approveOrDenyResponse, { method: 'post', url: api.approveOrDeny, data: body });
}
