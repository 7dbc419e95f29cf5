import { daysLeft, localDate } from '../../platform/local-time';
import type { Tx } from '../../platform/db';
import {
  disableLeftWithoutAccess,
  disabledForNoAccessSince,
  terminateDisabledForNoAccess,
} from '../../store/accounts';
import * as grants from '../../store/grants';
import { cancelPendingForAccount } from '../../store/requests';
import { sendLatestDueNotice, type NoticeMail } from '../../store/notices';
import { insertMails } from '../../store/outbox';
import * as sessions from '../../store/sessions';
import { recordAudit, recordAudits, type AuditEvent } from '../audit';
import { enqueueMail } from '../outbox';
import type { MailContent, MailSite } from '../mail-templates';
import {
  accessEndedMail,
  accessEndingMail,
  accountClosedMail,
  accountDisabledNoAccessMail,
} from './expiry-mails';
import { eachBatch, eachRow, type GovernanceStep, type Sweep } from './sweep';

// Time-limited access (GOVERNANCE.md §3): grants end on time, the account left with no access is
// disabled in the same transaction, notices go out 14/7/1 days before, and 30 days after a
// no-access disable the account is closed.

/** The sweeper acts as `system` in the audit trail (§2.7). */
export const SYSTEM_ACTOR = { id: null, username: 'system' } as const;

const DAY_MS = 86_400_000;

export const siteOf = (sweep: Pick<Sweep, 'config'>): MailSite => ({
  hospitalName: sweep.config.HOSPITAL_NAME,
  publicUrl: sweep.config.publicUrl,
});

export const outboxRow = (to: string, mail: MailContent): NoticeMail => ({
  recipient: to.replace(/[\r\n]/g, ''),
  subject: mail.subject,
  text_body: mail.text,
  html_body: mail.html,
  template: mail.template,
});

/**
 * Ends the grants whose end has come (they move to grant_history) with an audit event and a mail
 * each; the accounts left with no grant are disabled for no access and their sessions end, in the
 * same transaction, with their own event and mail. Set-based: a handful of statements for a whole
 * batch. A grant extended or removed since it was listed is left alone. Returns how many ended.
 */
export async function expireGrants(sweep: Sweep, tx: Tx, keys: readonly grants.GrantKey[]): Promise<number> {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const site = siteOf(sweep);
  const ended = await grants.endDueGrants(tx, keys, { at: sweep.at, dueBy: sweep.at });
  if (ended.length === 0) return 0;
  await recordAudits(
    tx,
    ended.map((grant) => ({
      action: 'grant.expire',
      outcome: 'success' as const,
      actor: SYSTEM_ACTOR,
      target: { id: grant.account_id, username: grant.username },
      organizationId: grant.organization_id,
      details: { expiresAt: new Date(grant.expires_at).toISOString(), sponsorId: grant.sponsor_id },
    })),
  );
  await insertMails(
    tx,
    ended.map((grant) =>
      outboxRow(
        grant.email,
        accessEndedMail(site, {
          firstName: grant.given_name,
          organization: grant.organization,
          endedOn: localDate(new Date(grant.expires_at), zone),
        }),
      ),
    ),
  );
  await disableAccountsLeftWithoutAccess(
    sweep,
    tx,
    ended.map((g) => g.account_id),
  );
  return ended.length;
}

/**
 * Of the accounts, those left with no grant are disabled for no access, their sessions end, each
 * with an audit event and a mail (set-based; in the caller's transaction). Returns their ids.
 */
export async function disableAccountsLeftWithoutAccess(
  sweep: Pick<Sweep, 'config' | 'at' | 'policies'>,
  tx: Tx,
  accountIds: readonly string[],
): Promise<string[]> {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const site = siteOf(sweep);
  const disabled = await disableLeftWithoutAccess(tx, [...new Set(accountIds)], sweep.at);
  const closesOn = localDate(
    new Date(sweep.at.getTime() + sweep.policies.standard.terminateAfterDisableDays * DAY_MS),
    zone,
  );
  await endDisabledAccounts(
    tx,
    disabled.map((a) => ({
      ...a,
      details: { reason: 'noAccess' },
      mail: accountDisabledNoAccessMail(site, { firstName: a.given_name, closesOn }),
    })),
  );
  return disabled.map((a) => a.id);
}

/**
 * Accounts the sweep has just disabled (set-based, in the caller's transaction): their sessions
 * end, and each gets its `account.disable` event (with its details) and its mail.
 */
