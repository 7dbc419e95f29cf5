import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { routes } from '@pra/contracts/paths';
import type { AppContext } from '../../platform/app-context';
import { recordAudit } from '../audit';
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
 * Pairs a new authenticator with the account in the caller's transaction, replacing an earlier
 * one (one phone per account). Returns the device key the QR code carries.
 */
export async function pairAuthenticator(tx: Tx, accountId: string, nickname: string): Promise<string> {
  await tx
    .updateTable('authenticators')
    .set({ revoked_at: sql<Date>`now()` })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .execute();
  const deviceKey = newDeviceKey();
  await tx
    .insertInto('authenticators')
    .values({ account_id: accountId, nickname, key_hash: hashDeviceKey(deviceKey) })
    .execute();
  return deviceKey;
}

/** The live authenticator a device key belongs to, with its account (active accounts only). */
export async function authenticatorByKey(db: Db | Tx, deviceKey: string) {
  if (deviceKey.length < 20 || deviceKey.length > 100) return undefined;
  return db
    .selectFrom('authenticators as d')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select(['d.id', 'd.nickname', 'd.account_id', 'a.username'])
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
  const deadline = Date.now() + timeoutMs;
  while (!request.signal.aborted && Date.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), request.signal);
    const row = await ctx.db
      .selectFrom('push_challenges')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst();
    if (row?.status === 'approved') return 'success';
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
  const row = await ctx.db
    .selectFrom('push_challenges')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.status === 'approved' ? 'success' : row?.status === 'denied' ? 'failure' : 'timeout';
}

/**
 * Pairs a phone with the account (audited) and returns the link the QR code carries, the device
 * key in its fragment (browsers never send it to a server), and the QR code itself.
 */
export async function pairPhone(
  ctx: AppContext,
  request: {
    account: { id: string; username: string };
    nickname: string;
    clientAddress: string;
    details?: Record<string, unknown>;
  },
): Promise<{ pairingUrl: string; qrDataUrl: string }> {
  const { account } = request;
  const deviceKey = await ctx.db.transaction().execute(async (tx) => {
    const key = await pairAuthenticator(tx, account.id, request.nickname);
    await recordAudit(tx, {
      action: 'mfa.pair',
      outcome: 'success',
      actor: { id: account.id, username: account.username },
      clientAddress: request.clientAddress,
      details: { nickname: request.nickname, ...request.details },
    });
    return key;
  });
  const pairingUrl = `${ctx.config.publicUrl}${routes.authenticator}#key=${deviceKey}`;
  return { pairingUrl, qrDataUrl: await qrDataUrl(pairingUrl) };
}

/** Deletes pushes that ended more than a day ago; run by the housekeeping job. */
export async function prunePushChallenges(db: Db): Promise<void> {
  await db
    .deleteFrom('push_challenges')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
