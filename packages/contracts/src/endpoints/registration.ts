import { endpoint } from '../endpoint';
import { api } from '../paths';
import {
  emailInUseBody,
  emailInUseResult,
  orgsByDomainQuery,
  orgsByDomainResponse,
  registrationAvailability,
  registrationBody,
  registrationResponse,
} from '../registration';

export const checkEmailInUse = endpoint({
  method: 'POST',
  path: api.emailInUse,
  operationId: 'checkEmailInUse',
  summary: 'Whether an email address may register',
  tag: 'registration',
  callers: 'anyone',
  body: emailInUseBody,
  response: { 200: emailInUseResult },
});

export const getOrgsByDomain = endpoint({
  method: 'GET',
  path: api.orgsByDomain,
  operationId: 'getOrgsByDomain',
  summary: 'The organizations owning an email domain',
  tag: 'registration',
  callers: 'anyone',
  query: orgsByDomainQuery,
  response: { 200: orgsByDomainResponse },
});

export const getRegistrationAvailability = endpoint({
  method: 'GET',
  path: api.registrationAvailability,
  operationId: 'getRegistrationAvailability',
  summary: 'Whether registrations are taken now',
  tag: 'registration',
  callers: 'anyone',
  response: { 200: registrationAvailability },
});

export const submitRegistration = endpoint({
  method: 'POST',
  path: api.registrationSubmit,
  operationId: 'submitRegistration',
  summary: 'Registers a vendor user (a request for a BRM to approve)',
  tag: 'registration',
  callers: 'anyone',
  identityService: true,
  body: registrationBody,
  response: { 200: registrationResponse },
});
