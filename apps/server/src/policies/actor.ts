import type { Db, Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { isAdmin, isEmployeeBrm, isVendor } from '../store/account-kinds';
import { assignmentsOf, delegationsTo } from '../store/approval-routing';

/**
 * Who acts, as every policy sees it: the kinds of account (contracts' rule), whether it is active,
 * its id. Enough for a policy's query condition (`scopeOf`), which reads the BRM's organizations
 * in the same query.
 */
export interface Principal {
  id: string;
  /** Only an active account acts (the session lookup already treats any other as anonymous). */
  isActive: boolean;
  isVendor: boolean;
  isEmployeeBrm: boolean;
  isAdmin: boolean;
}

/**
 * Another BRM's approvals handed to the actor by an active "Away and Backup" delegation: the
 * delegator's own assignments (one level: never what was delegated to the delegator).
 */
export interface DelegatedRight {
  delegatorId: string;
  delegatorName: string;
  primary: ReadonlySet<string>;
  backup: ReadonlySet<string>;
  startsAt: Date;
  /** "Also move my pending items": items from before the start too. */
  movesPending: boolean;
}

/** The principal with the organizations it manages as a BRM: what `can(actor, …)` decides on. */
export interface Actor extends Principal {
  /** Every organization assigned to it, as primary or backup BRM. */
  managedOrganizationIds: ReadonlySet<string>;
  /** Of those, the ones it backs up: it decides their requests once they are forwarded. */
  backupOrganizationIds: ReadonlySet<string>;
  /** Delegations to it, active now (loaded by `loadDecider` only: deciding requests). */
  delegatedFrom: readonly DelegatedRight[];
}

type ActorAccount = Pick<Account, 'id' | 'status' | 'type' | 'is_employee_brm' | 'is_admin'>;

export function principalOf(account: ActorAccount): Principal {
  return {
    id: account.id,
    isActive: account.status === 'active',
    isVendor: isVendor(account),
    isEmployeeBrm: isEmployeeBrm(account),
    isAdmin: isAdmin(account),
  };
}

/** The actor from its account and the organizations assigned to it as a BRM (`backup`: those it backs up). */
export function actorOf(
  account: ActorAccount,
  managedOrganizationIds: Iterable<string>,
  more: { backup?: Iterable<string>; delegatedFrom?: DelegatedRight[] } = {},
): Actor {
  return {
    ...principalOf(account),
    managedOrganizationIds: new Set(managedOrganizationIds),
    backupOrganizationIds: new Set(more.backup ?? []),
    delegatedFrom: more.delegatedFrom ?? [],
  };
}

/** The actor, its BRM assignments read when it is a BRM (nobody else's count). */
export async function loadActor(db: Db | Tx, account: ActorAccount): Promise<Actor> {
  const principal = principalOf(account);
  const assigned = principal.isEmployeeBrm ? await assignmentsOf(db, account.id) : [];
  return actorOf(
    account,
    assigned.map((a) => a.organization_id),
    { backup: assigned.filter((a) => a.kind === 'backup').map((a) => a.organization_id) },
  );
}

/** The actor as a decider of requests at `now`: with the delegations to it active then. */
export async function loadDecider(db: Db | Tx, account: ActorAccount, now: Date): Promise<Actor> {
  const actor = await loadActor(db, account);
  if (!actor.isEmployeeBrm || !actor.isActive) return actor;
  const rows = await delegationsTo(db, account.id, now);
  const byDelegator = new Map<string, DelegatedRight & { primary: Set<string>; backup: Set<string> }>();
  for (const row of rows) {
    let right = byDelegator.get(row.delegator_id);
    if (!right) {
      right = {
        delegatorId: row.delegator_id,
        delegatorName: `${row.given_name} ${row.family_name}`.trim() || row.username,
        primary: new Set(),
        backup: new Set(),
        startsAt: new Date(row.starts_at),
        movesPending: row.move_pending,
      };
      byDelegator.set(row.delegator_id, right);
    }
    if (row.organization_id) (row.kind === 'backup' ? right.backup : right.primary).add(row.organization_id);
  }
  return { ...actor, delegatedFrom: [...byDelegator.values()] };
}

/** A BRM or an admin: someone who acts for organizations, not for itself. */
export function isManager(actor: Principal): boolean {
  return actor.isActive && (actor.isAdmin || actor.isEmployeeBrm);
}
