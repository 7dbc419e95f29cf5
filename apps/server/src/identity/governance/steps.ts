import { brmDigest } from './access-digest';
import { closeAccountsWithoutAccess, endExpiredGrants, expiryNotices } from './access-expiry';
import { closeCampaigns, openCampaigns, remindAndEscalate } from './reviews';
import type { GovernanceStep } from './sweep';
import { delegationChanges, requestRouting } from '../approval-routing-sweep';
import { closeDormantAccounts, inactivity } from './dormancy';
import { brmInactiveAlerts, departures, leavingRoleEnds } from './departure';
import { emergencyAcknowledgeReminders, endEmergencyGrants, forwardDepartureReports } from './emergency';

/**
 * The governance sweep's steps, in the order they run (GOVERNANCE.md §2.2). This list is the one
 * place a capability adds its steps: (1) end expired grants and (2) disable accounts left with no
 * access (one step: the disable is in the same transaction as the last grant ending); (3) expiry
 * notices; (4) request reminders, forwards, expiries; (5) review campaigns; (6) inactivity; (7)
 * close accounts disabled by automation for 30 days; (11) emergency grants end, and their
 * acknowledgement reminders; (12) reported departures past their deadline go to InfoSec
 * (emergency.ts); (8) delegations start/end; and the BRMs' daily
 * digest (access-digest.ts), last, so that it lists what this sweep ended. Each step works in
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
  brmDigest,
];
