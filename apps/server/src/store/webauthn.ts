import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import { usernameIn } from './username-match';

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
    ${requirementQuery(accountId, now)}`.execute(db);
  const row = rows[0];
  return row ? asRequirement(row.name, row.grace_days) : null;
}

/** The first (by name) organization whose current grant requires a key, and its grace days. */
function requirementQuery(accountId: string, now: Date) {
  return sql`
    select o.name, p.settings ->> 'passkeyGraceDays' as grace_days
      from role_grants g
      join organizations o on o.id = g.organization_id
      join governance_policies p on p.tier = o.risk_tier
     where g.account_id = ${accountId}
       and g.expires_at > ${now}
       and p.settings ->> 'signInStrength' = 'phishingResistant'
     order by o.name
     limit 1`;
}

/** A requirement's row as a KeyRequirement: the policy's grace days, else 30. */
function asRequirement(organizationName: string, graceDays: string | null): KeyRequirement {
  const days = Number(graceDays);
  return { organizationName, graceDays: graceDays !== null && days >= 0 ? days : 30 };
}

/**
 * In one statement: the account's key requirement (as `keyRequirement`), how many keys it has and
 * whether a grace row is kept for it (so a sign-in that finds nothing required deletes nothing).
 */
export async function keyStanding(
  db: Db | Tx,
  accountId: string,
  now: Date,
): Promise<{
  requirement: KeyRequirement | null;
  keys: number;
  graceKept: boolean;
  /** When the kept grace started (null: none kept). */
  graceSince: Date | null;
}> {
  const { rows } = await sql<{
    name: string | null;
    grace_days: string | null;
    keys: number;
    grace_since: Date | string | null;
  }>`
    select r.name, r.grace_days,
           (select count(*)::int from webauthn_credentials w where w.account_id = ${accountId}) as keys,
           (select q.since from passkey_requirements q where q.account_id = ${accountId}) as grace_since
      from (select 1) as one
      left join lateral (${requirementQuery(accountId, now)}) as r on true`.execute(db);
  const row = rows[0];
  const keys = Number(row?.keys ?? 0);
  const graceSince = row?.grace_since ? new Date(row.grace_since) : null;
  const graceKept = graceSince !== null;
  if (!row || row.name === null) return { requirement: null, keys, graceKept, graceSince };
  return { requirement: asRequirement(row.name, row.grace_days), keys, graceKept, graceSince };
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

/**
 * Per username: whether the account has a security key or passkey, a confirmed authenticator app,
 * and whether an organization where it holds a current grant requires phishing-resistant sign-in.
 */
export async function factorsOfUsernames(
  db: Db | Tx,
  usernames: readonly string[],
  now: Date,
): Promise<{ username: string; has_key: boolean; has_app: boolean; key_required: boolean }[]> {
  if (usernames.length === 0) return [];
  const { rows } = await sql<{ username: string; has_key: boolean; has_app: boolean; key_required: boolean }>`
    select a.username,
           exists (select 1 from webauthn_credentials w where w.account_id = a.id) as has_key,
           exists (select 1 from mfa_devices d where d.account_id = a.id and d.confirmed_at is not null) as has_app,
           exists (
             select 1
               from role_grants g
               join organizations o on o.id = g.organization_id
               join governance_policies p on p.tier = o.risk_tier
              where g.account_id = a.id
                and g.expires_at > ${now}
                and p.settings ->> 'signInStrength' = 'phishingResistant') as key_required
      from accounts a
     where ${usernameIn('a.username', usernames)}`.execute(db);
  return rows;
}

/**
 * Per organization with active vendors holding a current grant: how many, and how many of them
 * have a security key or passkey (the auditor's sign-in strength report).
 */
export async function signInStrengthByOrganization(db: Db | Tx, now: Date) {
  const { rows } = await sql<{
    id: string;
    name: string;
    risk_tier: 'standard' | 'high';
    vendors: number;
    with_key: number;
  }>`
    select o.id, o.name, o.risk_tier,
           count(distinct a.id)::int as vendors,
           count(distinct a.id) filter (
             where exists (select 1 from webauthn_credentials w where w.account_id = a.id)
           )::int as with_key
      from organizations o
      join role_grants g on g.organization_id = o.id and g.expires_at > ${now}
      join accounts a on a.id = g.account_id and a.type = 'vendor' and a.status = 'active'
     group by o.id, o.name, o.risk_tier
     order by o.name`.execute(db);
  return rows;
}

/**
 * Active vendors an organization requires to sign in phishing-resistantly (a current grant where
 * the tier's policy says so) that have no security key or passkey, after `after` by id (the grace
 * sweep's batches); with `organizationId`, only that organization's (a tier just raised).
 */
export async function keylessRequiredVendors(
  db: Db | Tx,
  now: Date,
  after: { id: string } | null,
  limit: number,
  organizationId?: string,
): Promise<{ id: string }[]> {
  const { rows } = await sql<{ id: string }>`
    select a.id
      from accounts a
     where a.type = 'vendor'
       and a.status = 'active'
       and ${after ? sql`a.id > ${after.id}` : sql`true`}
       and not exists (select 1 from webauthn_credentials w where w.account_id = a.id)
       and exists (
         select 1
           from role_grants g
           join organizations o on o.id = g.organization_id
           join governance_policies p on p.tier = o.risk_tier
          where g.account_id = a.id
            and g.expires_at > ${now}
            and p.settings ->> 'signInStrength' = 'phishingResistant'
            and ${organizationId ? sql`o.id = ${organizationId}` : sql`true`})
     order by a.id
     limit ${limit}`.execute(db);
  return rows;
}

/**
 * Forgets the graces of accounts no organization requires to use a key any more (a lowered tier or
 * policy, an ended grant), so that raising it again starts a new one. How many went.
 */
export async function dropUnrequiredGraces(db: Db | Tx, now: Date): Promise<number> {
  const result = await sql`
    delete from passkey_requirements q
     where not exists (
       select 1
         from role_grants g
         join organizations o on o.id = g.organization_id
         join governance_policies p on p.tier = o.risk_tier
        where g.account_id = q.account_id
          and g.expires_at > ${now}
          and p.settings ->> 'signInStrength' = 'phishingResistant')`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
