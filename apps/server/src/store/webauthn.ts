import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';

/** The columns of a stored credential the ceremonies and the profile read. */
const columns = [
  'id',
  'account_id',
  'credential_id',
  'public_key',
  'counter',
  'transports',
  'device_type',
  'backed_up',
  'aaguid',
  'nickname',
  'created_at',
  'last_used_at',
] as const;

export interface StoredCredential {
  id: string;
  account_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
  aaguid: string;
  nickname: string;
  created_at: Date;
  last_used_at: Date | null;
}

/** The account's WebAuthn user handle, made (32 random bytes, base64url) on first use. */
export async function userHandle(db: Db | Tx, accountId: string, fresh: string): Promise<string> {
  await db
    .insertInto('webauthn_users')
    .values({ account_id: accountId, user_handle: fresh })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  const row = await db
    .selectFrom('webauthn_users')
    .select('user_handle')
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.user_handle;
}

/** The account's credentials, oldest first. */
export async function listCredentials(db: Db | Tx, accountId: string): Promise<StoredCredential[]> {
  return db
    .selectFrom('webauthn_credentials')
    .select(columns)
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** How many credentials the account has. */
export async function countCredentials(db: Db | Tx, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('webauthn_credentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A credential by its WebAuthn id, whichever account holds it. */
export async function findByCredentialId(
  db: Db | Tx,
  credentialId: string,
): Promise<StoredCredential | undefined> {
  return db
    .selectFrom('webauthn_credentials')
    .select(columns)
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
}

export interface NewCredential {
  accountId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  aaguid: string;
  nickname: string;
  at: Date;
}

/** Stores a verified credential; undefined when its id is already stored (any account). */
export async function insertCredential(tx: Tx, c: NewCredential): Promise<string | undefined> {
  const row = await tx
    .insertInto('webauthn_credentials')
    .values({
      account_id: c.accountId,
      credential_id: c.credentialId,
      public_key: c.publicKey,
      counter: c.counter,
      transports: c.transports,
      device_type: c.deviceType,
      backed_up: c.backedUp,
      aaguid: c.aaguid,
      nickname: c.nickname,
      created_at: c.at,
    })
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * Records a use: the new counter, the backup flag and the time. Only when the stored counter is
 * still below the new one (or both are 0, as synced passkeys report), so that two uses racing
 * with one counter value cannot both pass. False: the counter did not go up.
 */
export async function recordUse(
  db: Db | Tx,
  id: string,
  use: { counter: number; backedUp: boolean; at: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('webauthn_credentials')
    .set({ counter: use.counter, backed_up: use.backedUp, last_used_at: use.at })
    .where('id', '=', id)
    .where('counter', use.counter > 0 ? '<' : '=', use.counter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Renames one of the account's credentials; false when it has no such credential. */
export async function renameCredential(db: Db | Tx, accountId: string, id: string, nickname: string) {
  const result = await db
    .updateTable('webauthn_credentials')
    .set({ nickname })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes one of the account's credentials, returning it; undefined when there is none. */
export async function deleteCredential(tx: Tx, accountId: string, id: string) {
  return tx
    .deleteFrom('webauthn_credentials')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning(['id', 'nickname', 'credential_id'])
    .executeTakeFirst();
}

/** The organization that makes the account sign in phishing-resistantly, and its tier's grace. */
export interface KeyRequirement {
  organizationName: string;
  /** Days to add a key once the requirement is raised (the tier's `passkeyGraceDays`, else 30). */
  graceDays: number;
}

/**
 * The first (by name) organization where the account holds a current grant whose risk tier's
 * policy requires phishing-resistant sign-in (`signInStrength: 'phishingResistant'`), or null.
 */
export async function keyRequirement(
  db: Db | Tx,
  accountId: string,
  now: Date,
): Promise<KeyRequirement | null> {
  const { rows } = await sql<{ name: string; grace_days: string | null }>`
    select o.name, p.settings ->> 'passkeyGraceDays' as grace_days
      from role_grants g
      join organizations o on o.id = g.organization_id
      join governance_policies p on p.tier = o.risk_tier
     where g.account_id = ${accountId}
       and g.expires_at > ${now}
       and p.settings ->> 'signInStrength' = 'phishingResistant'
     order by o.name
     limit 1`.execute(db);
  const row = rows[0];
  if (!row) return null;
  const days = Number(row.grace_days);
  return { organizationName: row.name, graceDays: row.grace_days !== null && days >= 0 ? days : 30 };
}

/**
 * In one statement: the account's key requirement (as `keyRequirement`), how many keys it has and
 * whether a grace row is kept for it (so a sign-in that finds nothing required deletes nothing).
 */
export async function keyStanding(
  db: Db | Tx,
  accountId: string,
  now: Date,
): Promise<{ requirement: KeyRequirement | null; keys: number; graceKept: boolean }> {
  const { rows } = await sql<{
    name: string | null;
    grace_days: string | null;
    keys: number;
    grace_kept: boolean;
  }>`
    select r.name, r.grace_days,
           (select count(*)::int from webauthn_credentials w where w.account_id = ${accountId}) as keys,
           exists (select 1 from passkey_requirements q where q.account_id = ${accountId}) as grace_kept
      from (select 1) as one
      left join lateral (
        select o.name, p.settings ->> 'passkeyGraceDays' as grace_days
          from role_grants g
          join organizations o on o.id = g.organization_id
          join governance_policies p on p.tier = o.risk_tier
         where g.account_id = ${accountId}
           and g.expires_at > ${now}
           and p.settings ->> 'signInStrength' = 'phishingResistant'
         order by o.name
         limit 1) as r on true`.execute(db);
  const row = rows[0];
  const keys = Number(row?.keys ?? 0);
  const graceKept = Boolean(row?.grace_kept);
  if (!row || row.name === null) return { requirement: null, keys, graceKept };
  const days = Number(row.grace_days);
  return {
    requirement: { organizationName: row.name, graceDays: row.grace_days !== null && days >= 0 ? days : 30 },
    keys,
    graceKept,
  };
}

/**
 * Whether an organization where the account holds a current grant has a risk tier whose policy
 * requires phishing-resistant sign-in (`signInStrength: 'phishingResistant'`).
 */
export async function requiresPhishingResistant(db: Db | Tx, accountId: string, now: Date): Promise<boolean> {
  return (await keyRequirement(db, accountId, now)) !== null;
}

/**
 * When the account's grace to add a key started: the first time asked while required (`now` is
 * then stored and `started` is true). With `required` false the row goes (the requirement dropped).
 */
export async function graceStart(
  db: Db | Tx,
  accountId: string,
  required: boolean,
  now: Date,
): Promise<{ since: Date; started: boolean } | null> {
  if (!required) {
    await db.deleteFrom('passkey_requirements').where('account_id', '=', accountId).execute();
    return null;
  }
  const inserted = await db
    .insertInto('passkey_requirements')
    .values({ account_id: accountId, since: now })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .returning('since')
    .executeTakeFirst();
  if (inserted) return { since: inserted.since, started: true };
  const row = await db
    .selectFrom('passkey_requirements')
    .select('since')
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { since: row.since, started: false };
}

/** Removes every security key and passkey of the account (Reset Sign-in Methods); how many went. */
export async function removeAllCredentials(tx: Tx, accountId: string): Promise<number> {
  const result = await tx
    .deleteFrom('webauthn_credentials')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Per username: whether the account has a security key or passkey, and a confirmed authenticator app. */
export async function factorsOfUsernames(
  db: Db | Tx,
  usernames: readonly string[],
): Promise<{ username: string; has_key: boolean; has_app: boolean }[]> {
  if (usernames.length === 0) return [];
  const { rows } = await sql<{ username: string; has_key: boolean; has_app: boolean }>`
    select a.username,
           exists (select 1 from webauthn_credentials w where w.account_id = a.id) as has_key,
           exists (select 1 from mfa_devices d where d.account_id = a.id and d.confirmed_at is not null) as has_app
      from accounts a
     where a.username in (${sql.join(usernames)})`.execute(db);
  return rows;
}
