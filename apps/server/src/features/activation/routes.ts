import {
  activateWithPassword,
  decodeActivationCode,
  getPasswordRequirements,
} from '@pra/contracts/endpoints/activation';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { AppError, messages } from '../../platform/app-error';
import { endpointRouter } from '../../http/endpoint-routes';
import { setSessionValue } from '../../http/session';
import { findAccountByUsername } from '../../store/accounts';
import { passwordPolicy } from '../../identity/password-policy';
import { readRecoveryBinding } from '../../identity/recovery-binding';
import { enforceRateLimit, type RateLimitRule } from '../../identity/rate-limit';
import { activateAccount } from './activate-account';
import { checkActivationCode, summary } from './activation-code';

/** Code attempts (decode and activate together) per client address: stops guessing, not people. */
const CODE_LIMIT: RateLimitRule = { limit: 20, windowSeconds: 900 };

/** The session key naming the account whose activation code this browser presented. */
const ACTIVATION_ACCOUNT_KEY = 'activationAccountId';

export const activationRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  const limitCodeAttempts = (ip: string) => enforceRateLimit(ctx.db, `activation-code:${ip}`, CODE_LIMIT);

  route(decodeActivationCode, {}, async (request) => {
    await limitCodeAttempts(request.ip);
    const check = await checkActivationCode(ctx.db, ctx.session.secret, request.body.claimCode);
    if (!check.isValid) return { isValid: false, invalidReason: check.invalidReason };
    // Proof of the code lets this browser see the account's personal blocked terms. The CSRF
    // check already required a session for this POST; without one there is nothing to remember.
    const session = request.session;
    if (!session) throw new AppError('forbidden', messages.csrf);
    await setSessionValue(ctx.db, session, ACTIVATION_ACCOUNT_KEY, check.account.id);
    return { isValid: true, account: summary(check.account) };
  });

  route(activateWithPassword, {}, async (request) => {
    await limitCodeAttempts(request.ip);
    await activateAccount({ ctx, ...request.body, clientAddress: request.ip });
    return { success: true };
  });

  route(getPasswordRequirements, {}, async (request) => {
    const { username } = request.query;
    // Names and email are personal: only the account itself, or a browser that presented its
    // activation code, gets them; anyone else gets the rules without them. The account is
    // looked up only when this session could be one of those.
    const session = request.session;
    // The Forgot Password flow's bound account counts too, once identified.
    const activationAccountId = session?.data[ACTIVATION_ACCOUNT_KEY];
    const recoveryAccountId = readRecoveryBinding(session)?.accountId;
    const mayKnowSomeone =
      Boolean(session?.accountId) || typeof activationAccountId === 'string' || Boolean(recoveryAccountId);
    const account = username && mayKnowSomeone ? await findAccountByUsername(ctx.db, username) : undefined;
    const mayKnow =
      account !== undefined &&
      (session?.accountId === account.id ||
        activationAccountId === account.id ||
        recoveryAccountId === account.id);
    return passwordPolicy(ctx.config, username, mayKnow ? account : undefined);
  });
};
