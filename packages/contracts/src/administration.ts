import { z } from 'zod';
import { calendarDate } from './calendar-date';
import { riskTier } from './governance';
import { pageOf, pageQuery } from './paging';
import { inputText } from './text';
import { multilineText, nameText, personName, plainText } from './text-fields';
import { usernameField } from './username';

/** The texts administration shows, shared by the CLI, the API and the screens. */
export const adminMessages = {
  organizationExists: (name: string) => `An organization named "${name}" already exists.`,
  organizationNotFound: (name: string) => `No organization named "${name}".`,
  organizationIdNotFound: 'Organization not found.',
  domainFormat:
    'An email domain is lower-case letters, digits, dots and hyphens, like vendor.example: no scheme (https://), no @, no path.',
  domainNotOnOrganization: (domain: string) => `The organization has no domain ${domain}.`,
  personNotFound: (username: string) => `No hospital employee with the username "${username}".`,
  personIdNotFound: 'Person not found.',
  notAnEmployee: (username: string) => `"${username}" is a vendor account, not a hospital employee.`,
  usernameTaken: (username: string) => `The username "${username}" is already in use.`,
  unknownBrm: (username: string) => `No BRM with the username "${username}".`,
  lastBrm: (orgs: string[]) =>
    `Assign another BRM first: this would leave ${orgs.join(', ')} without a BRM, and mail for their pending approvals would go nowhere.`,
  lastAdmin: 'This is the only admin: make another person admin first.',
  notYourself: 'You cannot remove your own admin flag or account here.',
  mailNotFound: 'Mail not found.',
  provisioningNotFound: 'No directory change waits with this id.',
  mailNotResendable: 'Only undelivered or undeliverable mail can be resent.',
  badCursor: 'The page cursor is not valid; start from the first page.',
  contractEndInPast: 'The contract end date cannot be in the past.',
  lastChangingAdmin: 'This is the only admin who can make changes: make another person admin first.',
  auditorYourself: 'You cannot make yourself an auditor.',
} as const;

const DOMAIN =
  /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** A domain as typed, trimmed; upper case is accepted and lowered, anything else must already fit. */
export function normalizeDomain(input: string): string | null {
  const domain = input.trim().toLowerCase();
  return DOMAIN.test(domain) ? domain : null;
}

export const organizationDomain = z
  .string()
  .max(253)
  .transform((value, ctx) => {
    const domain = normalizeDomain(value);
    if (!domain) {
      ctx.addIssue({ code: 'custom', message: adminMessages.domainFormat });
      return z.NEVER;
    }
    return domain;
  });

/** An organization's name (its access role's name is derived from it). */
export const organizationName = nameText(200);

export const adminOrganization = z.object({
  id: z.string(),
  name: z.string(),
  roleName: z.string(),
  isActive: z.boolean(),
  domains: z.array(z.string()),
  brms: z.array(z.string()),
  /** Governance (GOVERNANCE.md §2.3): the organization's policy tier. Additive. */
  riskTier: riskTier,
  /** No grant of the organization may end later than this date (YYYY-MM-DD, hospital time). */
  contractEndsOn: z.string().nullable(),
});
export type AdminOrganization = z.infer<typeof adminOrganization>;

/**
 * GET /api/admin/organizations: `filter` alone answers every match (`organizationList`); with any
 * other paging parameter, one page of them (`organizationPage`), sorted by name.
 */
export const organizationListQuery = pageQuery(['name']);
export const organizationList = z.object({ organizations: z.array(adminOrganization) });
export const organizationPage = pageOf(adminOrganization);

export const createOrganizationBody = z.strictObject({
  name: organizationName,
  domains: z.array(organizationDomain).max(50).default([]),
});
export type CreateOrganizationBody = z.input<typeof createOrganizationBody>;

/** Rename, (de)activate, and/or set the risk tier and the contract end date (null: none). */
export const changeOrganizationBody = z.strictObject({
  name: organizationName.optional(),
  isActive: z.boolean().optional(),
  riskTier: riskTier.optional(),
  contractEndsOn: calendarDate.nullable().optional(),
});
export type ChangeOrganizationBody = z.input<typeof changeOrganizationBody>;
/** The change's answer: how many current grants end after a new contract end (shown, never cut silently). */
export const organizationChanged = z.object({
  success: z.literal(true),
  grantsPastContractEnd: z.number().int().min(0),
});
export const addDomainBody = z.strictObject({ domain: organizationDomain });

export const adminPerson = z.object({
  id: z.string(),
  username: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  email: z.string(),
  isEmployeeBrm: z.boolean(),
  isAdmin: z.boolean(),
  /** Governance's read-only auditor (GOVERNANCE.md §2.5). Additive. */
  isAuditor: z.boolean(),
  status: z.string(),
  organizations: z.array(z.string()),
  /** The date a person leaves the hospital (GOVERNANCE.md §6.2), if set. */
  leavingOn: z.string().nullable().optional(),
});
export type AdminPerson = z.infer<typeof adminPerson>;
export const peopleList = z.object({ people: z.array(adminPerson) });
/** GET /api/admin/people?page=&size=&filter=&sort=&direction=: one page (by username unless sorted). */
export const peopleQuery = pageQuery(['username', 'givenName', 'familyName', 'email']);
export const peoplePage = pageOf(adminPerson);

