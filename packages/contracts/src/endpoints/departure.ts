import {
  assignSponsorBody,
  assignSponsorResponse,
  departureApi,
  leavingBody,
  mySponsors,
  personParams,
  sponsorshipReport,
  transferBody,
  transferPlan,
} from '../departure';
import { endpoint } from '../endpoint';
import { sponsorshipQuery } from '../reports';
import { successResponse } from '../system';

const admin = { tag: 'departure', callers: 'admin' } as const;

export const setLeaving = endpoint({
  ...admin,
  method: 'PUT',
  path: departureApi.leaving,
  operationId: 'setLeaving',
  tokenScope: 'people:write',
  summary: 'Sets or clears the date a person leaves the hospital',
  params: personParams,
  body: leavingBody,
  response: { 200: successResponse },
});

export const transferResponsibilities = endpoint({
  ...admin,
  method: 'POST',
  path: departureApi.transfer,
  operationId: 'transferResponsibilities',
  tokenScope: 'people:write',
  summary: 'Moves a leaving BRM’s organizations, approvals, sponsorships and delegations (or previews it)',
  params: personParams,
  body: transferBody,
  response: { 200: transferPlan },
});

export const getSponsorship = endpoint({
  ...admin,
  callers: 'adminOrAuditor',
  method: 'GET',
  path: departureApi.sponsorship,
  operationId: 'getSponsorship',
  tokenScope: 'people:read',
  summary: 'One page of the grants with no sponsor, or a sponsor who no longer manages the organization',
  query: sponsorshipQuery,
  response: { 200: sponsorshipReport },
});

export const assignSponsor = endpoint({
  ...admin,
  method: 'POST',
  path: departureApi.sponsors,
  operationId: 'assignSponsor',
  tokenScope: 'people:write',
  summary: 'Makes a BRM the sponsor of record of the grants chosen',
  body: assignSponsorBody,
  response: { 200: assignSponsorResponse },
});

export const getMySponsors = endpoint({
  tag: 'departure',
  callers: 'vendor',
  method: 'GET',
  path: departureApi.mySponsors,
  operationId: 'getMySponsors',
  summary: 'The signed-in vendor’s sponsor of record per organization',
  response: { 200: mySponsors },
});
