import { sql } from 'kysely';
import { RECENT_FACTOR_HOURS } from '@pra/contracts/authenticator';
import type { Db, Tx } from '../platform/db';
import type { Account, PushChallengesTable } from '../platform/db-schema';

// The owner of the second factors: `mfa_devices` (authenticator apps, TOTP), `authenticators`
// (paired phones) and their `push_challenges`.

/** The query for the account's confirmed TOTP authenticator (the newest), to run or join. */
export function confirmedDeviceQuery(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('mfa_devices')
    .select(['id', 'nickname', 'secret_encrypted', 'last_used_step'])
    .where('account_id', '=', accountId)
    .where('confirmed_at', 'is not', null)
    .orderBy('confirmed_at', 'desc')
    .limit(1);
}

export type ConfirmedDevice = NonNullable<Awaited<ReturnType<typeof findConfirmedDevice>>>;

/** The account's confirmed TOTP authenticator (the newest), if it has one. */
export async function findConfirmedDevice(db: Db | Tx, accountId: string) {
  return confirmedDeviceQuery(db, accountId).executeTakeFirst();
}

/** The same, with whether a paired authenticator can receive pushes (one round trip). */
export async function findDeviceAndPush(db: Db | Tx, accountId: string) {
  return confirmedDeviceQuery(db, accountId)
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('authenticators')
            .select('id')
            .where('account_id', '=', accountId)
            .where('revoked_at', 'is', null),
        )
        .as('can_push'),
    )
    .executeTakeFirst();
}

/**
 * Uses up a time step of the device in a guarded update (only a step after its last used one):
 * single-use even when two instances check it at once. False when another got there first.
 */
export async function claimDeviceStep(db: Db | Tx, deviceId: string, step: number): Promise<boolean> {
  const claimed = await db
    .updateTable('mfa_devices')
    .set({ last_used_step: step })
    .where('id', '=', deviceId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/**
 * The account if it is still active, with its confirmed authenticator if it has one: one round
 * trip.
 */
export async function findActiveAccountAndDevice(
  db: Db,
  accountId: string,
): Promise<{ account: Account; device: ConfirmedDevice | undefined } | null> {
  const row = await db
    .selectFrom('accounts as a')
    .leftJoin(confirmedDeviceQuery(db, accountId).as('d'), (join) => join.onTrue())
    .selectAll('a')
    .select([
      'd.id as device_id',
      'd.nickname as device_nickname',
      'd.secret_encrypted as device_secret_encrypted',
      'd.last_used_step as device_last_used_step',
    ])
    .where('a.id', '=', accountId)
    .where('a.status', '=', 'active')
    .executeTakeFirst();
  if (!row) return null;
  const { device_id, device_nickname, device_secret_encrypted, device_last_used_step, ...account } = row;
  const device =
    device_id === null || device_nickname === null || device_secret_encrypted === null
      ? undefined
      : {
          id: device_id,
          nickname: device_nickname,
          secret_encrypted: device_secret_encrypted,
          last_used_step: device_last_used_step,
        };
  return { account, device };
}

/** Stores a confirmed authenticator app (its seed encrypted), its first step used. */
export async function insertConfirmedDevice(
  tx: Tx,
  device: { accountId: string; nickname: string; secretEncrypted: string; lastUsedStep: number },
): Promise<void> {
  await tx
    .insertInto('mfa_devices')
    .values({
      account_id: device.accountId,
      nickname: device.nickname,
      secret_encrypted: device.secretEncrypted,
      last_used_step: device.lastUsedStep,
      confirmed_at: sql<Date>`now()`,
    })
    .execute();
}

/** The SQL test "paired less than RECENT_FACTOR_HOURS ago" for an authenticators row's `created_at`. */
export function isRecentSql(createdAt: string) {
  return sql<boolean>`${sql.ref(createdAt)} > now() - ${`${RECENT_FACTOR_HOURS} hours`}::interval`;
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

/** The account's live paired phones, oldest first. */
export async function listAuthenticators(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('authenticators')
    .select(['id', 'nickname', 'created_at', isRecentSql('created_at').as('is_recent')])
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

export async function insertAuthenticator(
  tx: Tx,
  authenticator: { accountId: string; nickname: string; keyHash: string },
): Promise<void> {
  await tx
    .insertInto('authenticators')
    .values({
      account_id: authenticator.accountId,
      nickname: authenticator.nickname,
      key_hash: authenticator.keyHash,
    })
    .execute();
}

/**
 * The live authenticator with this key hash, with its account (active accounts only), and from
 * when it may see the account's passcode (`passcode_from`, in the future while it is recent).
 */
export async function authenticatorByKeyHash(db: Db | Tx, keyHash: string) {
  return db
    .selectFrom('authenticators as d')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select(['d.id', 'd.nickname', 'd.account_id', 'a.username', isRecentSql('d.created_at').as('is_recent')])
    .select(sql<Date>`d.created_at + ${`${RECENT_FACTOR_HOURS} hours`}::interval`.as('passcode_from'))
    .where('d.key_hash', '=', keyHash)
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

/** Unpairs one of the account's live phones; its nickname, or undefined when there was none. */
export async function revokeAuthenticator(tx: Tx, accountId: string, id: string) {
  const row = await tx
    .updateTable('authenticators')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .returning('nickname')
    .executeTakeFirst();
  return row?.nickname;
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

/** A push waiting for `timeoutSeconds`; returns its id. */
export async function insertPush(
  db: Db,
  push: {
    accountId: string;
    purpose: PushChallengesTable['purpose'];
    clientAddress: string;
    timeoutSeconds: number;
  },
): Promise<string> {
  const { id } = await db
    .insertInto('push_challenges')
    .values({
      account_id: push.accountId,
      purpose: push.purpose,
      client_address: push.clientAddress.slice(0, 100),
      expires_at: sql<Date>`now() + ${`${push.timeoutSeconds} seconds`}::interval`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A push's status, and whether the phone that answered it was paired recently. */
export async function pushAnswer(db: Db, id: string) {
  return db
    .selectFrom('push_challenges as c')
    .leftJoin('authenticators as d', 'd.id', 'c.answered_by')
    .select(['c.status', isRecentSql('d.created_at').as('is_recent')])
    .where('c.id', '=', id)
    .executeTakeFirst();
}

/** Withdraws a push still waiting; false when it was answered first. */
export async function withdrawPush(db: Db, id: string): Promise<boolean> {
  const withdrawn = await db
    .updateTable('push_challenges')
    .set({ status: 'cancelled' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return withdrawn !== undefined;
}

/** Deletes pushes that ended more than a day ago; run by the housekeeping job. */
export async function prunePushChallenges(db: Db): Promise<void> {
  await db
    .deleteFrom('push_challenges')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}

/** Removes the account's authenticator apps and revokes its paired phones (Reset Sign-in Methods). */
export async function removeAllFactors(tx: Tx, accountId: string, now: Date): Promise<void> {
  await tx.deleteFrom('mfa_devices').where('account_id', '=', accountId).execute();
  await tx
    .updateTable('authenticators')
    .set({ revoked_at: now })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .execute();
}
