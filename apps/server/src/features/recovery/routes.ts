import {
  api,
  identifyBody,
  identifyByCodeBody,
  identifyByCodeResponse,
  identifyResponse,
  pingPushBody,
  pingPushResponse,
  sendResetEmailBody,
  sendResetEmailResponse,
  setPasswordBody,
  setPasswordResponse,
  userIdSearchBody,
  userIdSearchResponse,
  verifyOtpBody,
  verifyOtpResponse,
} from '@pra/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/app-context';
import { AppError, messages } from '../../platform/app-error';
import { abortOnClose } from '../../http/abort-on-close';
import { createGuards } from '../../http/guards';
import type { Session } from '../../http/session';
import { enforceRateLimit, hitRateLimit, type RateLimitRule } from '../../identity/rate-limit';
import {
  identify,
  identifyByCode,
  pingPush,
  sendResetEmail,
  setPassword,
  verifyOtp,
} from './forgot-password';
import { searchUserId } from './forgot-user-id';

/** Forgot User ID searches per client address: a person needs a few, a harvester many. */
export const USER_ID_SEARCH_LIMIT: RateLimitRule = { limit: 10, windowSeconds: 900 };
/** Forgot Password calls of every kind per client address, whatever the account. */
export const RECOVERY_ADDRESS_LIMIT: RateLimitRule = { limit: 40, windowSeconds: 900 };
/** Identify attempts per client address (the username-and-email guess). */
export const IDENTIFY_ADDRESS_LIMIT: RateLimitRule = { limit: 10, windowSeconds: 900 };
/** Reset mails per account within an hour. */
const RESET_MAIL_LIMIT: RateLimitRule = { limit: 3, windowSeconds: 3600 };

/** The caller's session: every call is bound to it (the CSRF check already required one). */
function caller(request: FastifyRequest): { session: Session; clientAddress: string } {
  if (!request.session) throw new AppError('forbidden', messages.csrf);
  return { session: request.session, clientAddress: request.ip };
}

export const recoveryRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);
  const limitAddress = (ip: string) =>
    enforceRateLimit(ctx.db, `recovery-address:${ip}`, RECOVERY_ADDRESS_LIMIT);
  /** For the verification calls the spec's answer to too many tries is a result, not a 429. */
  const addressAllows = async (ip: string) =>
    (await hitRateLimit(ctx.db, `recovery-address:${ip}`, RECOVERY_ADDRESS_LIMIT)).allowed;

  app.post(
    api.forgotUserIdSearch,
    { schema: { body: userIdSearchBody, response: { 200: userIdSearchResponse } } },
    async (request) => {
      await enforceRateLimit(ctx.db, `user-id-search:${request.ip}`, USER_ID_SEARCH_LIMIT);
      return searchUserId(ctx, request.body, request.ip);
    },
  );

  app.post(
    api.forgotIdentify,
    { schema: { body: identifyBody, response: { 200: identifyResponse } } },
    async (request) => {
      const who = caller(request);
      await limitAddress(request.ip);
      await enforceRateLimit(ctx.db, `recovery-identify:${request.ip}`, IDENTIFY_ADDRESS_LIMIT);
      return identify(ctx, who, request.body);
    },
  );

  app.post(
    api.forgotIdentifyByCode,
    { schema: { body: identifyByCodeBody, response: { 200: identifyByCodeResponse } } },
    async (request) => {
      const who = caller(request);
      await limitAddress(request.ip);
      return identifyByCode(ctx, who, request.body.code);
    },
  );

  app.post(
    api.forgotVerifyOtp,
    { schema: { body: verifyOtpBody, response: { 200: verifyOtpResponse } } },
    async (request) => {
      const who = caller(request);
      if (!(await addressAllows(request.ip))) return { result: 'tooManyAttempts' as const };
      return { result: await verifyOtp(ctx, who, request.body) };
    },
  );

  app.post(
    api.forgotPingPush,
    { schema: { body: pingPushBody, response: { 200: pingPushResponse } } },
    async (request, reply) => {
      const who = caller(request);
      if (!(await addressAllows(request.ip))) return { result: 'tooManyAttempts' as const };
      return { result: await pingPush(ctx, who, request.body.username, abortOnClose(reply)) };
    },
  );

  app.post(
    api.forgotSendResetEmail,
    {
      schema: { body: sendResetEmailBody, response: { 200: sendResetEmailResponse } },
      preHandler: [guards.requireIdentityService],
    },
    async (request) => {
      const who = caller(request);
      await limitAddress(request.ip);
      await enforceRateLimit(
        ctx.db,
        `recovery-mail:${request.body.username.toLowerCase()}`,
        RESET_MAIL_LIMIT,
      );
      await sendResetEmail(ctx, who, request.body.username);
      return { success: true };
    },
  );

  app.post(
    api.forgotSetPassword,
    {
      schema: { body: setPasswordBody, response: { 200: setPasswordResponse } },
      preHandler: [guards.requireIdentityService],
    },
    async (request) => {
      const who = caller(request);
      await limitAddress(request.ip);
      await setPassword(ctx, who, request.body);
      return { success: true };
    },
  );
};
