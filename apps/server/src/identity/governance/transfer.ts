import type { Config } from '../../config';
import { AppError } from '../../platform/app-error';
import type { Db, Tx } from '../../platform/db';
import { setAssignmentKind } from '../../store/approval-routing';
import * as store from '../../store/departure';
import { countReviewerItems } from '../../store/reviews';
import { deleteAssignment } from '../../store/grants';
import { infosecEmails } from '../approval-routing';
import { recordAudit, recordAudits } from '../audit';
import { insertMails } from '../../store/outbox';
import type { MailSite } from '../mail-templates';
import { outboxRow } from './access-expiry';
import { automaticTransferMail, newSponsorMail, successorMail } from './dormancy-mails';

// BRM departure (GOVERNANCE.md §6.3): Transfer Responsibilities moves a leaving BRM's
// organizations (their assignments, so the pending approvals and extension requests go with them),
// the sponsorships of their vendors' grants and ends their delegations, in one transaction. The
// dry run answers the same counts from the same statements' selections, so it equals the result.

export const INFOSEC_NAME = 'Information Security team';
const nothingLeft = (name: string) => `Nothing is left to transfer for ${name}.`;

/** One organization's successor: an employee BRM, or null for the Information Security team. */
export interface SuccessorChoice {
  organizationId: string;
  successorId: string | null;
  makePrimary: boolean;
}

export interface TransferCounts {
  pendingApprovals: number;
  /** Undecided items of open access reviews the leaving BRM decides (they move with the assignment). */
  openReviewItems: number;
  extensionRequests: number;
  delegations: number;
  vendors: number;
}

export interface TransferOrganization extends Omit<TransferCounts, 'delegations'> {
  organizationId: string;
  organization: string;
  successorId: string | null;
  successor: string;
  makePrimary: boolean;
}

export interface TransferPlan extends TransferCounts {
  personId: string;
  person: string;
  organizations: TransferOrganization[];
}

type PersonRow = { id: string; username: string; given_name: string; family_name: string; email: string };
const nameOf = (p: Pick<PersonRow, 'given_name' | 'family_name' | 'username'>) =>
  `${p.given_name} ${p.family_name}`.trim() || p.username;

/** What a part of the transfer sees of one organization. */
interface OrganizationMove {
  leavingId: string;
  organizationId: string;
  successorId: string | null;
  /** The leaving BRM's assignment to the organization before the transfer. */
  leavingKind: 'primary' | 'backup' | undefined;
}

/**
 * The parts of a transfer per organization: `count` is the dry run, `apply` makes the change and
 * answers what it moved. A capability that holds more of a BRM's work adds its part here.
 */
interface OrganizationPart {
  key: 'pendingApprovals' | 'extensionRequests' | 'vendors' | 'openReviewItems';
  count(db: Db | Tx, move: OrganizationMove): Promise<number>;
  apply(tx: Tx, move: OrganizationMove): Promise<number>;
}

export const organizationParts: readonly OrganizationPart[] = [
  {
    // Pending approvals route by assignment: they move with it (counted, not rewritten).
    key: 'pendingApprovals',
    count: (db, move) => store.countPendingItems(db, move.organizationId, false),
    apply: (tx, move) => store.countPendingItems(tx, move.organizationId, false),
  },
  {
    key: 'extensionRequests',
    count: (db, move) => store.countPendingItems(db, move.organizationId, true),
    apply: (tx, move) => store.countPendingItems(tx, move.organizationId, true),
  },
  {
    key: 'vendors',
    count: async (db, move) => (await store.sponsoredVendors(db, move.organizationId, move.leavingId)).length,
    apply: (tx, move) => store.moveSponsorships(tx, move.organizationId, move.leavingId, move.successorId),
  },
  {
    // Access reviews decide by assignment (primary; backup once escalated): the items move with it.
    key: 'openReviewItems',
    count: (db, move) => countReviewerItems(db, move.organizationId, move.leavingKind),
    apply: (tx, move) => countReviewerItems(tx, move.organizationId, move.leavingKind),
  },
];

