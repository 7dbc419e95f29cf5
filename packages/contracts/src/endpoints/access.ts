import {
  accessChangeResponse,
  accessQuery,
  accessRequestBody,
  availableRolesQuery,
  availableRolesResponse,
  cancelPendingBody,
  cancelPendingResponse,
  currentAccessResponse,
  pendingAccessResponse,
  removeAccessBody,
} from '../access';
import {
  extendAccessBody,
  extendAccessResponse,
  setAccessEndBody,
  setAccessEndResponse,
} from '../access-expiry';
import {
  departureReportBody,
  departureReportResponse,
  emergencyAccessBody,
  emergencyAccessResponse,
} from '../emergencies';
import { endpoint } from '../endpoint';
import { api } from '../paths';

export const getCurrentAccess = endpoint({
  method: 'GET',
  path: api.currentAccess,
  operationId: 'getCurrentAccess',
  tokenScope: 'access:read',
  summary: 'A vendor’s current roles',
  tag: 'access',
  callers: 'vendorOrManager',
  query: accessQuery,
  response: { 200: currentAccessResponse },
});

export const getPendingAccess = endpoint({
  method: 'GET',
  path: api.pendingAccess,
  operationId: 'getPendingAccess',
  tokenScope: 'access:read',
  summary: 'A vendor’s pending access requests',
  tag: 'access',
  callers: 'vendorOrManager',
  query: accessQuery,
  response: { 200: pendingAccessResponse },
});

export const getAvailableRoles = endpoint({
  method: 'GET',
  path: api.availableRoles,
  operationId: 'getAvailableRoles',
  tokenScope: 'access:read',
  summary: 'The roles a vendor may request (admins: every role with showAll)',
  tag: 'access',
  callers: 'vendorOrManager',
  query: availableRolesQuery,
  response: { 200: availableRolesResponse },
});

export const requestAccess = endpoint({
  method: 'POST',
  path: api.requestAccess,
  operationId: 'requestAccess',
  tokenScope: 'access:write',
  summary: 'Requests (vendor) or grants (BRM, admin) roles',
  tag: 'access',
  callers: 'vendorOrManager',
  identityService: true,
  partialResults: true,
  body: accessRequestBody,
  response: { 200: accessChangeResponse },
});

export const removeAccess = endpoint({
  method: 'POST',
  path: api.removeAccess,
  operationId: 'removeAccess',
  tokenScope: 'access:write',
  summary: 'Removes current roles',
  tag: 'access',
  callers: 'vendorOrManager',
  identityService: true,
  partialResults: true,
  body: removeAccessBody,
  response: { 200: accessChangeResponse },
});

export const cancelPendingAccess = endpoint({
  method: 'POST',
  path: api.cancelPendingAccess,
  operationId: 'cancelPendingAccess',
  tokenScope: 'access:write',
  summary: 'Cancels pending access requests',
  tag: 'access',
  callers: 'vendorOrManager',
  identityService: true,
  body: cancelPendingBody,
  response: { 200: cancelPendingResponse },
});

export const extendAccess = endpoint({
  method: 'POST',
  path: api.extendAccess,
  operationId: 'extendAccess',
  summary: 'A vendor asks its sponsor to extend a role until a date (an Extend Access request)',
  tag: 'access',
  callers: 'vendor',
  identityService: true,
  body: extendAccessBody,
  response: { 200: extendAccessResponse },
});

export const setAccessEnd = endpoint({
  method: 'POST',
  path: api.setAccessEnd,
  operationId: 'setAccessEnd',
  tokenScope: 'access:write',
  summary: 'A BRM or admin changes when a managed vendor’s role ends, within policy',
  tag: 'access',
  callers: 'brmOrAdmin',
  identityService: true,
  body: setAccessEndBody,
  response: { 200: setAccessEndResponse },
});

export const grantEmergencyAccess = endpoint({
  method: 'POST',
  path: api.emergencyAccess,
  operationId: 'grantEmergencyAccess',
  tokenScope: 'access:write',
  summary: 'An admin grants a vendor one organization for at most 72 hours with a ticket number',
  tag: 'access',
  callers: 'admin',
  identityService: true,
  body: emergencyAccessBody,
  response: { 200: emergencyAccessResponse },
});

export const reportDeparture = endpoint({
  method: 'POST',
  path: api.reportDeparture,
  operationId: 'reportDeparture',
  summary: 'A vendor reports that a colleague of the same organization left',
  tag: 'access',
  callers: 'vendor',
  identityService: true,
  body: departureReportBody,
  response: { 200: departureReportResponse },
});
