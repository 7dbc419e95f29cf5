import type { Endpoint } from './endpoint';
import * as access from './endpoints/access';
import * as accessReviews from './endpoints/access-reviews';
import * as activation from './endpoints/activation';
import * as activityReview from './endpoints/activity-review';
import * as administration from './endpoints/administration';
import * as approvalRouting from './endpoints/approval-routing';
import * as approvals from './endpoints/approvals';
import * as authenticator from './endpoints/authenticator';
import * as departure from './endpoints/departure';
import * as governance from './endpoints/governance';
import * as policyAttestation from './endpoints/policy-attestation';
import * as manageUsers from './endpoints/manage-users';
import * as profile from './endpoints/profile';
import * as recovery from './endpoints/recovery';
import * as registration from './endpoints/registration';
import * as reports from './endpoints/reports';
import * as securityKeys from './endpoints/security-keys';
import * as session from './endpoints/session';
import * as system from './endpoints/system';
import * as terminateVendors from './endpoints/terminate-vendors';

/** Every endpoint object a capability module exports (its schemas are left out). */
function endpointsOf(module: Record<string, unknown>): Endpoint[] {
  return Object.values(module).filter(
    (value): value is Endpoint =>
      typeof value === 'object' && value !== null && 'operationId' in value && 'callers' in value,
  );
}

/** Every endpoint of the API, by capability. Imports every schema: for the server and tests only. */
export const endpointsByCapability = {
  session,
  system,
  registration,
  activation,
  recovery,
  authenticator,
  profile,
  access,
  approvals,
  approvalRouting,
  accessReviews,
  manageUsers,
  terminateVendors,
  administration,
  departure,
  governance,
  activityReview,
  policyAttestation,
  reports,
  securityKeys,
};

/** Every endpoint of the API. */
export const allEndpoints: Endpoint[] = Object.values(endpointsByCapability).flatMap(endpointsOf);
