import { daysLeft, localDate } from '../../platform/local-time';
import type { Tx } from '../../platform/db';
import {
  disableForNoAccess,
  disabledForNoAccessSince,
  terminateDisabledForNoAccess,
} from '../../store/accounts';
import * as grants from '../../store/grants';
import { sendLatestDueNotice, type NoticeMail } from '../../store/notices';
import * as sessions from '../../store/sessions';
import { recordAudit } from '../audit';
import { enqueueMail } from '../outbox';
import type { MailContent, MailSite } from '../mail-templates';
import {
  accessEndedMail,
  accessEndingMail,
  accountClosedMail,
  accountDisabledNoAccessMail,
} from './expiry-mails';
import { eachRow, type GovernanceStep, type Sweep } from './sweep';

// Time-limited access (GOVERNANCE.md §3): grants end on time, the account left with no access is
// disabled in the same transaction, notices go out 14/7/1 days before, and 30 days after a
// no-access disable the account is closed.

/** The sweeper acts as `system` in the audit trail (§2.7). */
export const SYSTEM_ACTOR = { id: null, username: 'system' } as const;

const DAY_MS = 86_400_000;

export const siteOf = (sweep: Sweep): MailSite => ({
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
 * Ends one grant whose end has come (it moves to grant_history) with its audit event and mail;
 * when it was the account's last, the account is disabled for no access and its sessions end, in
 * the same transaction. False: the grant was extended or removed since it was listed.
 */
export async function expireGrant(sweep: Sweep, tx: Tx, key: grants.GrantKey): Promise<boolean> {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const details = await grants.grantDetails(tx, key);
  const ended = await grants.endGrant(tx, {
    ...key,
    at: sweep.at,
    reason: 'expired',
    endedBy: null,
    dueBy: sweep.at,
  });
  if (!ended || !details) return false;
  const target = { id: details.account_id, username: details.username };
  await recordAudit(tx, {
    action: 'grant.expire',
    outcome: 'success',
    actor: SYSTEM_ACTOR,
    target,
    organizationId: key.organization_id,
    details: { expiresAt: new Date(ended.expires_at).toISOString(), sponsorId: ended.sponsor_id },
  });
  const site = siteOf(sweep);
  await enqueueMail(tx, {
    to: details.email,
    ...accessEndedMail(site, {
      firstName: details.given_name,
      organization: details.organization,
      endedOn: localDate(new Date(ended.expires_at), zone),
    }),
  });
  if (
    (await grants.countGrantsOf(tx, key.account_id)) === 0 &&
    (await disableForNoAccess(tx, key.account_id, sweep.at))
  ) {
    await sessions.revokeAllOf(tx, key.account_id);
    await recordAudit(tx, {
      action: 'account.disable',
      outcome: 'success',
      actor: SYSTEM_ACTOR,
      target,
      details: { reason: 'noAccess' },
    });
    const closeAfter = sweep.policies.standard.terminateAfterDisableDays;
    await enqueueMail(tx, {
      to: details.email,
      ...accountDisabledNoAccessMail(site, {
        firstName: details.given_name,
        closesOn: localDate(new Date(sweep.at.getTime() + closeAfter * DAY_MS), zone),
      }),
    });
  }
  return true;
}

/** Steps (1) and (2): end expired grants; disable accounts left with no access. */
export const endExpiredGrants: GovernanceStep = {
  name: 'end-expired-grants',
  run: (sweep) =>
    eachRow<grants.GrantKey>(
      sweep,
      'end-expired-grants',
      (after, limit) => grants.grantsEnding(sweep.db, { by: sweep.at }, after, limit),
      (tx, row) => expireGrant(sweep, tx, row),
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
        await recordAudit(tx, {
          action: 'account.terminate',
          outcome: 'success',
          actor: SYSTEM_ACTOR,
          target: { id: row.id, username: row.username },
          details: { reason: 'noAccess30d' },
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
