import * as calls from '@pra/contracts/endpoints/recovery';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { AppError, messages } from '../../platform/app-error';
import { abortOnClose } from '../../http/abort-on-close';
import { endpointRouter } from '../../http/endpoint-routes';
import type { Session } from '../../http/session';
import { enforceRateLimit, hitRateLimit, type RateLimitRule } from '../../identity/rate-limit';
import {
  identify,
  identifyByCode,
  pingPush,
  recoveryKeyOptions,
  recoveryKeyVerify,
  sendResetEmail,
  setPassword,
  verifyOtp,
} from './forgot-password';
import { searchUserId } from './forgot-user-id';
import { webauthnMessages } from '../../identity/mfa/webauthn';

/** Forgot User ID searches per client address: a person needs a few, a harvester many. */
export const USER_ID_SEARCH_LIMIT: RateLimitRule = { limit: 10, windowSeconds: 900 };
/** Forgot Password calls of every kind per client address, whatever the account. */
export const RECOVERY_ADDRESS_LIMIT: RateLimitRule = { limit: 40, windowSeconds: 900 };
/** Identify attempts per client address (the username-and-email guess). */
export const IDENTIFY_ADDRESS_LIMIT: RateLimitRule = { limit: 10, windowSeconds: 900 };

/** The caller's session: every call is bound to it (the CSRF check already required one). */
function caller(request: FastifyRequest): { session: Session; clientAddress: string } {
  if (!request.session) throw new AppError('forbidden', messages.csrf);
  return { session: request.session, clientAddress: request.ip };
}

export const recoveryRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  const limitAddress = (ip: string) =>
    enforceRateLimit(ctx.db, `recovery-address:${ip}`, RECOVERY_ADDRESS_LIMIT);
  /** For the verification calls the spec's answer to too many tries is a result, not a 429. */
  const addressAllows = async (ip: string) =>
    (await hitRateLimit(ctx.db, `recovery-address:${ip}`, RECOVERY_ADDRESS_LIMIT)).allowed;

  route(calls.searchUserId, {}, async (request) => {
    await enforceRateLimit(ctx.db, `user-id-search:${request.ip}`, USER_ID_SEARCH_LIMIT);
    return searchUserId(ctx, request.body, request.ip);
  });

  route(calls.identifyAccount, {}, async (request) => {
    const who = caller(request);
    await limitAddress(request.ip);
    await enforceRateLimit(ctx.db, `recovery-identify:${request.ip}`, IDENTIFY_ADDRESS_LIMIT);
    return identify(ctx, who, request.body);
  });

  route(calls.identifyByCode, {}, async (request) => {
    const who = caller(request);
    await limitAddress(request.ip);
    return identifyByCode(ctx, who, request.body.code);
  });

  route(calls.verifyOtp, {}, async (request) => {
    const who = caller(request);
    if (!(await addressAllows(request.ip))) return { result: 'tooManyAttempts' as const };
    return { result: await verifyOtp(ctx, who, request.body) };
  });

  route(calls.pingPush, {}, async (request, reply) => {
    const who = caller(request);
    if (!(await addressAllows(request.ip))) return { result: 'tooManyAttempts' as const };
    return { result: await pingPush(ctx, who, request.body.username, abortOnClose(reply)) };
  });

  route(calls.recoveryKeyOptions, {}, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const who = caller(request);
    await limitAddress(request.ip);
    const options = await recoveryKeyOptions(ctx, who, request.body.username);
    if (!options) throw new AppError('conflict', webauthnMessages.notRegistered);
    return { options: { ...options } };
  });

  route(calls.recoveryKeyVerify, {}, async (request) => {
    const who = caller(request);
    if (!(await addressAllows(request.ip))) return { result: 'tooManyAttempts' as const };
    return recoveryKeyVerify(ctx, who, request.body);
  });

  route(calls.sendResetEmail, {}, async (request) => {
    const who = caller(request);
    await limitAddress(request.ip);
    await sendResetEmail(ctx, who, request.body.username);
    return { success: true };
  });

  route(calls.setNewPassword, {}, async (request) => {
    const who = caller(request);
    await limitAddress(request.ip);
    await setPassword(ctx, who, request.body);
    return { success: true };
  });
};
