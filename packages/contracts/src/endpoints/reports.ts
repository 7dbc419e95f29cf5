import { endpoint, media } from '../endpoint';
import { adminApi } from '../paths';
import {
  dormantCsvQuery,
  dormantPage,
  dormantQuery,
  evidenceCampaignsPage,
  evidenceCampaignsQuery,
  reportOrganizations,
  signInStrengthCsvQuery,
  sponsorshipCsvQuery,
  vendorAccessCsvQuery,
  vendorAccessPage,
  vendorAccessQuery,
} from '../reports';

// Reports for auditors (GOVERNANCE.md §9.2): admins and auditors (who need not be admins) read
// them; each CSV export is audited `report.export`.

const reader = { tag: 'reports', callers: 'adminOrAuditor', tokenScope: 'reports:read' } as const;
const csv = (description: string) => ({ 200: media('text/csv', description) });

export const getVendorAccess = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportVendorAccess,
  operationId: 'getVendorAccess',
  summary: 'One page of who had vendor access to an organization during a period',
  query: vendorAccessQuery,
  response: { 200: vendorAccessPage },
});

export const exportVendorAccess = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportVendorAccessCsv,
  operationId: 'exportVendorAccess',
  summary: 'The Vendor Access report as a CSV file, streamed',
  query: vendorAccessCsvQuery,
  response: csv('One line per grant, formula-safe cells'),
});

export const getDormant = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportDormant,
  operationId: 'getDormant',
  summary: 'One page of vendor accounts warned for inactivity, disabled, or never activated',
  query: dormantQuery,
  response: { 200: dormantPage },
});

export const exportDormant = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportDormantCsv,
  operationId: 'exportDormant',
  summary: 'The Dormant and Disabled report as a CSV file',
  query: dormantCsvQuery,
  response: csv('One line per account, formula-safe cells'),
});

export const exportSponsorship = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportSponsorshipCsv,
  operationId: 'exportSponsorship',
  summary: 'The Sponsorship report as a CSV file',
  query: sponsorshipCsvQuery,
  response: csv('One line per grant without a current sponsor, formula-safe cells'),
});

export const exportSignInStrength = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportSignInStrengthCsv,
  operationId: 'exportSignInStrength',
  summary: 'The Sign-in Strength report as a CSV file',
  query: signInStrengthCsvQuery,
  response: csv('One line per organization, formula-safe cells'),
});

export const getReviewEvidenceCampaigns = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportReviewEvidence,
  operationId: 'getReviewEvidenceCampaigns',
  summary: 'One page of the access review campaigns, closed first, whose evidence can be downloaded',
  query: evidenceCampaignsQuery,
  response: { 200: evidenceCampaignsPage },
});

export const getReportOrganizations = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportOrganizations,
  operationId: 'getReportOrganizations',
  summary: 'The organizations the reports filter by, by name',
  response: { 200: reportOrganizations },
});
