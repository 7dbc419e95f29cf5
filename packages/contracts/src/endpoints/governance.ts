import { endingCsvQuery, endingPage, endingQuery, governancePolicies, savePolicyBody } from '../governance';
import { endpoint, media } from '../endpoint';
import { adminApi } from '../paths';
import { signInStrengthQuery } from '../reports';
import { signInStrengthReport } from '../security-keys';
import { successResponse } from '../system';

// Governance's admin calls (GOVERNANCE.md §2.3, §3.2, §3.7). Auditors (admins with the auditor
// flag) read them; the change is refused to them like every other.

const admin = { tag: 'governance', callers: 'admin' } as const;
/** The reports (GOVERNANCE.md §9.2): admins and auditors, who need not be admins. */
const reader = { tag: 'governance', callers: 'adminOrAuditor' } as const;

export const getGovernancePolicies = endpoint({
  ...admin,
  method: 'GET',
  path: adminApi.governancePolicies,
  operationId: 'getGovernancePolicies',
  tokenScope: 'settings:read',
  summary: 'The governance policy of each risk tier (standard, high)',
  response: { 200: governancePolicies },
});

export const saveGovernancePolicy = endpoint({
  ...admin,
  method: 'PUT',
  path: adminApi.governancePolicies,
  operationId: 'saveGovernancePolicy',
  tokenScope: 'settings:write',
  summary: 'Changes one risk tier’s policy (refused when it changed since it was read)',
  body: savePolicyBody,
  response: { 200: successResponse },
});

export const getAccessEnding = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportEnding,
  operationId: 'getAccessEnding',
  tokenScope: 'reports:read',
  summary: 'One page of the vendor access ending in the next days (by default 30)',
  query: endingQuery,
  response: { 200: endingPage },
});

export const exportAccessEnding = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportEndingCsv,
  operationId: 'exportAccessEnding',
  tokenScope: 'reports:read',
  summary: 'The vendor access ending in the next days as a CSV file',
  query: endingCsvQuery,
  response: { 200: media('text/csv', 'One line per grant ending, formula-safe cells') },
});

export const getSignInStrength = endpoint({
  ...reader,
  method: 'GET',
  path: adminApi.reportSignInStrength,
  operationId: 'getSignInStrength',
  tokenScope: 'reports:read',
  summary: 'Per organization, the share of active vendors who sign in with a security key or passkey',
  query: signInStrengthQuery,
  response: { 200: signInStrengthReport },
});
