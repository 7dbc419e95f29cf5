import type { Tx } from '../platform/db';
import { insertMail, insertMails } from './outbox';

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
  const [sent] = await sendLatestDueNotices(tx, [{ series, due }], at, (_, milestone) => mailsFor(milestone));
  return sent?.milestone ?? null;
}

/**
 * sendLatestDueNotice for many series at once (each its own subject), in a statement for the
 * skipped milestones, one for the latest and one for the mails, whatever the number of series.
 * Returns the series whose latest milestone was new (sent now), with that milestone.
 */
export async function sendLatestDueNotices<
  Item extends { series: { kind: string; subjectId: string }; due: readonly string[] },
>(
  tx: Tx,
  items: readonly Item[],
  at: Date,
  mailsFor: (item: Item, milestone: string) => NoticeMail[],
): Promise<{ item: Item; milestone: string }[]> {
  const due = items.filter((item) => item.due.length > 0);
  const skipped = due.flatMap(({ series, due: milestones }) =>
    milestones.slice(0, -1).map((milestone) => ({
      kind: series.kind,
      subject_id: series.subjectId,
      milestone,
      sent_at: at,
      skipped: true,
    })),
  );
  if (skipped.length > 0)
    await tx
      .insertInto('governance_notices')
      .values(skipped)
      .onConflict((oc) => oc.columns(['kind', 'subject_id', 'milestone']).doNothing())
      .execute();
  if (due.length === 0) return [];
  const inserted = await tx
    .insertInto('governance_notices')
    .values(
      due.map(({ series, due: milestones }) => ({
        kind: series.kind,
        subject_id: series.subjectId,
        milestone: milestones.at(-1)!,
        sent_at: at,
      })),
    )
    .onConflict((oc) => oc.columns(['kind', 'subject_id', 'milestone']).doNothing())
    .returning(['kind', 'subject_id'])
    .execute();
  const isNew = new Set(inserted.map((row) => `${row.kind}\n${row.subject_id}`));
  const sent = due
    .filter(({ series }) => isNew.has(`${series.kind}\n${series.subjectId}`))
    .map((item) => ({ item, milestone: item.due.at(-1)! }));
  await insertMails(
    tx,
    sent.flatMap(({ item, milestone }) => mailsFor(item, milestone)),
  );
  return sent;
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