const username = usernameField('A username is required.');

const personFields = {
  givenName: personName,
  familyName: personName,
  email: z.email().max(255),
  isEmployeeBrm: z.boolean(),
  isAdmin: z.boolean(),
  isAuditor: z.boolean(),
  /** Names of the organizations the BRM manages. */
  organizations: z.array(z.string().min(1).max(200)).max(500),
};

export const personBody = z.strictObject({
  username,
  ...personFields,
  isEmployeeBrm: personFields.isEmployeeBrm.default(false),
  isAdmin: personFields.isAdmin.default(false),
  isAuditor: personFields.isAuditor.default(false),
  organizations: personFields.organizations.default([]),
});
export type PersonBody = z.input<typeof personBody>;
/** A change: only the fields given (no defaults, which would silently reset flags). */
export const changePersonBody = z.strictObject(personFields).partial();

export const adminSystemMessage = z.object({
  enabled: z.boolean(),
  loggedInOnly: z.boolean(),
  severity: z.enum(['info', 'success', 'warning', 'danger']),
  title: plainText({ max: 200, required: false }),
  /** Several paragraphs are allowed: line breaks are, other control and invisible characters not. */
  text: multilineText(2000),
  startsAt: z.iso.datetime({ offset: true }).nullable(),
  endsAt: z.iso.datetime({ offset: true }).nullable(),
});
export type AdminSystemMessage = z.infer<typeof adminSystemMessage>;

export const maintenanceState = z.object({
  /** The flag admins switch. */
  maintenance: z.boolean(),
  /** IIQ_MAINTENANCE: on whatever the flag says. */
  forcedBySetting: z.boolean(),
});
export const maintenanceBody = z.strictObject({ maintenance: z.boolean() });

export const adminMail = z.object({
  id: z.string(),
  createdAt: z.string(),
  recipient: z.string(),
  subject: z.string(),
  template: z.string(),
  status: z.enum(['pending', 'undeliverable']),
  attempts: z.number(),
  lastError: z.string().nullable(),
});
export const mailList = z.object({ mails: z.array(adminMail) });
/** GET /api/admin/mail?page=&size=&filter=&sort=&direction=: one page (newest first unless sorted). */
export const mailQuery = pageQuery(['createdAt', 'recipient', 'subject']);
export const mailPage = pageOf(adminMail);

/** A directory change that failed at least once and still waits (IDENTITY_STORE=ldap). */
export const adminProvisioningRow = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** What caused it: role.grant, account.disabled, group.ensure, ... */
  action: z.string(),
  username: z.string().nullable(),
  organization: z.string().nullable(),
  attempts: z.number(),
  nextAttemptAt: z.string(),
  /** The directory's last refusal, or why it could not be reached. */
  lastError: z.string().nullable(),
});
/** One difference a reconciliation found between the portal and the directory (its report's items). */
export const directoryDriftItem = z.object({
  kind: z.enum([
    'unexpectedMember',
    'missingMember',
    'enabledMismatch',
    'missingInDirectory',
    'missingInPortal',
  ]),
  username: z.string().nullable(),
  group: z.string().optional(),
  memberDn: z.string().optional(),
  portal: z.string().optional(),
  directory: z.string().optional(),
});
export type DirectoryDriftItem = z.infer<typeof directoryDriftItem>;
/** The stored report's shape (`directoryStatus.lastReport.report`), for screens that list its items. */
export const directoryDriftReport = z.object({ items: z.array(directoryDriftItem) });

/** The identity store at a glance: its kind, waiting changes, failing ones, the last reconciliation. */
export const directoryStatus = z.object({
  identityStore: z.enum(['builtin', 'ldap']),
  available: z.boolean(),
  pending: z.number(),
  failing: z.array(adminProvisioningRow),
  lastReport: z
    .object({ createdAt: z.string(), drift: z.number(), applied: z.boolean(), report: z.unknown() })
    .nullable(),
});

export const auditOutcome = z.enum(['success', 'failure', 'denied']);
export const auditQuery = z.object({
  /** Matches the actor's or the target's username (the journey's "filter on the vendor"). */
  person: inputText().trim().max(255).optional(),
  actor: inputText().trim().max(255).optional(),
  target: inputText().trim().max(255).optional(),
  organization: inputText().trim().max(200).optional(),
  action: inputText().trim().max(100).optional(),
  outcome: auditOutcome.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.input<typeof auditQuery>;

export const auditEvent = z.object({
  id: z.string(),
  occurredAt: z.string(),
  action: z.string(),
  outcome: auditOutcome,
  actor: z.string(),
  target: z.string(),
  organization: z.string().nullable(),
  clientAddress: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEventView = z.infer<typeof auditEvent>;
export const auditPage = z.object({ events: z.array(auditEvent), nextCursor: z.string().nullable() });
