import {
  assignmentKindBody,
  assignmentKindParams,
  delegationBody,
  delegationSaved,
  delegationState,
  routingOverview,
} from '../approval-routing';
import { endpoint } from '../endpoint';
import { routingApi } from '../paths';
import { successResponse } from '../system';

const brm = { tag: 'approval-routing', callers: 'employeeBrm' } as const;
const admin = { tag: 'approval-routing', callers: 'admin' } as const;

export const getDelegation = endpoint({
  ...brm,
  method: 'GET',
  path: routingApi.delegation,
  operationId: 'getDelegation',
  tokenScope: 'approvals:read',
  summary: 'The BRM’s Away and Backup delegation and the possible delegates',
  response: { 200: delegationState },
});

export const setDelegation = endpoint({
  ...brm,
  method: 'PUT',
  path: routingApi.delegation,
  operationId: 'setDelegation',
  tokenScope: 'approvals:write',
  summary: 'Sends the BRM’s approvals to a backup for a period (at most 90 days)',
  body: delegationBody,
  response: { 200: delegationSaved },
});

export const endDelegation = endpoint({
  ...brm,
  method: 'DELETE',
  path: routingApi.delegation,
  operationId: 'endDelegation',
  tokenScope: 'approvals:write',
  summary: 'Ends the BRM’s delegation now',
  response: { 200: successResponse },
});

export const setAssignmentKind = endpoint({
  ...admin,
  method: 'PUT',
  path: routingApi.assignmentKind,
  operationId: 'setAssignmentKind',
  tokenScope: 'people:write',
  summary: 'Makes a BRM the primary or a backup approver of an organization',
  params: assignmentKindParams,
  body: assignmentKindBody,
  response: { 200: successResponse },
});

export const getRoutingOverview = endpoint({
  ...admin,
  method: 'GET',
  path: routingApi.overview,
  operationId: 'getRoutingOverview',
  tokenScope: 'organizations:read',
  summary: 'Primary and backup BRMs, and organizations without a reachable approver',
  response: { 200: routingOverview },
});
