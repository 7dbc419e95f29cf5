import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import type { Db, Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { recordAudits, type AuditEvent } from '../../identity/audit';
import * as sessions from '../../store/sessions';
import { actorOf } from '../../policies/actor';
import * as organization from '../../policies/organization';
import * as vendor from '../../policies/vendor';
import { accountsByEmails, lockAccountsByEmails, setStatusOfAccounts } from '../../store/accounts';
import { grantsOf, managedOrganizations, removeRolesIn } from '../../store/grants';
import { COULD_NOT_PROCESS, resultLine, type AccountOutcome } from './result-lines';

/** Unique emails settled in one transaction: its locks last a few milliseconds. */
export const TERMINATE_BATCH = 250;

/** A Terminate Vendors file: its emails folded, each unique one once in order of first appearance. */
export interface EmailFile {
  /** Every line, lower-cased, in the order given. */
  folded: string[];
  unique: string[];
}

export function emailFile(emails: readonly string[]): EmailFile {
  const folded = emails.map((email) => email.toLowerCase());
  return { folded, unique: [...new Set(folded)] };
}

/** Who terminates: the BRM's account, where the result came from (the audit trail's address). */
export interface TerminateBy {
  actor: Pick<Account, 'id' | 'username' | 'status' | 'type' | 'is_employee_brm' | 'is_admin'>;
  clientAddress: string;
  /** When (the clock's instant): the ended grants' end in grant_history. */
  at: Date;
}

/**
 * Settles a batch of unique emails with a fixed number of statements, whatever its size: the BRM's
 * organizations, the accounts (locked in id order), their roles, then one statement each to remove
 * the roles, terminate the accounts left with none, end their sessions and audit it all. Run in one
 * transaction, every account of the batch ends fully terminated (or stripped of the caller's roles)
 * or, when it rolls back, untouched. With `dryRun` it only reads and says what would happen.
 * Returns the line of each email of the batch.
 */
export async function settleEmails(
  tx: Db | Tx,
  by: TerminateBy,
  emails: readonly string[],
  dryRun: boolean,
): Promise<Map<string, string>> {
  const mine = new Map((await managedOrganizations(tx, by.actor.id)).map((o) => [o.id, o.name]));
  const actor = actorOf(by.actor, mine.keys());
  const accounts = dryRun ? await accountsByEmails(tx, emails) : await lockAccountsByEmails(tx as Tx, emails);
  const held = new Map<string, string[]>();
  for (const grant of await grantsOf(
    tx,
    accounts.map((a) => a.id),
  )) {
    const list = held.get(grant.account_id);
    if (list) list.push(grant.organization_id);
    else held.set(grant.account_id, [grant.organization_id]);
  }
  const isOurs = (id: string) => organization.can(actor, 'terminateVendors', { id });
  const names = (ids: string[]) => ids.map((id) => mine.get(id)!).sort();

  const outcomes = new Map<string, AccountOutcome[]>();
  const stripped: string[] = [];
  const terminated: string[] = [];
  const events: AuditEvent[] = [];
  const who = { id: by.actor.id, username: by.actor.username };
  for (const account of [...accounts].sort((a, b) => a.username.localeCompare(b.username))) {
    const roles = held.get(account.id) ?? [];
    let outcome: AccountOutcome = { kind: 'notYours' };
    // A terminated account, like an employee or another organization's vendor, is not ours to name.
    if (
      account.type === 'vendor' &&
      vendor.can(actor, 'terminate', { status: account.status, organizationIds: roles })
    ) {
      const ours = roles.filter(isOurs);
      const isTerminated = roles.length === ours.length;
      outcome = {
        kind: 'rolesRemoved',
        username: account.username,
        organizations: names(ours),
        terminated: isTerminated,
      };
      stripped.push(account.id);
      const target = { id: account.id, username: account.username };
      for (const organizationId of ours) {
        events.push({
          action: 'role.remove',
          outcome: 'success',
          actor: who,
          target,
          organizationId,
          clientAddress: by.clientAddress,
          details: { requestItemId: null },
        });
      }
      if (isTerminated) {
        terminated.push(account.id);
        events.push({
          action: 'account.terminate',
          outcome: 'success',
          actor: who,
          target,
          clientAddress: by.clientAddress,
          details: { previousStatus: account.status, via: 'terminate-vendors' },
        });
      }
    }
    const list = outcomes.get(account.email);
    if (list) list.push(outcome);
    else outcomes.set(account.email, [outcome]);
  }
  if (!dryRun) {
    const changing = tx as Tx;
    await removeRolesIn(changing, stripped, [...mine.keys()].filter(isOurs), {
      at: by.at,
      endedBy: who.id,
      terminated,
    });
    await setStatusOfAccounts(changing, terminated, 'terminated');
    await sessions.revokeAllOfAccounts(changing, terminated);
    await recordAudits(changing, events);
  }
  return new Map(emails.map((email) => [email, resultLine(outcomes.get(email) ?? [], dryRun)]));
}

/**
 * The lines of a batch that could not be settled: each email alone, in a transaction of its own,
 * so one bad account costs its own line only ('could not be processed; nothing changed').
 */
async function settleOneByOne(
  db: Db,
  by: TerminateBy,
  emails: readonly string[],
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<Map<string, string>> {
  const lines = new Map<string, string>();
  for (const email of emails) {
    try {
      const one = await db.transaction().execute((tx) => settleEmails(tx, by, [email], false));
      lines.set(email, one.get(email)!);
    } catch (error) {
      log.error({ err: error }, 'terminate-vendors: one email failed');
      lines.set(email, COULD_NOT_PROCESS);
    }
  }
  return lines;
}

/**
 * The lines of a whole file, one per email in the order given; an email listed again is handled
 * once (its later lines say so).
 */
export function fileLines(file: EmailFile, lines: ReadonlyMap<string, string>, dryRun: boolean): string[] {
  const seen = new Set<string>();
  return file.folded.map((email) => {
    if (seen.has(email)) return resultLine('duplicate', dryRun);
    seen.add(email);
    return lines.get(email)!;
  });
}

/**
 * Terminate Vendors in one request (the spec's call): for each email, every role the vendor holds
 * in the caller's organizations is removed; an account left with no role is terminated and its
 * sessions end. Batches of {@link TERMINATE_BATCH} unique emails, each one transaction, yielding
 * between them; a batch that fails is retried one email at a time. With `dryRun` nothing changes
 * and the lines say what would happen. Large files go through the job (terminate-job.ts).
 */
export async function terminateVendors(options: {
  ctx: AppContext;
  actor: Account;
  emails: string[];
  dryRun: boolean;
  clientAddress: string;
  log: FastifyBaseLogger;
}): Promise<string[]> {
  const { ctx, dryRun } = options;
  const by: TerminateBy = { actor: options.actor, clientAddress: options.clientAddress, at: ctx.clock.now() };
  const file = emailFile(options.emails);
  const lines = new Map<string, string>();
  for (let i = 0; i < file.unique.length; i += TERMINATE_BATCH) {
    const batch = file.unique.slice(i, i + TERMINATE_BATCH);
    let settled: Map<string, string>;
    if (dryRun) settled = await settleEmails(ctx.db, by, batch, true);
    else {
      try {
        settled = await ctx.db.transaction().execute((tx) => settleEmails(tx, by, batch, false));
      } catch (error) {
        options.log.warn(
          { err: error },
          'terminate-vendors: a batch failed; settling it one email at a time',
        );
        settled = await settleOneByOne(ctx.db, by, batch, options.log);
      }
    }
    for (const [email, line] of settled) lines.set(email, line);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return fileLines(file, lines, dryRun);
}
