import { endpoint, media } from '../endpoint';
import { adminApi, api } from '../paths';
import {
  acceptAupBody,
  aupReportCsvQuery,
  aupReportPage,
  aupReportQuery,
  aupVersion,
  aupVersionList,
  myAup,
  notAcceptedCsvQuery,
  notAcceptedPage,
  notAcceptedQuery,
  publishAupBody,
} from '../policy-attestation';
import { successResponse } from '../system';

// The Acceptable Use Policy attestation (GOVERNANCE.md §8). Admins publish and read; auditors
// (admins with the read-only flag) read every list and report.

const admin = { tag: 'policy-attestation', callers: 'admin' } as const;
// The auditors' report is also read by reports-only auditors (Administration → Reports).
const reader = { tag: 'policy-attestation', callers: 'adminOrAuditor' } as const;

export const getMyAup = endpoint({
  tag: 'policy-attestation',
  callers: 'vendor',
  method: 'GET',
  path: api.myAup,
  operationId: 'getMyAup',
  summary: 'The newest Acceptable Use Policy and where the signed-in vendor stands',
  response: { 200: myAup },
});

export const acceptAup = endpoint({
  tag: 'policy-attestation',
  callers: 'vendor',
  method: 'POST',
  path: api.acceptAup,
  operationId: 'acceptAup',
  summary: 'Records the signed-in vendor’s acceptance of the newest Acceptable Use Policy',
  body: acceptAupBody,
  response: { 200: successResponse },
});

export const listAupVersions = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.aupVersions,
  operationId: 'listAupVersions',
  tokenScope: 'settings:read',
  summary: 'Every published version of the Acceptable Use Policy, newest first',
  response: { 200: aupVersionList },
});

export const publishAupVersion = endpoint({
  ...admin,
  method: 'POST',
  path: adminApi.aupVersions,
  operationId: 'publishAupVersion',
  tokenScope: 'settings:write',
  summary: 'Publishes a new version of the Acceptable Use Policy (every vendor is asked to accept it)',
  body: publishAupBody,
  response: { 200: aupVersion },
});

export const listAupNotAccepted = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.aupNotAccepted,
  operationId: 'listAupNotAccepted',
  tokenScope: 'reports:read',
  summary: 'One page of the vendors asked to accept the Acceptable Use Policy who have not yet',
  query: notAcceptedQuery,
  response: { 200: notAcceptedPage },
});

export const exportAupNotAccepted = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.aupNotAcceptedCsv,
  operationId: 'exportAupNotAccepted',
  tokenScope: 'reports:read',
  summary: 'The vendors who have not accepted the Acceptable Use Policy as a CSV file',
  query: notAcceptedCsvQuery,
  response: { 200: media('text/csv', 'One line per vendor, formula-safe cells') },
});

export const getAupReport = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportAup,
  operationId: 'getAupReport',
  tokenScope: 'reports:read',
  summary: 'Per vendor, the Acceptable Use Policy version accepted, when and from which address',
  query: aupReportQuery,
  response: { 200: aupReportPage },
});

export const exportAupReport = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportAupCsv,
  operationId: 'exportAupReport',
  tokenScope: 'reports:read',
  summary: 'The Acceptable Use Policy report as a CSV file',
  query: aupReportCsvQuery,
  response: { 200: media('text/csv', 'One line per vendor, formula-safe cells') },
});
