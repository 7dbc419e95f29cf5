import {
  adminApi,
  adminSystemMessage,
  auditPage,
  mailList,
  maintenanceState,
  organizationList,
  peopleList,
  successResponse,
  type AdminSystemMessage,
  type AuditQuery,
  type CreateOrganizationBody,
  type PersonBody,
} from '@pra/contracts';
import { z } from 'zod';
import { call } from './client';

/** The admin API, one function per call (admins only; the server enforces it). */

const withId = successResponse.extend({ id: z.string() });
const at = (template: string, params: Record<string, string>) =>
  template.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));

export function getOrganizations(filter: string, signal?: AbortSignal) {
  return call(organizationList, {
    method: 'get',
    url: adminApi.organizations,
    params: filter ? { filter } : {},
    signal,
  });
}

export function createOrganization(body: CreateOrganizationBody) {
  return call(withId, { method: 'post', url: adminApi.organizations, data: body });
}

export function changeOrganization(id: string, body: { name?: string; isActive?: boolean }) {
  return call(successResponse, { method: 'patch', url: at(adminApi.organization, { id }), data: body });
}

export function addDomain(id: string, domain: string) {
  return call(successResponse, {
    method: 'post',
    url: at(adminApi.organizationDomains, { id }),
    data: { domain },
  });
}

export function removeDomain(id: string, domain: string) {
  return call(successResponse, { method: 'delete', url: at(adminApi.organizationDomain, { id, domain }) });
}

export function getPeople(signal?: AbortSignal) {
  return call(peopleList, { method: 'get', url: adminApi.people, signal });
}

export function createPerson(body: PersonBody) {
  return call(withId, { method: 'post', url: adminApi.people, data: body });
}

export function changePerson(id: string, body: Partial<Omit<PersonBody, 'username'>>) {
  return call(successResponse, { method: 'patch', url: at(adminApi.person, { id }), data: body });
}

export function removePerson(id: string) {
  return call(successResponse, { method: 'delete', url: at(adminApi.person, { id }) });
}

export function getAdminSystemMessage(signal?: AbortSignal) {
  return call(adminSystemMessage, { method: 'get', url: adminApi.systemMessage, signal });
}

export function saveSystemMessage(body: AdminSystemMessage) {
  return call(successResponse, { method: 'put', url: adminApi.systemMessage, data: body });
}

export function getMaintenance(signal?: AbortSignal) {
  return call(maintenanceState, { method: 'get', url: adminApi.maintenance, signal });
}

export function setMaintenance(maintenance: boolean) {
  return call(maintenanceState, { method: 'put', url: adminApi.maintenance, data: { maintenance } });
}

export function getUndeliveredMail(signal?: AbortSignal) {
  return call(mailList, { method: 'get', url: adminApi.mail, signal });
}

export function resendMail(id: string) {
  return call(successResponse, { method: 'post', url: at(adminApi.mailResend, { id }) });
}

/** Only the filters that are set, as query parameters. */
export function auditParams(query: AuditQuery): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  );
}

export function getAuditPage(query: AuditQuery, signal?: AbortSignal) {
  return call(auditPage, { method: 'get', url: adminApi.audit, params: auditParams(query), signal });
}

/** The CSV download of the filtered trail: a plain link, so the browser streams it to a file. */
export function auditExportUrl(query: AuditQuery): string {
  const { cursor: _cursor, limit: _limit, ...filter } = query;
  const search = new URLSearchParams(auditParams(filter)).toString();
  return search ? `${adminApi.auditExport}?${search}` : adminApi.auditExport;
}
