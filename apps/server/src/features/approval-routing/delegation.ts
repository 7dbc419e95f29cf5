import {
  DELEGATION_MAX_DAYS,
  INFOSEC_DELEGATE,
  routingMessages,
  type Delegation,
  type DelegationState,
  type DelegationBody,
} from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Db, Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { INFOSEC_NAME } from '../../identity/approval-routing';
import { addDays, daysBetween, isCalendarDate, localDate, localInstant } from '../../platform/local-time';
import { finishDelegation, startDelegation } from '../../identity/approval-routing-sweep';
import { recordAudit } from '../../identity/audit';
import { brmsSharingOrganizations, openDelegationOf } from '../../store/approval-routing';
import { insertDelegation } from '../../store/delegations';

const nameOf = (p: { given_name: string | null; family_name: string | null; username: string | null }) =>
  `${p.given_name ?? ''} ${p.family_name ?? ''}`.trim() || (p.username ?? '');

/** The calendar date after a YYYY-MM-DD date. */
const MIDNIGHT = { hour: 0, minute: 0, second: 0 };

/** The BRM's open delegation as the page shows it. */
async function openDelegation(
  db: Db | Tx,
  zone: string,
  account: Account,
  now: Date,
): Promise<Delegation | null> {
  const d = await openDelegationOf(db, account.id, now);
  if (!d) return null;
  const startsAt = new Date(d.starts_at);
  return {
    id: d.id,
    delegate: d.delegate_id ?? INFOSEC_DELEGATE,
    delegateName: d.delegate_id === null ? INFOSEC_NAME : nameOf(d),
    from: localDate(startsAt, zone),
    // ends_at is the start of the day after the last one.
    until: localDate(new Date(new Date(d.ends_at).getTime() - 1000), zone),
    reason: d.reason,
    movePending: d.move_pending,
    status: startsAt <= now ? 'active' : 'scheduled',
  };
}

/** GET /api/brm/delegation */
export async function delegationState(ctx: AppContext, account: Account): Promise<DelegationState> {
  const now = ctx.clock.now();
  const choices = await brmsSharingOrganizations(ctx.db, account.id);
  return {
    delegation: await openDelegation(ctx.db, ctx.config.PORTAL_TIME_ZONE, account, now),
    choices: choices.map((c) => ({ id: c.id, name: nameOf(c) })),
    today: localDate(now, ctx.config.PORTAL_TIME_ZONE),
  };
}

/**
 * PUT /api/brm/delegation: replaces the BRM's open delegation. The delegate is a BRM sharing one of
 * its organizations, or the InfoSec team; the period starts today or later and lasts at most 90
 * days. A period that has begun starts at once (mails, pending items moved).
 */
export async function saveDelegation(
  ctx: AppContext,
  account: Account,
  body: DelegationBody & { reason: string; movePending: boolean },
  clientAddress: string,
): Promise<Delegation> {
  const now = ctx.clock.now();
  const zone = ctx.config.PORTAL_TIME_ZONE;
  if (body.delegate === account.id) throw new AppError('badRequest', routingMessages.self);
  if (!isCalendarDate(body.from) || !isCalendarDate(body.until)) {
    throw new AppError('badRequest', routingMessages.badDate);
  }
  if (body.until < body.from) throw new AppError('badRequest', routingMessages.untilBeforeFrom);
  if (body.from < localDate(now, zone)) throw new AppError('badRequest', routingMessages.fromInPast);
  if (daysBetween(body.from, body.until) + 1 > DELEGATION_MAX_DAYS) {
    throw new AppError('badRequest', routingMessages.tooLong);
  }
  // A period starting today starts now: "items submitted afterwards" are those from now on.
  const startsAt = new Date(Math.max(localInstant(body.from, MIDNIGHT, zone).getTime(), now.getTime()));
  const endsAt = localInstant(addDays(body.until, 1), MIDNIGHT, zone);

  const delegateId = body.delegate === INFOSEC_DELEGATE ? null : body.delegate;
  return ctx.db.transaction().execute(async (tx) => {
    let delegateUsername = 'infosec';
    if (delegateId !== null) {
      const delegate = (await brmsSharingOrganizations(tx, account.id)).find((c) => c.id === delegateId);
      if (!delegate) throw new AppError('badRequest', routingMessages.notSharing);
      delegateUsername = delegate.username;
    }
    const actor = { id: account.id, username: account.username };
    const open = await openDelegationOf(tx, account.id, now);
    if (open) await finishDelegation(tx, ctx, { id: open.id, now, reason: 'replaced', actor, clientAddress });
    const id = await insertDelegation(tx, {
      delegatorId: account.id,
      delegateId,
      startsAt,
      endsAt,
      reason: body.reason,
      movePending: body.movePending,
      at: now,
    });
    await recordAudit(tx, {
      action: 'delegation.set',
      outcome: 'success',
      actor,
      target: { id: delegateId, username: delegateUsername },
      clientAddress,
      details: { delegationId: id, from: body.from, until: body.until, movePending: body.movePending },
    });
    await startDelegation(tx, ctx, id, now);
    return (await openDelegation(tx, zone, account, now))!;
  });
}

/** DELETE /api/brm/delegation: "End Now". */
export async function endDelegationNow(
  ctx: AppContext,
  account: Account,
  clientAddress: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (tx) => {
    const open = await openDelegationOf(tx, account.id, now);
    if (!open) throw new AppError('notFound', routingMessages.noDelegation);
    await finishDelegation(tx, ctx, {
      id: open.id,
      now,
      reason: 'endedNow',
      actor: { id: account.id, username: account.username },
      clientAddress,
    });
  });
}
