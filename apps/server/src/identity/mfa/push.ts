import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { RECENT_FACTOR_HOURS } from '@pra/contracts/authenticator';
import { routes } from '@pra/contracts/paths';
import type { AppContext } from '../../platform/app-context';
import { recordFactorChange, type FactorChange } from './factor-change';
import { qrDataUrl } from './totp';
import type { Db, Tx } from '../../platform/db';
import type { PushOutcome, PushRequest } from './provider';

/** How often a waiting push looks at its row: the answer may come through another instance. */
const POLL_MS = 300;

export function hashDeviceKey(deviceKey: string): string {
  return createHash('sha256').update(`authenticator:${deviceKey}`).digest('base64url');
}

/** A new random device key (256 bits); only its hash is stored. */
export function newDeviceKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The account's newest paired authenticator that still works. */
export async function findLiveAuthenticator(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('authenticators')
    .select(['id', 'nickname'])
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/**
 * Pairs one more authenticator with the account in the caller's transaction, beside those it has
 * (never replacing one: removing is its own confirmed action). Returns the device key the QR code
 * carries.
 */
export async function pairAuthenticator(tx: Tx, accountId: string, nickname: string): Promise<string> {
  const deviceKey = newDeviceKey();
  await tx
    .insertInto('authenticators')
    .values({ account_id: accountId, nickname, key_hash: hashDeviceKey(deviceKey) })
    .execute();
  return deviceKey;
}

/** The SQL test "paired less than RECENT_FACTOR_HOURS ago" for an authenticators row's `created_at`. */
export function isRecentSql(createdAt: string) {
  return sql<boolean>`${sql.ref(createdAt)} > now() - ${`${RECENT_FACTOR_HOURS} hours`}::interval`;
}

/**
 * The live authenticator a device key belongs to, with its account (active accounts only), and
 * from when it may see the account's passcode (`passcode_from`, in the future while it is recent).
 */
export async function authenticatorByKey(db: Db | Tx, deviceKey: string) {
  if (deviceKey.length < 20 || deviceKey.length > 100) return undefined;
  return db
    .selectFrom('authenticators as d')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select(['d.id', 'd.nickname', 'd.account_id', 'a.username', isRecentSql('d.created_at').as('is_recent')])
    .select(sql<Date>`d.created_at + ${`${RECENT_FACTOR_HOURS} hours`}::interval`.as('passcode_from'))
    .where('d.key_hash', '=', hashDeviceKey(deviceKey))
    .where('d.revoked_at', 'is', null)
    .where('a.status', '=', 'active')
    .executeTakeFirst();
}

export async function touchAuthenticator(db: Db | Tx, id: string): Promise<void> {
  await db
    .updateTable('authenticators')
    .set({ last_seen_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/** The account's pushes still waiting for an answer, oldest first. */
export async function pendingPushes(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('push_challenges')
    .select(['id', 'purpose', 'client_address', 'created_at'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('created_at')
    .execute();
}

/** Approves or denies a waiting push of the authenticator's account; false when it no longer waits. */
export async function answerPush(
  db: Db | Tx,
  authenticator: { id: string; account_id: string },
  challengeId: string,
  approve: boolean,
): Promise<boolean> {
  const row = await db
    .updateTable('push_challenges')
    .set({
      status: approve ? 'approved' : 'denied',
      answered_at: sql<Date>`now()`,
      answered_by: authenticator.id,
    })
    .where('id', '=', challengeId)
    .where('account_id', '=', authenticator.account_id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Creates a push challenge and waits for its answer by polling the row (so any instance may
 * receive the phone's answer), up to PUSH_TIMEOUT_SECONDS. An abort or the deadline withdraws it.
 * A password reset approved by a phone paired less than RECENT_FACTOR_HOURS ago is `recentDevice`.
 */
export async function pushAndWait(ctx: AppContext, request: PushRequest): Promise<PushOutcome> {
  const timeoutMs = ctx.config.PUSH_TIMEOUT_SECONDS * 1000;
  const { id } = await ctx.db
    .insertInto('push_challenges')
    .values({
      account_id: request.account.id,
      purpose: request.purpose,
      client_address: request.clientAddress.slice(0, 100),
      expires_at: sql<Date>`now() + ${`${ctx.config.PUSH_TIMEOUT_SECONDS} seconds`}::interval`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const answer = () =>
    ctx.db
      .selectFrom('push_challenges as c')
      .leftJoin('authenticators as d', 'd.id', 'c.answered_by')
      .select(['c.status', isRecentSql('d.created_at').as('is_recent')])
      .where('c.id', '=', id)
      .executeTakeFirst();
  const approved = (row: { is_recent: boolean | null }): PushOutcome =>
    request.purpose === 'reset' && row.is_recent ? 'recentDevice' : 'success';
  const deadline = Date.now() + timeoutMs;
  while (!request.signal.aborted && Date.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), request.signal);
    const row = await answer();
    if (row?.status === 'approved') return approved(row);
    if (row?.status === 'denied') return 'failure';
    if (row?.status === 'cancelled') return 'timeout';
  }
  const withdrawn = await ctx.db
    .updateTable('push_challenges')
    .set({ status: 'cancelled' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  if (withdrawn) return 'timeout';
  // Answered in the last moment: the answer counts.
  const row = await answer();
  return row?.status === 'approved' ? approved(row) : row?.status === 'denied' ? 'failure' : 'timeout';
}

/**
 * The link the QR code carries, the device key in its fragment (browsers never send it to a
 * server), and the QR code itself.
 */
export async function pairingLink(
  ctx: AppContext,
  deviceKey: string,
): Promise<{ pairingUrl: string; qrDataUrl: string }> {
  const pairingUrl = `${ctx.config.publicUrl}${routes.authenticator}#key=${deviceKey}`;
  return { pairingUrl, qrDataUrl: await qrDataUrl(pairingUrl) };
}

/**
 * Pairs one more phone with the account in the caller's transaction, audited and mailed to the
 * owner at once (`recordFactorChange`); returns the device key. Whoever calls it has made sure
 * the owner is there (a confirmation used up in the same transaction, or the sign-in that just
 * enrolled the account's first factor).
 */
export async function pairPhone(
  tx: Tx,
  ctx: AppContext,
  request: Omit<FactorChange, 'change' | 'action' | 'kind'>,
): Promise<string> {
  const deviceKey = await pairAuthenticator(tx, request.account.id, request.nickname);
  await recordFactorChange(tx, ctx, { ...request, change: 'added', action: 'mfa.pair', kind: 'phone' });
  return deviceKey;
}

/** Deletes pushes that ended more than a day ago; run by the housekeeping job. */
export async function prunePushChallenges(db: Db): Promise<void> {
  await db
    .deleteFrom('push_challenges')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
