import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionSettings } from '../platform/app-context';
import type { Db, Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { selectLiveSession, type SystemMessageJson } from '../store/session-lookup';
import * as sessions from '../store/sessions';

/** How long a session without a signed-in account lives: it holds no privilege. */
export const ANONYMOUS_SESSION_HOURS = 12;

export interface Session extends sessions.StoredSession {
  /** The CSRF token bound to this session. */
  csrfToken: string;
}

export function hashSessionId(rawId: string): string {
  return hash('sha256', rawId, 'base64url');
}

/** The synchronizer token: derived from the session id, so it rotates whenever the id does. */
function csrfTokenFor(secret: string, rawId: string): string {
  return createHmac('sha256', secret).update(`csrf:${rawId}`).digest('base64url');
}

/**
 * A loaded session's CSRF token, worked out (an HMAC) when first read: most requests are reads,
 * which neither check nor hand out the token. The session's fields are assigned onto it.
 */
class LazyCsrfToken {
  #token: string | undefined;
  readonly #secret: string;
  readonly #rawId: string;

  constructor(secret: string, rawId: string) {
    this.#secret = secret;
    this.#rawId = rawId;
  }

  get csrfToken(): string {
    this.#token ??= csrfTokenFor(this.#secret, this.#rawId);
    return this.#token;
  }
}

export function csrfTokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  // Compare bytes, not characters: a non-ASCII token of the same length is longer in UTF-8.
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface NewSession {
  accountId: string | null;
  lifetimeMs: number;
  clientAddress: string;
  userAgent: string;
  data?: Record<string, unknown>;
}

/** A new session: its raw id (only its hash is stored), the row to insert, and the session. */
export function newSession(secret: string, session: NewSession) {
  const rawId = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + session.lifetimeMs);
  const data = session.data ?? {};
  const authenticatedAt = session.accountId ? new Date() : null;
  const idHash = hashSessionId(rawId);
  const row: sessions.NewSessionRow = {
    id_hash: idHash,
    account_id: session.accountId,
    expires_at: expiresAt,
    authenticated_at: authenticatedAt,
    data: JSON.stringify(data),
    client_address: session.clientAddress.slice(0, 100),
    user_agent: session.userAgent.slice(0, 300),
  };
  const created: Session = {
    idHash,
    accountId: session.accountId,
    expiresAt,
    extensionsUsed: 0,
    authenticatedAt,
    reauthenticatedUntil: null,
    data,
    csrfToken: csrfTokenFor(secret, rawId),
  };
  return { rawId, row, session: created };
}

/** Creates a session row; returns the raw id (only its hash is stored) and the session. */
export async function insertSession(
  db: Db | Tx,
  secret: string,
  session: NewSession,
): Promise<{ rawId: string; session: Session }> {
  const { rawId, row, session: created } = newSession(secret, session);
  await sessions.insert(db, row);
  return { rawId, session: created };
}

/** What the session plugin loads per request. */
export interface LoadedSession {
  session: Session;
  /** The session's account while it is active; null when anonymous or no longer active. */
  account: Account | null;
  /** The account's organizations, when they were asked for and the account is active. */
  organizations: string[] | null;
  /** The admins' maintenance flag, loaded with the organizations (null when not asked for). */
  maintenanceFlag: boolean | null;
  /** The banner's row (null: none stored), when asked for (a page's boot data). */
  systemMessage?: SystemMessageJson | null;
}

/** The live session for a raw id (not expired, not revoked), with its account, in one query. */
export async function loadSession(
  db: Db,
  secret: string,
  rawId: string,
  options: { organizations: boolean; systemMessage?: boolean },
): Promise<LoadedSession | null> {
  if (rawId.length < 20 || rawId.length > 100) return null;
  const row = await selectLiveSession(db, hashSessionId(rawId), options);
  if (!row) return null;
  const { account, organizations, maintenanceFlag, systemMessage, ...session } = row;
  return {
    session: Object.assign(new LazyCsrfToken(secret, rawId), session),
    account,
    organizations,
    maintenanceFlag,
    ...(systemMessage !== undefined ? { systemMessage } : {}),
  };
}

export function setSessionCookie(
  reply: FastifyReply,
  settings: SessionSettings,
  rawId: string,
  expiresAt: Date,
): void {
  reply.setCookie(settings.cookieName, rawId, {
    path: '/',
    httpOnly: true,
    secure: settings.secureCookie,
    sameSite: 'lax',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: SessionSettings): void {
  reply.clearCookie(settings.cookieName, {
    path: '/',
    httpOnly: true,
    secure: settings.secureCookie,
    sameSite: 'lax',
  });
}

export function rawSessionId(request: FastifyRequest, settings: SessionSettings): string | undefined {
  return request.cookies[settings.cookieName];
}

/**
 * Sets (or, with undefined, removes) one key of the session's data in a single update, so two
 * flows writing different keys at once cannot undo each other. Updates `session.data` to match.
 */
export async function setSessionValue(
  db: Db | Tx,
  session: Session,
  key: string,
  value: unknown,
): Promise<void> {
  await sessions.setValue(db, session.idHash, key, value);
  const data = { ...session.data };
  if (value === undefined) delete data[key];
  else data[key] = value;
  session.data = data;
}
