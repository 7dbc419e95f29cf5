import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { setAccountStatus } from '../../store/accounts';
import { recordAudit } from '../../identity/audit';
import { removeRole } from '../../identity/roles';
import * as sessions from '../../store/sessions';
import type { Account, AccountStatus } from '../../platform/db-schema';
import { actorOf, type Actor } from '../../policies/actor';
import * as organization from '../../policies/organization';
import * as vendor from '../../policies/vendor';
import { accountsByEmails, lockAccount } from '../../store/accounts';
import { grantsOf, managedOrganizations } from '../../store/grants';
import { resultLine, type AccountOutcome } from './result-lines';

interface Candidate {
  id: string;
  username: string;
  type: 'vendor' | 'employee';
  status: AccountStatus;
}

/**
 * Terminate Vendors: for each email, every role the vendor holds in the caller's organizations is
 * removed; an account left with no role is terminated and its sessions end. Each account is its
 * own transaction (a failure costs that line only); one result line per email, in the order given,
 * duplicates (case-insensitive) handled once. With `dryRun` nothing changes and the lines say
 * what would happen.
 */
export async function terminateVendors(options: {
  ctx: AppContext;
  actor: Account;
  emails: string[];
  dryRun: boolean;
  clientAddress: string;
  log: FastifyBaseLogger;
}): Promise<string[]> {
  const { ctx, actor, dryRun } = options;
  const mine = new Map((await managedOrganizations(ctx.db, actor.id)).map((o) => [o.id, o.name]));
  const by = actorOf(actor, mine.keys());
  const folded = options.emails.map((email) => email.toLowerCase());
  const unique = [...new Set(folded)];
  // One look-up for the whole file: most lines of a big file need no transaction at all.
  const accounts = await accountsByEmails(ctx.db, unique);
  const grants = await grantsOf(
    ctx.db,
    accounts.map((a) => a.id),
  );
  const byEmail = groupBy(accounts, (a) => a.email);
  const grantsByAccount = groupBy(grants, (g) => g.account_id);

  // Accounts are settled a few at a time on PostgreSQL (each in its own transaction, on its own
  // connection, leaving most of the pool to other requests); PGlite has one connection.
  const parallel = ctx.dbKind === 'postgres' ? Math.max(1, Math.floor(ctx.config.DATABASE_POOL_SIZE / 3)) : 1;
  const lines = new Map<string, string>();
  await eachLimited(unique, parallel, async (email) => {
    const outcomes: AccountOutcome[] = [];
    for (const account of byEmail.get(email) ?? []) {
      const held = (grantsByAccount.get(account.id) ?? []).map((g) => g.organization_id);
      outcomes.push(await settle(options, account, { by, held, names: mine }));
    }
    lines.set(email, resultLine(outcomes, dryRun));
  });
  const seen = new Set<string>();
  return folded.map((email) => {
    if (seen.has(email)) return resultLine('duplicate', dryRun);
    seen.add(email);
    return lines.get(email)!;
  });
}

/** One account: what the look-up says for a dry run; otherwise its own transaction, re-checked under lock. */
async function settle(
  options: {
    ctx: AppContext;
    actor: Account;
    dryRun: boolean;
    clientAddress: string;
    log: FastifyBaseLogger;
  },
  account: Candidate,
  roles: { by: Actor; held: string[]; names: Map<string, string> },
): Promise<AccountOutcome> {
  const { username } = account;
  // A terminated account, like an employee or another organization's vendor, is not ours to name.
  const terminable = (status: AccountStatus, organizationIds: string[]) =>
    vendor.can(roles.by, 'terminate', { status, organizationIds });
  const isOurs = (id: string) => organization.can(roles.by, 'terminateVendors', { id });
  if (account.type !== 'vendor' || !terminable(account.status, roles.held)) {
    return { kind: 'notYours' };
  }
  const organizations = (ids: string[]) => ids.map((id) => roles.names.get(id)!).sort();
  if (options.dryRun) {
    return {
      kind: 'rolesRemoved',
      username,
      organizations: organizations(roles.held.filter(isOurs)),
      terminated: roles.held.every(isOurs),
    };
  }
  const { ctx, actor, clientAddress } = options;
  const by = { id: actor.id, username: actor.username };
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const locked = await lockAccount(tx, account.id);
      const held = (await grantsOf(tx, [account.id])).map((g) => g.organization_id);
      if (!locked || !terminable(locked.status, held)) return { kind: 'notYours' } as const;
      const ours = held.filter(isOurs);
      const target = { id: locked.id, username: locked.username };
      for (const organizationId of ours) {
        await removeRole(tx, {
          actor: by,
          account: target,
          organizationId,
          requestItemId: null,
          clientAddress,
          at: ctx.clock.now(),
          reason: held.length === ours.length ? 'terminated' : 'removed',
        });
      }
      const terminated = held.length === ours.length;
      if (terminated) {
        await setAccountStatus(tx, locked.id, 'terminated');
        await sessions.revokeAllOf(tx, locked.id);
        await recordAudit(tx, {
          action: 'account.terminate',
          outcome: 'success',
          actor: by,
          target,
          clientAddress,
          details: { previousStatus: locked.status, via: 'terminate-vendors' },
        });
      }
      return { kind: 'rolesRemoved', username, organizations: organizations(ours), terminated } as const;
    });
  } catch (error) {
    options.log.error({ err: error, accountId: account.id }, 'terminate-vendors: one account failed');
    return { kind: 'failed', username };
  }
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/** Runs `work` on every item, at most `limit` at once. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
