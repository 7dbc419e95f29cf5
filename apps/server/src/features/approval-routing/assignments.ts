import { routingMessages, type RoutingOverview } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import { recordAudit } from '../../identity/audit';
import { isEmployeeBrm } from '../../store/account-kinds';
import { findAccountById } from '../../store/accounts';
import {
  allAssignments,
  organizationsWithoutPrimary,
  setAssignmentKind,
  type AssignmentKind,
} from '../../store/approval-routing';
import { findOrganizationById } from '../../store/organizations';

/**
 * PUT /api/admin/people/:id/organizations/:orgId: makes an employee BRM the primary or a backup
 * approver of an organization (assigning it when it was not). Audited as `brm.backup-assign` and
 * `brm.backup-remove` (a backup made primary), or `brm.assign` for a new primary.
 */
export async function changeAssignmentKind(
  ctx: AppContext,
  actor: Account,
  o: { personId: string; organizationId: string; kind: AssignmentKind; clientAddress: string },
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const person = await findAccountById(tx, o.personId);
    if (!person || person.status === 'terminated' || !isEmployeeBrm(person)) {
      throw new AppError('notFound', routingMessages.notBrmOfOrganization);
    }
    const organization = await findOrganizationById(tx, o.organizationId);
    if (!organization) throw new AppError('notFound', 'Organization not found.');
    const before = await setAssignmentKind(tx, {
      accountId: person.id,
      organizationId: organization.id,
      kind: o.kind,
    });
    if (before === o.kind) return;
    const action =
      o.kind === 'backup' ? 'brm.backup-assign' : before === 'backup' ? 'brm.backup-remove' : 'brm.assign';
    await recordAudit(tx, {
      action,
      outcome: 'success',
      actor: { id: actor.id, username: actor.username },
      target: { id: person.id, username: person.username },
      organizationId: organization.id,
      clientAddress: o.clientAddress,
      details: { organization: organization.name, kind: o.kind },
    });
  });
}

/** GET /api/admin/approval-routing */
export async function routingOverview(ctx: AppContext): Promise<RoutingOverview> {
  const assignments = await allAssignments(ctx.db);
  return {
    assignments: assignments.map((a) => ({
      personId: a.account_id,
      organizationId: a.organization_id,
      organization: a.name,
      kind: a.kind,
    })),
    unreachable: await organizationsWithoutPrimary(ctx.db),
  };
}
