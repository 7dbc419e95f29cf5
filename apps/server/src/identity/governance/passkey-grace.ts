import type { Tx } from '../../platform/db';
import { findAccountById } from '../../store/accounts';
import { sendNoticeOnce } from '../../store/notices';
import { dropUnrequiredGraces, keylessRequiredVendors, keyStanding } from '../../store/webauthn';
import { beginKeyGrace, keyRequiredMail } from '../mfa/key-policy';
import type { MailSite } from '../mail-templates';
import { outboxRow, siteOf } from './access-expiry';
import { eachRow, type GovernanceStep } from './sweep';

// The grace to add a security key or passkey (GOVERNANCE.md §7.4, §7.7): raising the requirement
// starts it for every account without a key (W3 at the start), and W3 goes once more 7 days
// before it ends. The tier change starts its organization's graces at once (`startKeyGraces`);
// this step starts the rest (a policy edit, a new grant) and sends the reminders.

const DAY_MS = 86_400_000;
/** W3's second mail: this many days before the grace ends. */
export const GRACE_REMINDER_DAYS = 7;

/** One account's grace, in the caller's transaction: started if none is kept, else the reminder once when due. */
async function keepGrace(tx: Tx, site: MailSite, accountId: string, at: Date): Promise<boolean> {
  const account = await findAccountById(tx, accountId);
  const { requirement, keys, graceSince } = await keyStanding(tx, accountId, at);
  if (!account || account.status !== 'active' || !requirement || keys > 0) return false;
  if (!graceSince) {
    await beginKeyGrace(tx, site, account, requirement, at);
    return true;
  }
  const until = new Date(graceSince.getTime() + requirement.graceDays * DAY_MS);
  if (at.getTime() < until.getTime() - GRACE_REMINDER_DAYS * DAY_MS || at >= until) return false;
  return sendNoticeOnce(
    tx,
    {
      kind: 'passkey.grace',
      subjectId: `${accountId}/${graceSince.toISOString()}`,
      milestone: String(GRACE_REMINDER_DAYS),
    },
    at,
    [outboxRow(account.email, keyRequiredMail(site, account, requirement.organizationName, until))],
  );
}

/**
 * The sweep's step: graces no longer required are forgotten (lowering takes effect at once, and a
 * new raise starts a new grace), then every active vendor required to use a key and without one
 * has its grace started or reminded.
 */
export const passkeyGrace: GovernanceStep = {
  name: 'passkey-grace',
  run: async (sweep) => {
    const dropped = await dropUnrequiredGraces(sweep.db, sweep.at);
    const outcome = await eachRow<{ id: string }>(
      sweep,
      'passkey-grace',
      (after, limit) => keylessRequiredVendors(sweep.db, sweep.at, after, limit),
      (tx, row) => keepGrace(tx, siteOf(sweep), row.id, sweep.at),
    );
    return { ...outcome, done: outcome.done + dropped };
  },
};

/**
 * A tier just changed (Administration → Organizations): graces no longer required are forgotten
 * (lowering takes effect at once), and those of the organization's vendors without a key start
 * now, in the change's transaction.
 */
export async function startKeyGraces(
  tx: Tx,
  site: MailSite,
  organizationId: string,
  at: Date,
): Promise<number> {
  await dropUnrequiredGraces(tx, at);
  let started = 0;
  let after: { id: string } | null = null;
  for (;;) {
    const rows = await keylessRequiredVendors(tx, at, after, 500, organizationId);
    for (const row of rows) if (await keepGrace(tx, site, row.id, at)) started += 1;
    if (rows.length < 500) return started;
    after = rows.at(-1) ?? null;
  }
}
