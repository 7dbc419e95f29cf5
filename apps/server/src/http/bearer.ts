import type { FastifyReply, FastifyRequest } from 'fastify';
import { tokenMessages } from '@pra/contracts/service-tokens';
import { attributed, auditRow, recordAudit, type AuditEvent } from '../identity/audit';
import { announceAudit } from '../identity/audit-log';
import { hitRateLimit, enforceRateLimit } from '../identity/rate-limit';
import { authenticateServiceToken, type ServiceTokenPrincipal } from '../identity/service-tokens';
import type { AppContext } from '../platform/app-context';
import { AppError, tooManyRequests } from '../platform/app-error';
import type { Account } from '../platform/db-schema';
import { requestScope } from '../platform/request-scope';
import { recordServiceTokenUse } from '../store/service-tokens';
import { routedPath } from './request-path';

declare module 'fastify' {
  interface FastifyRequest {
    /** The service token a bearer request is made with, once accepted (the account is its admin's). */
    serviceToken: ServiceTokenPrincipal | null;
  }
}

/** Calls one token may make: automation that needs more is split over several tokens. */
const TOKEN_RATE = { limit: 600, windowSeconds: 60 };
/**
 * Refused bearer calls from one client address. Past it, refusals answer 429 and are no longer
 * audited one by one (a flood of made-up tokens must not flood the audit trail).
 */
const REFUSED_RATE = { limit: 30, windowSeconds: 600 };

const REALM = 'PRA Portal API';

function challenge(reply: FastifyReply, error: 'invalid_token' | 'insufficient_scope', more = ''): void {
  reply.header('www-authenticate', `Bearer realm="${REALM}", error="${error}"${more}`);
}

function callOf(request: FastifyRequest) {
  return { method: request.method, route: routedPath(request) };
}

function actorOf(owner: Account | undefined) {
  return owner ? { id: owner.id, username: owner.username } : null;
}

/**
 * A request with `Authorization: Bearer …`: its cookies are ignored (no session, so no CSRF rule
 * applies and none is needed: a browser never adds this header to another site's request). The
 * token must be live (401 with `WWW-Authenticate: Bearer error="invalid_token"` otherwise) and
 * carry the scope of the endpoint called (403 with error="insufficient_scope"; an endpoint
 * without a token scope never takes one). Both refusals are audited as denied. Once accepted, the
 * request acts as the token's admin, and every audit event it writes names the token.
 */
export async function authenticateBearer(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  raw: string,
): Promise<void> {
  const found = await authenticateServiceToken(ctx.db, raw, ctx.clock.now());
  if (!found.ok) {
    const counted = await hitRateLimit(ctx.db, `bearer-refused:${request.ip}`, REFUSED_RATE);
    if (!counted.allowed)
      throw tooManyRequests(counted.retryAfterSeconds, 'Too many refused service tokens.');
    await recordAudit(ctx.db, {
      action: 'service-token.refused',
      outcome: 'denied',
      actor: actorOf(found.owner),
      clientAddress: request.ip,
      details: {
        reason: found.reason,
        ...callOf(request),
        ...(found.token && { tokenId: found.token.id, tokenName: found.token.name }),
      },
    });
    challenge(reply, 'invalid_token');
    throw new AppError('unauthenticated', found.message);
  }
  const { token, owner } = found;
  // No route here (404, or 405 for another method): nothing to act on, nothing to grant.
  if (request.is404) return;
  const scope = request.routeOptions.config.endpoint?.tokenScope;
  if (!scope || !token.scopes.includes(scope)) {
    await recordAudit(ctx.db, {
      action: 'service-token.refused',
      outcome: 'denied',
      actor: actorOf(owner),
      clientAddress: request.ip,
      details: {
        reason: scope ? 'scope' : 'notForTokens',
        ...callOf(request),
        tokenId: token.id,
        tokenName: token.name,
        ...(scope && { scope }),
      },
    });
    challenge(reply, 'insufficient_scope', scope ? `, scope="${scope}"` : '');
    throw new AppError('forbidden', scope ? tokenMessages.missingScope(scope) : tokenMessages.notForTokens);
  }
  await enforceRateLimit(ctx.db, `service-token:${token.id}`, TOKEN_RATE);
  request.account = owner;
  request.serviceToken = token;
  const scopeStore = requestScope.getStore();
  if (scopeStore) scopeStore.serviceToken = { id: token.id, name: token.name };
}

/**
 * Records an accepted bearer call once its guards and validation passed (a `preHandler`): one
 * audit event `service-token.use` per call, naming the token, its admin, the method and route,
 * and the token's last use, written at most once a minute; one statement.
 */
export async function recordBearerUse(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const token = request.serviceToken;
  const owner = request.account;
  if (!token || !owner) return;
  const event: AuditEvent = attributed({
    action: 'service-token.use',
    outcome: 'success',
    actor: { id: owner.id, username: owner.username },
    clientAddress: request.ip,
    details: { ...callOf(request), tokenId: token.id, tokenName: token.name },
  });
  await recordServiceTokenUse(ctx.db, { tokenId: token.id, at: ctx.clock.now(), audit: auditRow(event) });
  announceAudit(event);
}
