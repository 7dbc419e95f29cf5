import { sql, type Insertable } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { AuditEventsTable, ServiceTokensTable } from '../platform/db-schema';

// The owner of `service_tokens`: API access for automation (identity/service-tokens.ts). Only a
// token's SHA-256 is stored; it is found by that hash, never by comparing the token itself.

export type NewServiceTokenRow = Insertable<ServiceTokensTable>;

/** How seldom a token's last use is written: at most once a minute per token. */
export const LAST_USED_EVERY_MS = 60_000;

export async function insertServiceToken(tx: Tx, row: NewServiceTokenRow): Promise<string> {
  const { id } = await tx.insertInto('service_tokens').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Every token (newest first), with its admin's username and whether they are still an active admin. */
export async function listServiceTokens(db: Db | Tx) {
  return db
    .selectFrom('service_tokens as t')
    .innerJoin('accounts as o', 'o.id', 't.owner_id')
    .select([
      't.id',
      't.name',
      't.scopes',
      't.created_at',
      't.expires_at',
      't.last_used_at',
      't.revoked_at',
      't.created_by',
      't.revoked_by',
      'o.username as owner_username',
      sql<boolean>`o.type = 'employee' and o.is_admin and o.status = 'active'`.as('owner_is_admin'),
    ])
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(1000)
    .execute();
}

export type ServiceTokenListRow = Awaited<ReturnType<typeof listServiceTokens>>[number];

/** The token with this hash and the account it acts as (whatever their states): one round trip. */
export async function findServiceTokenByHash(db: Db, tokenHash: string) {
  const row = await db
    .selectFrom('service_tokens as t')
    .innerJoin('accounts as a', 'a.id', 't.owner_id')
    .selectAll('a')
    .select([
      't.id as token_id',
      't.name as token_name',
      't.scopes as token_scopes',
      't.expires_at as token_expires_at',
      't.revoked_at as token_revoked_at',
      't.last_used_at as token_last_used_at',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    token_id,
    token_name,
    token_scopes,
    token_expires_at,
    token_revoked_at,
    token_last_used_at,
    ...owner
  } = row;
  return {
    token: {
      id: token_id,
      name: token_name,
      scopes: token_scopes,
      expiresAt: new Date(token_expires_at),
      revokedAt: token_revoked_at,
      lastUsedAt: token_last_used_at ? new Date(token_last_used_at) : null,
    },
    owner,
  };
}

/** One token and its admin's username (for a revocation's audit event). */
export async function findServiceToken(db: Db | Tx, id: string) {
  return db
    .selectFrom('service_tokens as t')
    .innerJoin('accounts as o', 'o.id', 't.owner_id')
    .select(['t.id', 't.name', 't.owner_id', 'o.username as owner_username'])
    .where('t.id', '=', id)
    .executeTakeFirst();
}

/** Revokes a live token; false when it was already revoked (or is gone). */
export async function revokeServiceToken(tx: Tx, id: string, at: Date, by: string): Promise<boolean> {
  const result = await tx
    .updateTable('service_tokens')
    .set({ revoked_at: at, revoked_by: by })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes every live token of an admin (who lost the rights or left); the ones revoked. */
export async function revokeServiceTokensOf(tx: Tx, ownerId: string, at: Date, by: string) {
  return tx
    .updateTable('service_tokens')
    .set({ revoked_at: at, revoked_by: by })
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'name'])
    .execute();
}

/**
 * One use of a token, in one statement: its audit event, and its last use when the one stored is
 * older than a minute (the guarded update writes nothing otherwise, so a busy token costs the
 * audit row alone, and two instances at once write it once).
 */
export async function recordServiceTokenUse(
  db: Db,
  use: { tokenId: string; at: Date; audit: Insertable<AuditEventsTable> },
): Promise<void> {
  const staleBefore = new Date(use.at.getTime() - LAST_USED_EVERY_MS);
  await db
    .with('touched', (qb) =>
      qb
        .updateTable('service_tokens')
        .set({ last_used_at: use.at })
        .where('id', '=', use.tokenId)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
        .returning('id'),
    )
    .insertInto('audit_events')
    .values(use.audit)
    .execute();
}