export async function endDisabledAccounts(
  tx: Tx,
  disabled: readonly {
    id: string;
    username: string;
    email: string;
    details: AuditEvent['details'];
    mail: MailContent;
  }[],
): Promise<void> {
  if (disabled.length === 0) return;
  await sessions.revokeAllOfAccounts(
    tx,
    disabled.map((a) => a.id),
  );
  await recordAudits(
    tx,
    disabled.map((a) => ({
      action: 'account.disable',
      outcome: 'success' as const,
      actor: SYSTEM_ACTOR,
      target: { id: a.id, username: a.username },
      details: a.details,
    })),
  );
  await insertMails(
    tx,
    disabled.map((a) => outboxRow(a.email, a.mail)),
  );
}

/** Steps (1) and (2): end expired grants; disable accounts left with no access. */
export const endExpiredGrants: GovernanceStep = {
  name: 'end-expired-grants',
  run: (sweep) =>
    eachBatch<grants.GrantKey>(
      sweep,
      'end-expired-grants',
      (after, limit) => grants.grantsEnding(sweep.db, { by: sweep.at }, after, limit),
      (tx, rows) => expireGrants(sweep, tx, rows),
    ),
  due: (sweep, until) => grants.countGrantsEndingBy(sweep.db, until),
};

/** The notice series of one grant: a new end date (an extension, a change) starts a new series. */
export function expirySeries(key: grants.GrantKey, endsOn: string) {
  return { kind: 'grant.expiry', subjectId: `${key.account_id}/${key.organization_id}/${endsOn}` };
}

/** Which of the tier's notice days are due with `left` days left, earliest milestone first. */
export function dueNoticeDays(noticeDays: readonly number[], left: number): number[] {
  return [...noticeDays].sort((a, b) => b - a).filter((days) => left <= days);
}

/** Step (3): expiry notices 14, 7 and 1 days before the end, once each, with the catch-up rule. */
export const expiryNotices: GovernanceStep = {
  name: 'expiry-notices',
  run: (sweep) => {
    const zone = sweep.config.PORTAL_TIME_ZONE;
    const widest = Math.max(...Object.values(sweep.policies).flatMap((p) => p.expiryNoticeDays), 0);
    const until = new Date(sweep.at.getTime() + (widest + 1) * DAY_MS);
    return eachRow<grants.GrantKey>(
      sweep,
      'expiry-notices',
      (after, limit) => grants.grantsEnding(sweep.db, { from: sweep.at, by: until }, after, limit),
      async (tx, row) => {
        const details = await grants.grantDetails(tx, row);
        if (!details || details.status !== 'active') return false;
        const end = new Date(details.expires_at);
        if (end <= sweep.at) return false;
        const endsOn = localDate(end, zone);
        const left = daysLeft(sweep.at, end, zone);
        const due = dueNoticeDays(sweep.policies[details.risk_tier].expiryNoticeDays, left);
        const sent = await sendLatestDueNotice(
          tx,
          expirySeries(row, endsOn),
          due.map(String),
          sweep.at,
          () => [
            outboxRow(
              details.email,
              accessEndingMail(siteOf(sweep), {
                firstName: details.given_name,
                organization: details.organization,
                endsOn,
                daysLeft: left,
              }),
            ),
          ],
        );
        return sent !== null;
      },
    );
  },
};

type ClosingAccount = Awaited<ReturnType<typeof disabledForNoAccessSince>>[number];

/** Step (7), for no access: accounts disabled for no access 30 days ago are closed (terminated). */
export const closeAccountsWithoutAccess: GovernanceStep = {
  name: 'close-accounts-without-access',
  run: (sweep) => {
    const cutoff = new Date(sweep.at.getTime() - sweep.policies.standard.terminateAfterDisableDays * DAY_MS);
    return eachRow<ClosingAccount>(
      sweep,
      'close-accounts-without-access',
      (after, limit) => disabledForNoAccessSince(sweep.db, cutoff, after, limit),
      async (tx, row) => {
        if (!(await terminateDisabledForNoAccess(tx, row.id, cutoff, sweep.at))) return false;
        // Its requests still pending (asked before the disable) end with it (§3.3).
        const cancelled = await cancelPendingForAccount(tx, {
          accountId: row.id,
          reason: 'Account closed',
          at: sweep.at,
        });
        await recordAudit(tx, {
          action: 'account.terminate',
          outcome: 'success',
          actor: SYSTEM_ACTOR,
          target: { id: row.id, username: row.username },
          details: { reason: 'noAccess30d', cancelledItems: cancelled },
        });
        await enqueueMail(tx, {
          to: row.email,
          ...accountClosedMail(siteOf(sweep), { firstName: row.given_name }),
        });
        return true;
      },
    );
  },
};