/**
 * The transfer as it would run now: one row per organization the person manages, each with its
 * successor (chosen, or the default) and its counts. Refuses a successor who is not an active
 * employee BRM, is the leaving person, or is leaving too.
 */
export async function planTransfer(
  db: Db | Tx,
  personId: string,
  choices: readonly SuccessorChoice[] = [],
  lock = false,
): Promise<TransferPlan & { target: PersonRow }> {
  const leaving = await store.personForTransfer(db, personId, lock);
  if (!leaving || leaving.type !== 'employee' || leaving.status === 'terminated') {
    throw new AppError('notFound', 'Person not found.');
  }
  const assigned = await store.assignedOrganizations(db, personId);
  const chosen = new Map(choices.map((c) => [c.organizationId, c]));
  for (const c of choices) {
    if (!assigned.some((o) => o.id === c.organizationId)) {
      // Moved away meanwhile (another admin's transfer): nothing of it is left to move.
      throw assigned.length === 0
        ? new AppError('conflict', nothingLeft(nameOf(leaving)))
        : new AppError('badRequest', `${nameOf(leaving)} does not manage one of the organizations named.`);
    }
  }
  const organizations: TransferOrganization[] = [];
  for (const org of assigned) {
    const choice = chosen.get(org.id);
    const successorId =
      choice === undefined ? await store.defaultSuccessor(db, personId, org.id) : choice.successorId;
    let successor = INFOSEC_NAME;
    if (successorId !== null) {
      const s = await store.employeeBrm(db, successorId);
      if (!s || s.status !== 'active' || s.id === personId) {
        throw new AppError('badRequest', 'Choose an active BRM other than the person leaving as successor.');
      }
      if (s.leaving_on !== null) {
        throw new AppError(
          'badRequest',
          `${nameOf(s)} is leaving on ${s.leaving_on}; choose another successor`,
        );
      }
      successor = nameOf(s);
    }
    const leavingKind = await store.assignmentKindOf(db, personId, org.id);
    const move = { leavingId: personId, organizationId: org.id, successorId, leavingKind };
    const row: TransferOrganization = {
      organizationId: org.id,
      organization: org.name,
      successorId,
      successor,
      makePrimary: choice?.makePrimary ?? true,
      pendingApprovals: 0,
      openReviewItems: 0,
      extensionRequests: 0,
      vendors: 0,
    };
    for (const part of organizationParts) row[part.key] = await part.count(db, move);
    organizations.push(row);
  }
  const delegations = await store.countOpenDelegations(db, personId);
  return {
    ...totals(organizations, delegations),
    personId,
    person: nameOf(leaving),
    organizations,
    target: leaving,
  };
}

function totals(organizations: readonly TransferOrganization[], delegations: number): TransferCounts {
  const sum = (key: 'pendingApprovals' | 'openReviewItems' | 'extensionRequests' | 'vendors') =>
    organizations.reduce((n, o) => n + o[key], 0);
  return {
    pendingApprovals: sum('pendingApprovals'),
    openReviewItems: sum('openReviewItems'),
    extensionRequests: sum('extensionRequests'),
    delegations,
    vendors: sum('vendors'),
  };
}

export interface TransferRun {
  personId: string;
  choices?: readonly SuccessorChoice[];
  notifyVendors: boolean;
  actor: { id: string | null; username: string };
  at: Date;
  clientAddress?: string;
  site: MailSite;
  /** Run by the sweep on or after the leaving date. */
  automatic?: boolean;
  late?: boolean;
}

/**
 * Applies the transfer in `tx` (the leaving person's row locked first, so two admins transferring
 * at once run one after the other and the second finds nothing left: 409). Answers what moved.
 */
