import type {
  ApproveOrDenyBody,
  ApproveOrDenyResponse,
  PendingApprovalsCountResponse,
  PendingApprovalsQuery,
  PendingApprovalsResponse,
} from '@pra/contracts';
import {
  approveOrDenyResponse,
  pendingApprovalsCountResponse,
  pendingApprovalsResponse,
} from '@pra/contracts/approvals';
import { api } from '@pra/contracts/paths';
import { call } from './client';

const countOnly: PendingApprovalsQuery = { getCountOnly: 'true' };

/** GET /api/brm/pending-approvals?getCountOnly=true */
export function getPendingApprovalsCount(signal?: AbortSignal): Promise<PendingApprovalsCountResponse> {
  return call(pendingApprovalsCountResponse, {
    method: 'get',
    url: api.pendingApprovals,
    params: countOnly,
    signal,
  });
}

/** GET /api/brm/pending-approvals: the requests the caller may see. */
export function getPendingApprovals(signal?: AbortSignal): Promise<PendingApprovalsResponse> {
  return call(pendingApprovalsResponse, { method: 'get', url: api.pendingApprovals, signal });
}

/** POST /api/brm/pending-approvals/approve-or-deny */
export function approveOrDeny(body: ApproveOrDenyBody): Promise<ApproveOrDenyResponse> {
  return call(approveOrDenyResponse, { method: 'post', url: api.approveOrDeny, data: body });
}
