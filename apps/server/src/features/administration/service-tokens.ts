import {
  createServiceTokenBody,
  TOKEN_MAX_DAYS,
  tokenMessages,
  type ServiceTokenView,
  type TokenStatus,
} from '@pra/contracts/service-tokens';
import { recordAudit } from '../../identity/audit';
import { newServiceToken } from '../../identity/service-tokens';
import { AppError } from '../../platform/app-error';
import type { Db, Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { isAdmin, isEmployeeBrm } from '../../store/account-kinds';
import {
  findServiceToken,
  insertServiceToken,
  listServiceTokens,
  revokeServiceToken,
  revokeServiceTokensOf,
  type ServiceTokenListRow,
} from '../../store/service-tokens';
import type { Actor } from './actor';
import { valid } from './valid';

/**
 * Service tokens for automation, made, listed and revoked by admins (the API with a session, and
 * the operators' CLI). A token acts as one admin (`owner`): it can never do more than that admin
 * could, and stops working once they are no longer an active admin. The token itself is in the
 * creation's answer only; the audit trail names it by id and name.
 */

const DAY_MS = 24 * 3600_000;

/** A token made or revoked, audited: the admin it acts as is the target, the token named by id and name. */
async function auditToken(
  tx: Tx,
  actor: Actor,
  action: 'service-token.create' | 'service-token.revoke',
  owner: { id: string; username: string },
  details: Record<string, string> & { tokenId: string; tokenName: string },
) {
  await recordAudit(tx, {
    action,
    outcome: 'success',
    actor,
    target: { id: owner.id, username: owner.username },
    clientAddress: actor.clientAddress,
    details,
  });
}

export async function createServiceToken(
  tx: Tx,
  actor: Actor,
  owner: Account,
  input: unknown,
  now: Date,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const body = valid(createServiceTokenBody, input);
  const expiresAt = new Date(body.expiresAt);
  if (expiresAt.getTime() <= now.getTime())
    throw new AppError('badRequest', `expiresAt: ${tokenMessages.expiryPast}`);
  if (expiresAt.getTime() > now.getTime() + TOKEN_MAX_DAYS * DAY_MS)
    throw new AppError('badRequest', `expiresAt: ${tokenMessages.expiryTooFar}`);
  if (owner.status !== 'active' || !isAdmin(owner))
    throw new AppError('badRequest', tokenMessages.ownerMustBeAdmin(owner.username));
  if (body.scopes.includes('vendors:terminate') && !isEmployeeBrm(owner))
    throw new AppError('badRequest', `scopes: ${tokenMessages.terminateNeedsBrm(owner.username)}`);
  const { token, tokenHash } = newServiceToken();
  const id = await insertServiceToken(tx, {
    name: body.name,
    token_hash: tokenHash,
    scopes: body.scopes,
    owner_id: owner.id,
    created_by: actor.username,
    created_at: now,
    expires_at: expiresAt,
  });
  await auditToken(tx, actor, 'service-token.create', owner, {
    tokenId: id,
    tokenName: body.name,
    scopes: body.scopes.join(' '),
    expiresAt: expiresAt.toISOString(),
  });
  return { id, token, expiresAt };
}

export async function revokeToken(tx: Tx, actor: Actor, id: string, now: Date): Promise<void> {
  const found = await findServiceToken(tx, id);
  if (!found) throw new AppError('notFound', tokenMessages.notFound);
  if (!(await revokeServiceToken(tx, id, now, actor.username)))
    throw new AppError('conflict', tokenMessages.alreadyRevoked);
  const owner = { id: found.owner_id, username: found.owner_username };
  await auditToken(tx, actor, 'service-token.revoke', owner, { tokenId: found.id, tokenName: found.name });
}

/**
 * Revokes the live tokens of a person who is no longer an admin (the right removed, or the
 * person removed), each audited: a token never comes back to life when someone is made admin
 * again. (The per-call check already refuses them; this makes it final and visible.)
 */
export async function revokeTokensOfFormerAdmin(tx: Tx, actor: Actor, person: Account, now: Date) {
  const revoked = await revokeServiceTokensOf(tx, person.id, now, actor.username);
  for (const token of revoked) {
    await auditToken(tx, actor, 'service-token.revoke', person, {
      tokenId: token.id,
      tokenName: token.name,
      reason: 'no longer an admin',
    });
  }
}

function statusOf(row: ServiceTokenListRow, now: Date): TokenStatus {
  if (row.revoked_at) return 'revoked';
  if (new Date(row.expires_at).getTime() <= now.getTime()) return 'expired';
  return row.owner_is_admin ? 'active' : 'ownerInactive';
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Every token as the screen and the CLI list it (never the token or its hash). */
export async function listTokens(db: Db | Tx, now: Date): Promise<ServiceTokenView[]> {
  return (await listServiceTokens(db)).map((row) => ({
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    createdBy: row.created_by,
    owner: row.owner_username,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    lastUsedAt: row.last_used_at ? iso(row.last_used_at) : null,
    revokedAt: row.revoked_at ? iso(row.revoked_at) : null,
    revokedBy: row.revoked_by,
    status: statusOf(row, now),
  }));
}
