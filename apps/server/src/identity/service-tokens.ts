import { hash, randomBytes } from 'node:crypto';
import { SERVICE_TOKEN_PREFIX, tokenMessages } from '@pra/contracts/service-tokens';
import type { Db } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { isAdmin } from '../store/account-kinds';
import { findServiceTokenByHash } from '../store/service-tokens';

/**
 * Service tokens for automation: `pra_` and 32 random bytes (base64url), so a leaked one is
 * recognisable (secret scanners, log searches) and cannot be guessed. The portal keeps only its
 * SHA-256 and finds it by that hash: the token itself is never stored, compared as text, logged
 * or audited (events name the token by id and name).
 */

const TOKEN_BYTES = 32;
/** The shape of a token: anything else is refused before any lookup. */
const TOKEN_PATTERN = /^pra_[A-Za-z0-9_-]{43}$/;

/** A new token and the hash to store. */
export function newServiceToken(): { token: string; tokenHash: string } {
  const token = `${SERVICE_TOKEN_PREFIX}${randomBytes(TOKEN_BYTES).toString('base64url')}`;
  return { token, tokenHash: hashServiceToken(token) };
}

export function hashServiceToken(token: string): string {
  return hash('sha256', token, 'base64url');
}

/**
 * The credentials of an `Authorization: Bearer <token>` header: the token ('' when the header
 * names the scheme without one), or null when the request carries no bearer credentials (no
 * header, or another scheme).
 */
export function bearerCredentials(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^bearer(?:[ \t]+(.*))?$/i.exec(authorization.trim());
  return match ? (match[1] ?? '').trim() : null;
}

export interface ServiceTokenPrincipal {
  id: string;
  name: string;
  scopes: string[];
  lastUsedAt: Date | null;
}

export type TokenRefusal = 'invalid' | 'revoked' | 'expired' | 'ownerNotAdmin';

export type Authenticated =
  | { ok: true; token: ServiceTokenPrincipal; owner: Account }
  | {
      ok: false;
      reason: TokenRefusal;
      message: string;
      /** Known when the token exists (revoked, expired, its admin gone): the refusal names them. */
      token?: { id: string; name: string };
      owner?: Account;
    };

const refusalMessages: Record<TokenRefusal, string> = {
  invalid: tokenMessages.invalid,
  revoked: tokenMessages.revoked,
  expired: tokenMessages.expired,
  ownerNotAdmin: tokenMessages.ownerNotAdmin,
};

/**
 * The token's principal if it may act at `now`: not revoked, not expired, and its admin still an
 * active admin (checked on every call, so disabling or demoting the admin stops it at once, on
 * every instance). One query by the token's hash.
 */
export async function authenticateServiceToken(db: Db, raw: string, now: Date): Promise<Authenticated> {
  const refuse = (reason: TokenRefusal, found?: { token: { id: string; name: string }; owner: Account }) => ({
    ok: false as const,
    reason,
    message: refusalMessages[reason],
    ...(found && { token: { id: found.token.id, name: found.token.name }, owner: found.owner }),
  });
  if (!TOKEN_PATTERN.test(raw)) return refuse('invalid');
  const found = await findServiceTokenByHash(db, hashServiceToken(raw));
  if (!found) return refuse('invalid');
  if (found.token.revokedAt) return refuse('revoked', found);
  if (found.token.expiresAt.getTime() <= now.getTime()) return refuse('expired', found);
  if (found.owner.status !== 'active' || !isAdmin(found.owner)) return refuse('ownerNotAdmin', found);
  const { id, name, scopes, lastUsedAt } = found.token;
  return { ok: true, token: { id, name, scopes, lastUsedAt }, owner: found.owner };
}
