import { z } from 'zod';
import {
  approveOrDenyBody,
  approveOrDenyResponse,
  pendingApprovalsCountResponse,
  pendingApprovalsPage,
  pendingApprovalsQuery,
  pendingApprovalsResponse,
} from '../approvals';
import { endpoint } from '../endpoint';
import { api } from '../paths';

export const getPendingApprovals = endpoint({
  method: 'GET',
  path: api.pendingApprovals,
  operationId: 'getPendingApprovals',
  tokenScope: 'approvals:read',
  summary: 'The requests the caller may decide (only their count, or one page of them)',
  tag: 'approvals',
  callers: 'brmOrAdmin',
  query: pendingApprovalsQuery,
  response: { 200: z.union([pendingApprovalsCountResponse, pendingApprovalsPage, pendingApprovalsResponse]) },
});

export const approveOrDeny = endpoint({
  method: 'POST',
  path: api.approveOrDeny,
  operationId: 'approveOrDeny',
  tokenScope: 'approvals:write',
  summary: 'Approves or denies one pending request',
  tag: 'approvals',
  callers: 'brmOrAdmin',
  identityService: true,
  body: approveOrDenyBody,
  response: { 200: approveOrDenyResponse },
});
