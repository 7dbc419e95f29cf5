import {
  activateBody,
  activateResponse,
  api,
  decodeBody,
  decodeResponse,
  passwordRequirements,
  passwordRequirementsQuery,
} from '@pra/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../http/context';
import { AppError, messages } from '../../http/errors';
import { createGuards } from '../../http/guards';
import { updateSessionData } from '../../http/session';
import { findAccountByUsername } from '../../identity/accounts';
import { passwordPolicy } from '../../identity/password-policy';
import { hitRateLimit, type RateLimitRule } from '../../identity/rate-limit';
import { activateAccount } from './activate-account';
import { checkActivationCode, summary } from './activation-code';

/** Code attempts (decode and activate together) per client address: stops guessing, not people. */
const CODE_LIMIT: RateLimitRule = { limit: 20, windowSeconds: 900 };

/** The session key naming the account whose activation code this browser presented. */
export const ACTIVATION_ACCOUNT_KEY = 'activationAccountId';

export const activationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);
  const limitCodeAttempts = async (ip: string) => {
    const result = await hitRateLimit(ctx.db, `activation-code:${ip}`, CODE_LIMIT);
    if (!result.allowed) throw new AppError('tooManyRequests', messages.tooMany, result.retryAfterSeconds);
  };

  app.post(
    api.activationDecode,
    { schema: { body: decodeBody, response: { 200: decodeResponse } } },
    async (request) => {
      await limitCodeAttempts(request.ip);
      const check = await checkActivationCode(ctx.db, ctx.session.secret, request.body.claimCode);
      if (!check.isValid) return { isValid: false, invalidReason: check.invalidReason };
      // Proof of the code lets this browser see the account's personal blocked terms.
      const session = request.session!;
      await updateSessionData(ctx.db, session.idHash, {
        ...session.data,
        [ACTIVATION_ACCOUNT_KEY]: check.account.id,
      });
      return { isValid: true, account: summary(check.account) };
    },
  );

  app.post(
    api.activate,
    {
      schema: { body: activateBody, response: { 200: activateResponse } },
      preHandler: [guards.requireIdentityService],
    },
    async (request) => {
      await limitCodeAttempts(request.ip);
      await activateAccount({ ctx, ...request.body, clientAddress: request.ip });
      return { success: true };
    },
  );

  app.get(
    api.passwordRequirements,
    { schema: { querystring: passwordRequirementsQuery, response: { 200: passwordRequirements } } },
    async (request) => {
      const { username } = request.query;
      const account = username ? await findAccountByUsername(ctx.db, username) : undefined;
      // Names and email are personal: only the account itself, or a browser that presented its
      // activation code, gets them; anyone else gets the rules without them.
      const session = request.session;
      const mayKnow =
        account !== undefined &&
        (session?.accountId === account.id || session?.data[ACTIVATION_ACCOUNT_KEY] === account.id);
      return passwordPolicy(ctx.config, username, mayKnow ? account : undefined);
    },
  );
};
