import type { Config } from '../config';
import type { Db, Tx } from '../platform/db';
import { addRouting } from '../store/approval-routing';
import { approversOf, itemDeadlines, uniqueRecipients } from './approval-routing';

/**
 * Whom to mail about a new request item (a registration, an access request): its organization's
 * active primary BRMs and their active delegates, or — when it has none — the Information Security
 * team, so that no request waits unseen; the item's routing history records them. (Who may decide
 * is the request policy's: policies/request.ts.)
 */
export async function routeToDeciders(
  tx: Tx,
  config: Pick<Config, 'INFOSEC_EMAIL'>,
  item: { id: string; organizationId: string },
  now: Date,
): Promise<string[]> {
  const a = await approversOf(
    tx,
    config,
    { organizationId: item.organizationId, createdAt: now, forwarded: false },
    now,
  );
  const to = uniqueRecipients(a.primary, a.delegates);
  await addRouting(tx, [
    { itemId: item.id, at: now, event: 'sent', recipients: [...new Set(to.map((r) => r.name))] },
  ]);
  return to.map((r) => r.email);
}

/** The clock's now and each organization's decision deadline, for a request submitted now. */
export async function submission(
  db: Db | Tx,
  ctx: { config: Pick<Config, 'PORTAL_TIME_ZONE'>; clock: { now(): Date } },
  organizationIds: readonly string[],
): Promise<{ now: Date; deadlines: Map<string, Date> }> {
  const now = ctx.clock.now();
  return { now, deadlines: await itemDeadlines(db, organizationIds, now, ctx.config.PORTAL_TIME_ZONE) };
}
