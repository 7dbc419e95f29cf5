import type { Tx } from '../platform/db';
import { insertMail } from './outbox';

// The owner of `governance_notices`: which milestone mails (expiry notices, reminders, digests)
// went out, once each. The unique key (kind, subject_id, milestone) is what makes a notice
// idempotent: its mail is queued only when its row is new, in the same transaction.

export interface Notice {
  /** What series the notice belongs to, e.g. `grant.expiry`, `request.reminder`, `digest.brm`. */
  kind: string;
  /** What it is about (a grant, request, account), as text: a composite key may name a series. */
  subjectId: string;
  /** Which step of the series (`14`, `7`, `1`, a date for a daily digest). */
  milestone: string;
}

export interface NoticeMail {
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  template: string;
}

/**
 * Records a notice as sent at `at` and queues its mails, only if it was not recorded before (by
 * this or any instance, sent or skipped). Returns whether it was new.
 */
export async function sendNoticeOnce(
  tx: Tx,
  notice: Notice,
  at: Date,
  mails: NoticeMail[],
): Promise<boolean> {
  const inserted = await tx
    .insertInto('governance_notices')
    .values({ kind: notice.kind, subject_id: notice.subjectId, milestone: notice.milestone, sent_at: at })
    .onConflict((oc) => oc.columns(['kind', 'subject_id', 'milestone']).doNothing())
    .returning('kind')
    .execute();
  if (inserted.length === 0) return false;
  for (const mail of mails) await insertMail(tx, mail);
  return true;
}

/**
 * The catch-up rule (GOVERNANCE.md §2.2): of a subject's milestones that are due, only the latest
 * is sent; the earlier ones not recorded yet are recorded as skipped, so that after downtime
 * nobody gets a "14 days left" mail two days before the end. `due` is in series order (earliest
 * first). Returns the milestone sent, or null when the latest was already recorded.
 */
export async function sendLatestDueNotice(
  tx: Tx,
  series: { kind: string; subjectId: string },
  due: readonly string[],
  at: Date,
  mailsFor: (milestone: string) => NoticeMail[],
): Promise<string | null> {
  const latest = due.at(-1);
  if (latest === undefined) return null;
  const earlier = due.slice(0, -1);
  if (earlier.length > 0) {
    await tx
      .insertInto('governance_notices')
      .values(
        earlier.map((milestone) => ({
          kind: series.kind,
          subject_id: series.subjectId,
          milestone,
          sent_at: at,
          skipped: true,
        })),
      )
      .onConflict((oc) => oc.columns(['kind', 'subject_id', 'milestone']).doNothing())
      .execute();
  }
  const sent = await sendNoticeOnce(tx, { ...series, milestone: latest }, at, mailsFor(latest));
  return sent ? latest : null;
}

/** The milestones of a subject's series already recorded (sent or skipped). */
export async function recordedMilestones(tx: Tx, series: { kind: string; subjectId: string }) {
  return tx
    .selectFrom('governance_notices')
    .select(['milestone', 'sent_at', 'skipped'])
    .where('kind', '=', series.kind)
    .where('subject_id', '=', series.subjectId)
    .execute();
}
