import { z } from 'zod';
import {
  addDomainBody,
  adminSystemMessage,
  auditPage,
  auditQuery,
  changeOrganizationBody,
  changePersonBody,
  createOrganizationBody,
  mailList,
  mailPage,
  mailQuery,
  directoryStatus,
  maintenanceBody,
  maintenanceState,
  organizationList,
  organizationChanged,
  organizationListQuery,
  organizationPage,
  peopleList,
  peoplePage,
  peopleQuery,
  personBody,
} from '../administration';
import { endpoint, media } from '../endpoint';
import { createdServiceToken, createServiceTokenBody, serviceTokenList } from '../service-tokens';
import { adminApi } from '../paths';
import { successResponse } from '../system';

export const idParam = z.object({ id: z.uuid('Not a valid id.') });
export const domainParam = idParam.extend({ domain: z.string().max(253) });
/** A created item's answer. */
export const createdResponse = successResponse.extend({ id: z.string() });

const admin = { tag: 'administration', callers: 'admin' } as const;

export const listOrganizations = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.organizations,
  operationId: 'listOrganizations',
  tokenScope: 'organizations:read',
  summary: 'The organizations (optionally filtered by name or domain; one page with paging parameters)',
  query: organizationListQuery,
  response: { 200: z.union([organizationPage, organizationList]) },
});

export const createOrganization = endpoint({
  ...admin,
  method: 'POST',
  path: adminApi.organizations,
  operationId: 'createOrganization',
  tokenScope: 'organizations:write',
  summary: 'Creates an organization',
  body: createOrganizationBody,
  response: { 200: createdResponse },
});

export const changeOrganization = endpoint({
  ...admin,
  method: 'PATCH',
  path: adminApi.organization,
  operationId: 'changeOrganization',
  tokenScope: 'organizations:write',
  summary: 'Renames, activates or deactivates an organization; sets its risk tier and contract end',
  params: idParam,
  body: changeOrganizationBody,
  response: { 200: organizationChanged },
});

export const addDomain = endpoint({
  ...admin,
  method: 'POST',
  path: adminApi.organizationDomains,
  operationId: 'addOrganizationDomain',
  tokenScope: 'organizations:write',
  summary: 'Adds an email domain to an organization',
  params: idParam,
  body: addDomainBody,
  response: { 200: successResponse },
});

export const removeDomain = endpoint({
  ...admin,
  method: 'DELETE',
  path: adminApi.organizationDomain,
  operationId: 'removeOrganizationDomain',
  tokenScope: 'organizations:write',
  summary: 'Removes an email domain from an organization',
  params: domainParam,
  response: { 200: successResponse },
});

export const listPeople = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.people,
  operationId: 'listPeople',
  tokenScope: 'people:read',
  summary: 'The hospital’s people (employees, BRMs, admins; one page with paging parameters)',
  query: peopleQuery,
  response: { 200: z.union([peoplePage, peopleList]) },
});

export const createPerson = endpoint({
  ...admin,
  method: 'POST',
  path: adminApi.people,
  operationId: 'createPerson',
  tokenScope: 'people:write',
  summary: 'Adds an employee, BRM or admin',
  body: personBody,
  response: { 200: createdResponse },
});

export const changePerson = endpoint({
  ...admin,
  method: 'PATCH',
  path: adminApi.person,
  operationId: 'changePerson',
  tokenScope: 'people:write',
  summary: 'Changes a person’s details, rights or managed organizations',
  params: idParam,
  body: changePersonBody,
  response: { 200: successResponse },
});

export const removePerson = endpoint({
  ...admin,
  method: 'DELETE',
  path: adminApi.person,
  operationId: 'removePerson',
  tokenScope: 'people:write',
  summary: 'Removes a person',
  params: idParam,
  response: { 200: successResponse },
});

export const getAdminSystemMessage = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.systemMessage,
  operationId: 'getAdminSystemMessage',
  tokenScope: 'settings:read',
  summary: 'The system message as edited',
  response: { 200: adminSystemMessage },
});

export const saveSystemMessage = endpoint({
  ...admin,
  method: 'PUT',
  path: adminApi.systemMessage,
  operationId: 'saveSystemMessage',
  tokenScope: 'settings:write',
  summary: 'Saves the system message',
  body: adminSystemMessage.strict(),
  response: { 200: successResponse },
});

export const getMaintenance = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.maintenance,
  operationId: 'getMaintenance',
  tokenScope: 'settings:read',
  summary: 'Whether account management is in maintenance',
  response: { 200: maintenanceState },
});

export const setMaintenance = endpoint({
  ...admin,
  method: 'PUT',
  path: adminApi.maintenance,
  operationId: 'setMaintenance',
  tokenScope: 'settings:write',
  summary: 'Switches account-management maintenance on or off',
  body: maintenanceBody,
  response: { 200: maintenanceState },
});

export const listUndeliveredMail = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.mail,
  operationId: 'listUndeliveredMail',
  tokenScope: 'mail:read',
  summary: 'Mail not delivered yet or undeliverable (one page with paging parameters)',
  query: mailQuery,
  response: { 200: z.union([mailPage, mailList]) },
});

export const resendMail = endpoint({
  ...admin,
  method: 'POST',
  path: adminApi.mailResend,
  operationId: 'resendMail',
  tokenScope: 'mail:write',
  summary: 'Sends an undelivered mail again',
  params: idParam,
  response: { 200: successResponse },
});

export const getDirectoryStatus = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.directory,
  operationId: 'getDirectoryStatus',
  tokenScope: 'directory:read',
  summary: "The hospital's directory: waiting and failing changes, the last reconciliation",
  response: { 200: directoryStatus },
});

export const retryProvisioning = endpoint({
  ...admin,
  method: 'POST',
  path: adminApi.directoryRetry,
  operationId: 'retryProvisioning',
  tokenScope: 'directory:write',
  summary: 'Tries a waiting directory change again now',
  params: idParam,
  response: { 200: successResponse },
});

export const getAuditPage = endpoint({
  ...admin,
  callers: 'adminOrAuditor',
  method: 'GET',
  path: adminApi.audit,
  operationId: 'getAuditPage',
  tokenScope: 'audit:read',
  summary: 'One page of the audit trail, filtered',
  query: auditQuery,
  response: { 200: auditPage },
});

export const exportAudit = endpoint({
  ...admin,
  callers: 'adminOrAuditor',
  method: 'GET',
  path: adminApi.auditExport,
  operationId: 'exportAudit',
  tokenScope: 'audit:read',
  summary: 'The filtered audit trail as a CSV file',
  query: auditQuery.omit({ cursor: true, limit: true }),
  response: { 200: media('text/csv', 'The audit events, one line each') },
});

// Service tokens: admins only, with a session (no tokenScope: a token never makes or revokes one).

export const listServiceTokens = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.serviceTokens,
  operationId: 'listServiceTokens',
  summary: 'The service tokens for automation (never the tokens themselves)',
  response: { 200: serviceTokenList },
});

export const createServiceToken = endpoint({
  ...admin,
  method: 'POST',
  path: adminApi.serviceTokens,
  operationId: 'createServiceToken',
  summary: 'Creates a service token acting as the calling admin; the answer shows it once',
  body: createServiceTokenBody,
  response: { 200: createdServiceToken },
});

export const revokeServiceToken = endpoint({
  ...admin,
  method: 'POST',
  path: adminApi.serviceTokenRevoke,
  operationId: 'revokeServiceToken',
  summary: 'Revokes a service token: it stops working at once',
  params: idParam,
  response: { 200: successResponse },
});
