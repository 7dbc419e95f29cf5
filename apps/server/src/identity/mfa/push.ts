import { createHash, randomBytes } from 'node:crypto';
import { routes } from '@pra/contracts/paths';
import type { AppContext } from '../../platform/app-context';
import { recordFactorChange, type FactorChange } from './factor-change';
import { qrDataUrl } from './totp';
import type { Db, Tx } from '../../platform/db';
import * as factors from '../../store/factors';
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

/**
 * Pairs one more authenticator with the account in the caller's transaction, beside those it has
 * (never replacing one: removing is its own confirmed action). Returns the device key the QR code
 * carries.
 */
export async function pairAuthenticator(tx: Tx, accountId: string, nickname: string): Promise<string> {
  const deviceKey = newDeviceKey();
  await factors.insertAuthenticator(tx, { accountId, nickname, keyHash: hashDeviceKey(deviceKey) });
  return deviceKey;
}

/**
 * The live authenticator a device key belongs to, with its account (active accounts only), and
 * from when it may see the account's passcode (`passcode_from`, in the future while it is recent).
 */
export async function authenticatorByKey(db: Db | Tx, deviceKey: string) {
  if (deviceKey.length < 20 || deviceKey.length > 100) return undefined;
  return factors.authenticatorByKeyHash(db, hashDeviceKey(deviceKey));
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
  const id = await factors.insertPush(ctx.db, {
    accountId: request.account.id,
    purpose: request.purpose,
    clientAddress: request.clientAddress,
    timeoutSeconds: ctx.config.PUSH_TIMEOUT_SECONDS,
  });
  const answer = () => factors.pushAnswer(ctx.db, id);
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
  if (await factors.withdrawPush(ctx.db, id)) return 'timeout';
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
