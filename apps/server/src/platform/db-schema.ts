import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Column types of the database, mirrored from the migrations. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json = ColumnType<Record<string, unknown>, string | undefined, string>;

export type AccountStatus = 'pendingActivation' | 'active' | 'disabled' | 'terminated';
export type RequestStatus = 'pending' | 'approved' | 'denied' | 'cancelled' | 'expired';
export type RequestType =
  | 'New Account'
  | 'Add Access'
  | 'Remove Access'
  | 'Extend Access'
  | 'Emergency Access'
  | 'Departure Reported';
export type RiskTier = 'standard' | 'high';
export type DisabledReason = 'manual' | 'noAccess' | 'inactive' | 'departureReported';
export type GrantEndReason =
  'expired' | 'removed' | 'revoked' | 'defaultRemoved' | 'terminated' | 'emergencyEnded';
/** A calendar date (`date` column): read as 'YYYY-MM-DD' (db.ts's type parser). */
type DateOnly = ColumnType<string | null, string | null | undefined, string | null>;

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  risk_tier: Generated<RiskTier>;
  /** No grant of the organization may end later than this date (hospital time). */
  contract_ends_on: DateOnly;
}

export interface OrganizationDomainsTable {
  organization_id: string;
  domain: string;
}

export interface AccountsTable {
  id: Generated<string>;
  username: string;
  given_name: Generated<string>;
  family_name: Generated<string>;
  email: string;
  job_title: Generated<string>;
  manager: Generated<string>;
  type: 'vendor' | 'employee';
  is_employee_brm: Generated<boolean>;
  is_admin: Generated<boolean>;
  status: AccountStatus;
  password_hash: string | null;
  password_changed_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_sign_in_at: NullableTimestamp;
  disabled_reason: DisabledReason | null;
  disabled_at: NullableTimestamp;
  is_auditor: Generated<boolean>;
  active_since: NullableTimestamp;
  leaving_on: DateOnly;
  leaving_ends_role: Generated<boolean>;
  responsibilities_transferred_at: NullableTimestamp;
  /** Set by the governance sweep when the Acceptable Use Policy's grace ran out; cleared on acceptance. */
  aup_overdue_since: NullableTimestamp;
}

export interface PasswordHistoryTable {
  id: Generated<string>;
  account_id: string;
  password_hash: string;
  created_at: Timestamp;
}

