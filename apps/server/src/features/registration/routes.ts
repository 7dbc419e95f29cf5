import { emailDomain } from '@pra/contracts';
import {
  checkEmailInUse,
  getOrgsByDomain,
  getRegistrationAvailability,
  submitRegistration,
} from '@pra/contracts/endpoints/registration';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { isBrmOrAdmin } from '../../store/account-kinds';
import { enforceRateLimit, type RateLimitRule } from '../../identity/rate-limit';
import { emailUse } from '../../identity/email-use';
import { identityServiceUp } from '../../identity/maintenance';
import { activeOrganizationsForDomain } from '../../store/organizations';
import { registerUser } from './register-user';
import { localDate } from '../../platform/local-time';

/** Registrations per client address: plenty for an office behind one address, too few to flood BRMs. */
const SUBMIT_LIMIT: RateLimitRule = { limit: 20, windowSeconds: 3600 };
/**
 * Registrations a signed-in BRM or admin makes on vendors' behalf, per account: a day's onboarding
 * of a whole vendor team, not the anonymous bucket every person behind the hospital's proxy shares.
 */
export const ON_BEHALF_LIMIT: RateLimitRule = { limit: 200, windowSeconds: 3600 };
/** email-in-use tells whether an address has an account: limited against bulk probing. */
const EMAIL_CHECK_LIMIT: RateLimitRule = { limit: 120, windowSeconds: 900 };

export const registrationRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  route(checkEmailInUse, {}, async (request, reply) => {
    await enforceRateLimit(ctx.db, `email-in-use:${request.ip}`, EMAIL_CHECK_LIMIT);
    const result = await emailUse(ctx.db, request.body.email);
    // fastify would send a bare string as text/plain; the contract says a JSON string.
    // (A string payload skips the serializer, so the already-encoded text is sent as is.)
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(result));
  });

  route(getOrgsByDomain, {}, async (request) => {
    // Accept "acme.example" as well as a whole address.
    const domain = request.query.domain.includes('@')
      ? emailDomain(request.query.domain)
      : request.query.domain.toLowerCase();
    return (await activeOrganizationsForDomain(ctx.db, domain)).map((o) => o.name);
  });

  // The form says so before anyone fills it in (submit would answer 503 then).
  route(getRegistrationAvailability, {}, async () => ({ available: await identityServiceUp(ctx) }));

  route(submitRegistration, {}, async (request) => {
    const caller = request.account;
    await (caller && isBrmOrAdmin(caller)
      ? enforceRateLimit(ctx.db, `registration-on-behalf:${caller.id}`, ON_BEHALF_LIMIT)
      : enforceRateLimit(ctx.db, `registration:${request.ip}`, SUBMIT_LIMIT));
    const { requestId, expiresAt } = await registerUser({
      ctx,
      caller: request.account,
      body: request.body,
      clientAddress: request.ip,
    });
    return {
      requestID: requestId,
      success: true,
      ...(expiresAt && {
        expiresAt: expiresAt.toISOString(),
        expiresOn: localDate(expiresAt, ctx.config.PORTAL_TIME_ZONE),
      }),
    };
  });
};