export async function applyTransfer(tx: Tx, run: TransferRun): Promise<TransferPlan> {
  const plan = await planTransfer(tx, run.personId, run.choices, true);
  const { target, ...shown } = plan;
  if (plan.organizations.length === 0 && plan.delegations === 0 && plan.vendors === 0) {
    if (run.automatic) {
      await store.markTransferred(tx, target.id, run.at);
      return shown;
    }
    throw new AppError('conflict', nothingLeft(plan.person));
  }
  const moved: TransferOrganization[] = [];
  for (const org of plan.organizations) {
    const before = await store.assignmentKindOf(tx, target.id, org.organizationId);
    const sponsored = await store.sponsoredVendors(tx, org.organizationId, target.id);
    await deleteAssignment(tx, target.id, org.organizationId);
    if (org.successorId !== null) {
      const current = await store.assignmentKindOf(tx, org.successorId, org.organizationId);
      const kind = org.makePrimary ? 'primary' : (current ?? before ?? 'primary');
      await setAssignmentKind(tx, { accountId: org.successorId, organizationId: org.organizationId, kind });
    }
    const move = {
      leavingId: target.id,
      organizationId: org.organizationId,
      successorId: org.successorId,
      leavingKind: before,
    };
    const done: TransferOrganization = {
      ...org,
      pendingApprovals: 0,
      openReviewItems: 0,
      extensionRequests: 0,
      vendors: 0,
    };
    for (const part of organizationParts) done[part.key] = await part.apply(tx, move);
    moved.push(done);
    await recordAudits(
      tx,
      sponsored.map((v) => ({
        action: 'sponsor.change',
        outcome: 'success' as const,
        actor: run.actor,
        target: { id: v.id, username: v.username },
        organizationId: org.organizationId,
        clientAddress: run.clientAddress,
        details: { from: target.id, to: org.successorId, cause: 'transfer' },
      })),
    );
    if (org.successorId !== null) {
      const successor = await store.employeeBrm(tx, org.successorId);
      if (!successor)
        throw new AppError('badRequest', 'Choose an active BRM other than the person leaving as successor.');
      await insertMails(tx, [
        outboxRow(
          successor.email,
          successorMail(run.site, {
            organization: org.organization,
            from: plan.person,
            pendingApprovals: done.pendingApprovals,
            openReviewItems: done.openReviewItems,
            extensionRequests: done.extensionRequests,
            vendors: done.vendors,
          }),
        ),
        ...sponsored
          .filter((v) => run.notifyVendors && (v.status === 'active' || v.status === 'disabled'))
          .map((v) =>
            outboxRow(
              v.email,
              newSponsorMail(run.site, {
                firstName: v.given_name,
                organization: org.organization,
                sponsor: nameOf(successor),
                sponsorEmail: successor.email,
              }),
            ),
          ),
      ]);
    }
  }
  const delegations = await store.endOpenDelegations(tx, target.id, run.at, 'transfer');
  await store.markTransferred(tx, target.id, run.at);
  const result: TransferPlan = {
    ...totals(moved, delegations),
    personId: target.id,
    person: plan.person,
    organizations: moved,
  };
  await recordAudit(tx, {
    action: 'brm.transfer',
    outcome: 'success',
    actor: run.actor,
    target: { id: target.id, username: target.username },
    clientAddress: run.clientAddress,
    details: {
      to: moved.map((o) => `${o.organizationId}=${o.successorId ?? 'infosec'}`).join(','),
      ...totals(moved, delegations),
      ...(run.automatic ? { automatic: true } : {}),
      ...(run.late ? { late: true } : {}),
    },
  });
  return result;
}

/** Mails InfoSec the result of an automatic transfer (in the transfer's transaction). */
export async function mailAutomaticTransfer(
  tx: Tx,
  config: Pick<Config, 'INFOSEC_EMAIL'>,
  site: MailSite,
  result: TransferPlan,
): Promise<void> {
  const lines = [
    ...result.organizations.map(
      (o) =>
        `${o.organization}: ${o.successor} (${o.pendingApprovals} pending approvals, ${o.openReviewItems} open review items, ${o.extensionRequests} extension requests, ${o.vendors} vendors)`,
    ),
    `${result.delegations} delegations ended.`,
  ];
  const mail = automaticTransferMail(site, { brm: result.person, lines });
  await insertMails(
    tx,
    (await infosecEmails(tx, config)).map((to) => outboxRow(to, mail)),
  );
}