export interface MfaDevicesTable {
  id: Generated<string>;
  account_id: string;
  kind: Generated<'totp'>;
  nickname: string;
  secret_encrypted: string;
  last_used_step: number | null;
  confirmed_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface BrmAssignmentsTable {
  account_id: string;
  organization_id: string;
  created_at: Timestamp;
  /** A primary BRM decides the organization's requests; a backup once one is forwarded. */
  kind: Generated<'primary' | 'backup'>;
}

export interface RequestsTable {
  id: Generated<string>;
  type: RequestType;
  status: RequestStatus;
  requester_id: string | null;
  beneficiary_id: string | null;
  first_name: Generated<string>;
  last_name: Generated<string>;
  email: Generated<string>;
  job_title: Generated<string>;
  manager: Generated<string>;
  comment: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The decision deadline (§5); null for decided requests from before governance. */
  expires_at: NullableTimestamp;
}

export interface RequestItemsTable {
  id: Generated<string>;
  request_id: string;
  organization_id: string;
  operation: 'Add' | 'Remove' | 'Extend' | 'Acknowledge' | 'Departure';
  status: RequestStatus;
  decided_by: string | null;
  decided_at: NullableTimestamp;
  decision_comment: Generated<string>;
  created_at: Timestamp;
  /** The end date the requester asked for (end of that day, hospital time). */
  requested_until: NullableTimestamp;
  /** The end date the approver set. */
  granted_until: NullableTimestamp;
  /** The decision deadline (its organization's tier at submission), 23:59:59 of the last day. */
  expires_at: ColumnType<Date, Date | string, Date | string>;
  /** When the item went to the backup BRMs or InfoSec as well. */
  forwarded_at: NullableTimestamp;
  /** The last reminder to its approvers. */
  reminded_at: NullableTimestamp;
}

export interface RoleGrantsTable {
  account_id: string;
  organization_id: string;
  granted_by: string | null;
  request_item_id: string | null;
  granted_at: Timestamp;
  /**
   * When the grant ends. The column's default (180 days from the insert) is only a safety net for
   * rows written by code that predates governance; the owners' functions always set it.
   */
  expires_at: Timestamp;
  /** The BRM accountable for the grant (approved, extended or last confirmed it). */
  sponsor_id: string | null;
  last_confirmed_at: NullableTimestamp;
  last_confirmed_by: string | null;
  /** An emergency grant (GOVERNANCE.md §10.1): its emergency_grants row; null for an ordinary grant. */
  emergency_id: Generated<string | null>;
}

export interface GrantHistoryTable {
  id: Generated<string>;
  account_id: string;
  organization_id: string;
  granted_at: Date | string;
  granted_by: string | null;
  expires_at: Date | string;
  ended_at: Date | string;
  end_reason: GrantEndReason;
  ended_by: string | null;
  sponsor_id: string | null;
}

export interface GovernancePoliciesTable {
  tier: RiskTier;
  settings: Json;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface BrmDelegationsTable {
  id: Generated<string>;
  delegator_id: string;
  /** Null when the delegate is the Information Security team (`to_infosec`). */
  delegate_id: string | null;
  to_infosec: Generated<boolean>;
  starts_at: Date | string;
  ends_at: Date | string;
  reason: Generated<string>;
  move_pending: Generated<boolean>;
  created_at: Timestamp;
  ended_at: NullableTimestamp;
  end_reason: string | null;
}

export interface GovernanceNoticesTable {
  kind: string;
  subject_id: string;
  milestone: string;
  sent_at: Date | string;
  /** Passed over by the catch-up rule: a later milestone was due and sent instead. */
  skipped: Generated<boolean>;
}

export interface GovernanceSweepTable {
  id: number;
  owner: Generated<string>;
  leased_until: Timestamp;
  last_started_at: NullableTimestamp;
  last_finished_at: NullableTimestamp;
  last_summary: Json;
}

export interface CodesTable {
  id: Generated<string>;
  account_id: string;
  kind: 'activation' | 'reset';
  code_hash: string;
  expires_at: Date | string;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface SessionsTable {
  id_hash: string;
  account_id: string | null;
  created_at: Timestamp;
  expires_at: Date | string;
  extensions_used: Generated<number>;
  authenticated_at: NullableTimestamp;
  reauthenticated_until: NullableTimestamp;
  revoked_at: NullableTimestamp;
  data: Json;
  client_address: Generated<string>;
  user_agent: Generated<string>;
}

export interface SamlRequestsTable {
  id: string;
  created_at: Timestamp;
  expires_at: Date | string;
  /** sha256 of the nonce cookie of the browser that started the sign-in. */
  browser_hash: string;
}

export interface SamlAssertionsTable {
  id: string;
  expires_at: Date | string;
}

export interface AuditEventsTable {
  id: Generated<string>;
  occurred_at: Timestamp;
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  actor_id: string | null;
  actor_username: Generated<string>;
  target_id: string | null;
  target_username: Generated<string>;
  organization_id: string | null;
  client_address: Generated<string>;
  details: Json;
}

export interface OutboxTable {
  id: Generated<string>;
  created_at: Timestamp;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  template: string;
  status: Generated<'pending' | 'sent' | 'undeliverable'>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: NullableTimestamp;
  /** The last failure's kind; for an undeliverable row the relay's code and short reason. */
  last_error: string | null;
  /** The last failure was the relay itself (unreachable, timed out, 421), not this mail. */
  waiting_for_relay: Generated<boolean>;
  sent_at: NullableTimestamp;
  undeliverable_at: NullableTimestamp;
}

export interface SystemMessageTable {
  id: number;
  enabled: boolean;
  logged_in_only: boolean;
  severity: 'info' | 'success' | 'warning' | 'danger';
  title: string;
  text: string;
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface PortalSettingsTable {
  id: number;
  /** Account management in maintenance, switched by admins (IIQ_MAINTENANCE forces it on). */
  maintenance: boolean;
  /** IDENTITY_STORE=ldap: changes of vendor accounts leave provisioning rows (set at start). */
  directory_provisioning: Generated<boolean>;
  updated_at: Timestamp;
  /** The standalone TEST_CLOCK's offset from the system clock, in milliseconds. */
  clock_offset_ms: Generated<number>;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  window_ends_at: Date | string;
  locked_until: NullableTimestamp;
}

export interface SigningKeysTable {
  name: string;
  private_key_encrypted: string;
  cert_pem: string;
  created_at: Generated<Timestamp>;
}

export interface IdpMetadataTable {
  source: string;
  xml: string;
  fetched_at: Date | string;
}

export interface AuthenticatorsTable {
  id: Generated<string>;
  account_id: string;
  nickname: string;
  key_hash: string;
  created_at: Timestamp;
  last_seen_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

/** A week's activity review (migration 0029): its digest snapshot and InfoSec's sign-off. */
export interface ActivityReviewsTable {
  /** The Monday (hospital time) the week starts on. */
  period_start: string;
  /** The Sunday it ends on. */
  period_end: string;
  starts_at: Timestamp;
  /** The next Monday's midnight (exclusive). */
  ends_at: Timestamp;
  generated_at: Timestamp;
  digest: Json;
  /** How many events the digest counts (the list shows it without reading the digest). */
  total: number;
  reviewed_by: string | null;
  reviewed_at: NullableTimestamp;
  note: string | null;
}

export interface AupVersionsTable {
  id: Generated<string>;
  version: number;
  title: string;
  body_md: string;
  sha256: string;
  /** The calendar date it takes effect (hospital time), 'YYYY-MM-DD'. */
  effective_on: string;
  published_at: Timestamp;
  published_by: string | null;
}

export interface AupAcceptancesTable {
  id: Generated<string>;
  account_id: string;
  version_id: string;
  accepted_at: Timestamp;
  client_address: string | null;
}

/** An admin's emergency grant of one organization (GOVERNANCE.md §10.1, migration 0028). */
export interface EmergencyGrantsTable {
  id: Generated<string>;
  account_id: string;
  organization_id: string;
  /** The follow-up item's request (type `Emergency Access`). */
  request_id: string;
  ticket: string;
  reason: Generated<string>;
  hours: number;
  granted_by: string | null;
  granted_at: Timestamp;
  ends_at: Timestamp;
  ended_at: NullableTimestamp;
  end_reason: 'expired' | 'removed' | 'replaced' | null;
  ended_by: string | null;
}

/** A vendor's report that a colleague left (GOVERNANCE.md §10.2, migration 0028). */
export interface DepartureReportsTable {
  id: Generated<string>;
  target_id: string;
  reporter_id: string | null;
  organization_id: string;
  /** Its request in Approvals (type `Departure Reported`). */
  request_id: string;
  left_on: string;
  note: Generated<string>;
  status: Generated<'reported' | 'confirmed' | 'dismissed'>;
  suspended: Generated<boolean>;
  created_at: Timestamp;
  due_at: Timestamp;
  forwarded_at: NullableTimestamp;
  decided_by: string | null;
  decided_at: NullableTimestamp;
  decision_reason: Generated<string>;
}

export interface PasskeyRequirementsTable {
  account_id: string;
  since: Date;
}

export interface WebauthnUsersTable {
  account_id: string;
  user_handle: string;
}

export interface WebauthnCredentialsTable {
  id: Generated<string>;
  account_id: string;
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: ColumnType<number, number | undefined, number>;
  /** Comma-separated transports the authenticator reported ("usb,nfc"; empty: none). */
  transports: ColumnType<string, string | undefined, string>;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
  aaguid: string;
  nickname: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface ServiceTokensTable {
  id: Generated<string>;
  name: string;
  token_hash: string;
  scopes: string[];
  owner_id: string;
  /** Who made it, as the audit trail names them (a username, or `cli:…`). */
  created_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** Who revoked it, as the audit trail names them (a username, `cli:…`, or why it was automatic). */
  revoked_by: string | null;
}

export type PushStatus = 'pending' | 'approved' | 'denied' | 'cancelled';

export interface PushChallengesTable {
  id: Generated<string>;
  account_id: string;
  purpose: 'signin' | 'reset' | 'factor';
  status: Generated<PushStatus>;
  client_address: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  answered_at: NullableTimestamp;
  answered_by: string | null;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'cancelled' | 'failed';

export interface JobsTable {
  id: Generated<string>;
  kind: string;
  owner_id: string;
  status: Generated<JobStatus>;
  input: Json;
  total: number;
  done: Generated<number>;
  cursor: Generated<number>;
  cancel_requested: Generated<boolean>;
  lease_holder: string | null;
  lease_until: NullableTimestamp;
  attempts: Generated<number>;
  error: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  finished_at: NullableTimestamp;
}

export interface JobResultsTable {
  job_id: string;
  ordinal: number;
  item: number;
  result: string;
}

/** A change the directory must follow (migration 0012): an account's or an organization's. */
export interface ProvisioningTable {
  id: Generated<string>;
  created_at: Timestamp;
  account_id: string | null;
  organization_id: string | null;
  /** What caused it (role.grant, account.disabled, group.ensure, ...), for admins. */
  action: string;
  status: Generated<'pending' | 'done'>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: NullableTimestamp;
  /** The directory's last refusal or why it could not be reached. */
  last_error: string | null;
  done_at: NullableTimestamp;
}

/** A reconciliation's report (admin directory-reconcile and the daily run). */
export interface DirectoryReportsTable {
  id: Generated<string>;
  created_at: Timestamp;
  drift: number;
  applied: boolean;
  report: unknown;
}

export type RoutingEvent = 'sent' | 'reminded' | 'forwarded' | 'delegated' | 'expired';

export interface RequestRoutingTable {
  id: Generated<string>;
  item_id: string;
  occurred_at: Date | string;
  event: RoutingEvent;
  recipients: Generated<string>;
}

/** Access reviews (GOVERNANCE.md §4, migration 0021). */
export type ReviewDefaultAction = 'remove' | 'keep' | 'recommendation';
export interface ReviewCyclesTable {
  id: Generated<string>;
  name: string;
  default_action: ReviewDefaultAction;
  vendor_confirmation: boolean;
  opens_at: Timestamp;
  due_at: Timestamp;
  created_by: string | null;
  created_at: Timestamp;
}
export type ReviewCampaignStatus = 'scheduled' | 'open' | 'closing' | 'closed' | 'cancelled';
export interface ReviewCampaignsTable {
  id: Generated<string>;
  cycle_id: string;
  organization_id: string;
  status: ReviewCampaignStatus;
  opened_at: NullableTimestamp;
  reminded_day: Generated<number>;
  escalated_at: NullableTimestamp;
  closing_at: NullableTimestamp;
  closed_at: NullableTimestamp;
  cancel_reason: string | null;
  preview_at_start: unknown;
  preview_at_escalation: unknown;
}
export type ReviewItemStatus = 'pending' | 'kept' | 'keptUntil' | 'removed' | 'applied' | 'withdrawn';
export interface ReviewItemsTable {
  id: Generated<string>;
  campaign_id: string;
  account_id: string;
  organization_id: string;
  granted_at: Timestamp;
  expires_at: Timestamp;
  status: Generated<ReviewItemStatus>;
  decision: 'keep' | 'keepUntil' | 'remove' | null;
  keep_until: NullableTimestamp;
  reason: string | null;
  decided_by: string | null;
  decided_at: NullableTimestamp;
  vendor_answer: 'yes' | 'no' | null;
  vendor_comment: string | null;
  answered_at: NullableTimestamp;
  vendor_reminded_at: NullableTimestamp;
  applied_action: 'kept' | 'shortened' | 'removed' | 'withdrawn' | null;
  by_default: boolean | null;
  recommendation: string | null;
  applied_at: NullableTimestamp;
}

export interface Database {
  organizations: OrganizationsTable;
  organization_domains: OrganizationDomainsTable;
  accounts: AccountsTable;
  password_history: PasswordHistoryTable;
  mfa_devices: MfaDevicesTable;
  brm_assignments: BrmAssignmentsTable;
  requests: RequestsTable;
  request_items: RequestItemsTable;
  role_grants: RoleGrantsTable;
  codes: CodesTable;
  sessions: SessionsTable;
  saml_requests: SamlRequestsTable;
  saml_assertions: SamlAssertionsTable;
  audit_events: AuditEventsTable;
  outbox: OutboxTable;
  system_message: SystemMessageTable;
  portal_settings: PortalSettingsTable;
  rate_limits: RateLimitsTable;
  signing_keys: SigningKeysTable;
  idp_metadata: IdpMetadataTable;
  authenticators: AuthenticatorsTable;
  push_challenges: PushChallengesTable;
  jobs: JobsTable;
  job_results: JobResultsTable;
  service_tokens: ServiceTokensTable;
  provisioning: ProvisioningTable;
  directory_reports: DirectoryReportsTable;
  grant_history: GrantHistoryTable;
  governance_policies: GovernancePoliciesTable;
  brm_delegations: BrmDelegationsTable;
  governance_notices: GovernanceNoticesTable;
  governance_sweep: GovernanceSweepTable;
  request_routing: RequestRoutingTable;
  review_cycles: ReviewCyclesTable;
  review_campaigns: ReviewCampaignsTable;
  review_items: ReviewItemsTable;
  webauthn_users: WebauthnUsersTable;
  webauthn_credentials: WebauthnCredentialsTable;
  passkey_requirements: PasskeyRequirementsTable;
  activity_reviews: ActivityReviewsTable;
  aup_versions: AupVersionsTable;
  aup_acceptances: AupAcceptancesTable;
  emergency_grants: EmergencyGrantsTable;
  departure_reports: DepartureReportsTable;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type Organization = Selectable<OrganizationsTable>;
