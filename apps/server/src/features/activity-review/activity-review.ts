import {
  activityDigest,
  activityReviewMessages as text,
  periodText,
  type ActivityReviewDetail,
  type ActivityReviewList,
  type ActivityReviewSummary,
} from '@pra/contracts';
import { recordAudit } from '../../identity/audit';
import { AppError } from '../../platform/app-error';
import type { Db } from '../../platform/db';
import { localDate } from '../../platform/local-time';
import * as store from '../../store/activity-reviews';

// Administration → Reports → Activity Review (GOVERNANCE.md §9.2, §9.4): the weekly digests the
// sweep generated (identity/governance/activity-review.ts) and InfoSec's sign-off.

/** Weeks listed: five years of them. */
const LISTED_WEEKS = 260;

const nameOf = (r: store.ActivityReviewRow) =>
  `${r.reviewer_given_name ?? ''} ${r.reviewer_family_name ?? ''}`.trim() || (r.reviewer_username ?? '');

function summaryOf(r: store.ActivityReviewRow, zone: string): ActivityReviewSummary {
  const reviewedAt = r.reviewed_at ? new Date(r.reviewed_at) : null;
  return {
    periodStart: r.period_start,
    periodEnd: r.period_end,
    period: periodText(r.period_start, r.period_end),
    generatedAt: new Date(r.generated_at).toISOString(),
    status: reviewedAt ? 'reviewed' : 'generated',
    total: r.total,
    reviewed: reviewedAt
      ? { name: nameOf(r), on: localDate(reviewedAt, zone), at: reviewedAt.toISOString(), note: r.note ?? '' }
      : null,
  };
}

export async function listReviews(db: Db, zone: string): Promise<ActivityReviewList> {
  const rows = await store.listActivityReviews(db, LISTED_WEEKS);
  return { reviews: rows.map((r) => summaryOf(r, zone)) };
}

export async function reviewOf(db: Db, week: string, zone: string): Promise<ActivityReviewDetail> {
  const row = await store.findActivityReview(db, week);
  if (!row) throw new AppError('notFound', text.notFound);
  return { ...summaryOf(row, zone), digest: activityDigest.parse(row.digest) };
}

/**
 * Mark Reviewed: the note is required; the week is signed off once (the conditional update lets
 * exactly one of two admins through; the other is told who was first). Audited with the note.
 */
export async function signOff(
  db: Db,
  call: {
    actor: { id: string; username: string };
    clientAddress: string;
    week: string;
    note: string;
    at: Date;
    zone: string;
  },
): Promise<void> {
  if (!call.note) throw new AppError('badRequest', text.noteRequired);
  await db.transaction().execute(async (tx) => {
    const signed = await store.signOffActivityReview(tx, call.week, {
      accountId: call.actor.id,
      at: call.at,
      note: call.note,
    });
    if (!signed) {
      const row = await store.findActivityReview(tx, call.week);
      if (!row) throw new AppError('notFound', text.notFound);
      const first = summaryOf(row, call.zone).reviewed;
      throw new AppError('conflict', text.alreadyReviewed(first?.name ?? '', first?.on ?? ''));
    }
    const row = await store.findActivityReview(tx, call.week);
    await recordAudit(tx, {
      action: 'activity-review.sign-off',
      outcome: 'success',
      actor: call.actor,
      clientAddress: call.clientAddress,
      details: { periodStart: call.week, periodEnd: row?.period_end ?? null, note: call.note },
    });
  });
}
