import { brmDigest } from './access-digest';
import { closeAccountsWithoutAccess, endExpiredGrants, expiryNotices } from './access-expiry';
import { closeCampaigns, openCampaigns, remindAndEscalate } from './reviews';
import type { GovernanceStep } from './sweep';
import { delegationChanges, requestRouting } from '../approval-routing-sweep';
import { closeDormantAccounts, inactivity } from './dormancy';
import { brmInactiveAlerts, departures, leavingRoleEnds } from './departure';
import { activityReviewDigest, activityReviewReminders } from './activity-review';
import { aupReminders } from './aup';
import { passkeyGrace } from './passkey-grace';
import { emergencyAcknowledgeReminders, endEmergencyGrants, forwardDepartureReports } from './emergency';

/**
 * The governance sweep's steps, in the order they run (GOVERNANCE.md §2.2). This list is the one
 * place a capability adds its steps: (1) end expired grants and (2) disable accounts left with no
 * access (one step: the disable is in the same transaction as the last grant ending); (3) expiry
 * notices; (4) request reminders, forwards, expiries; (5) review campaigns; (6) inactivity; (7)
 * close accounts disabled by automation for 30 days; (11) emergency grants end, and their
 * acknowledgement reminders; (12) reported departures past their deadline go to InfoSec
 * (emergency.ts); (8) delegations start/end; the security-key graces (passkey-grace.ts: started,
 * and W3 again 7 days before the end); (10) Acceptable Use Policy reminders and blocks; the BRMs'
 * daily digest (access-digest.ts), so that it lists what this sweep ended; (13) the weekly
 * activity review (activity-review.ts: Monday 06:00, and its reminder). Each step works in
 * batches with a transaction per row (sweep.ts's `eachRow`).
 */
export const governanceSteps: readonly GovernanceStep[] = [
  endExpiredGrants,
  expiryNotices,
  requestRouting,
  openCampaigns,
  remindAndEscalate,
  closeCampaigns,
  closeAccountsWithoutAccess,
  inactivity,
  closeDormantAccounts,
  departures,
  leavingRoleEnds,
  brmInactiveAlerts,
  endEmergencyGrants,
  emergencyAcknowledgeReminders,
  forwardDepartureReports,
  delegationChanges,
  aupReminders,
  passkeyGrace,
  brmDigest,
  activityReviewDigest,
  activityReviewReminders,
];
