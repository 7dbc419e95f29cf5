import type {
  EmailInUseResult,
  OrgsByDomainQuery,
  OrgsByDomainResponse,
  RegistrationAvailability,
  RegistrationBody,
  RegistrationResponse,
} from '@pra/contracts';
import { api } from '@pra/contracts/paths';
import {
  emailInUseResult,
  orgsByDomainResponse,
  registrationAvailability,
  registrationResponse,
} from '@pra/contracts/registration';
import { call } from './client';

/** POST /api/user/new/email-in-use: whether the email may register. */
export function checkEmailInUse(email: string, signal?: AbortSignal): Promise<EmailInUseResult> {
  return call(emailInUseResult, { method: 'post', url: api.emailInUse, data: { email }, signal });
}

/** GET /api/orgs/email-domain?domain= : the organizations owning an email domain. */
export function getOrgsByDomain(domain: string, signal?: AbortSignal): Promise<OrgsByDomainResponse> {
  const params: OrgsByDomainQuery = { domain };
  return call(orgsByDomainResponse, { method: 'get', url: api.orgsByDomain, params, signal });
}

/** POST /api/user/new/submit */
export function submitRegistration(body: RegistrationBody): Promise<RegistrationResponse> {
  return call(registrationResponse, { method: 'post', url: api.registrationSubmit, data: body });
}

/** GET /api/user/new/availability: whether registrations are taken now. */
export function getRegistrationAvailability(signal?: AbortSignal): Promise<RegistrationAvailability> {
  return call(registrationAvailability, { method: 'get', url: api.registrationAvailability, signal });
}
