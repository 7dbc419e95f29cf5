import { authenticatorMessages } from '@pra/contracts';
import * as calls from '@pra/contracts/endpoints/authenticator';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { abortOnClose } from '../../http/abort-on-close';
import { endpointRouter } from '../../http/endpoint-routes';
import { recordAudit } from '../../identity/audit';
import { authenticatorByKey } from '../../identity/mfa/push';
import { currentTotp } from '../../identity/mfa/totp';
import { enforceRateLimit, type RateLimitRule } from '../../identity/rate-limit';
import { addAuthenticator, removeAuthenticator } from './change-authenticators';
import { confirmOwner, hasSecondFactor } from './confirm-owner';
import {
  answerPush,
  findConfirmedDevice,
  listAuthenticators,
  pendingPushes,
  touchAuthenticator,
} from '../../store/factors';

/** The phone polls every few seconds; a guesser of device keys gets nowhere at this rate either. */
const DEVICE_LIMIT: RateLimitRule = { limit: 120, windowSeconds: 60 };

/**
 * The built-in MFA provider's authenticator: the signed-in owner's phones (confirm, list, pair
 * one more, remove one; the QR code's link carries the device key), and the phone's two calls
 * (what waits, and its answer).
 */
export const authenticatorRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  async function deviceFor(ip: string, deviceKey: string) {
    await enforceRateLimit(ctx.db, `authenticator:${ip}`, DEVICE_LIMIT);
    const device = await authenticatorByKey(ctx.db, deviceKey);
    if (!device) throw new AppError('unauthenticated', authenticatorMessages.notPaired);
    return device;
  }

  route(calls.confirmOwner, {}, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const result = await confirmOwner({
      ctx,
      account: request.account,
      session: request.session,
      password: request.body.password,
      passcode: request.body.passcode,
      push: request.body.push === true,
      signal: abortOnClose(reply),
      clientAddress: request.ip,
    });
    return { result };
  });

  route(calls.getPairedAuthenticators, {}, async (request) => {
    const accountId = request.account.id;
    const [rows, needsPasscode] = await Promise.all([
      listAuthenticators(ctx.db, accountId),
      hasSecondFactor(ctx, accountId),
    ]);
    return {
      needsPasscode,
      authenticators: rows.map((row) => ({
        id: row.id,
        nickname: row.nickname,
        pairedAt: new Date(row.created_at as unknown as string).toISOString(),
        isRecent: Boolean(row.is_recent),
      })),
    };
  });

  route(calls.pairAuthenticator, {}, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return addAuthenticator({
      ctx,
      account: request.account,
      session: request.session,
      nickname: request.body.nickname,
      clientAddress: request.ip,
    });
  });

  route(calls.removeAuthenticator, {}, async (request) => {
    await removeAuthenticator({
      ctx,
      account: request.account,
      session: request.session,
      id: request.body.id,
      clientAddress: request.ip,
    });
    return { success: true };
  });

  route(calls.getAuthenticatorStatus, {}, async (request) => {
    const device = await deviceFor(request.ip, request.body.deviceKey);
    await touchAuthenticator(ctx.db, device.id);
    // A phone paired less than a day ago sees no passcode: with it, it could approve a reset.
    const totp = device.is_recent ? undefined : await findConfirmedDevice(ctx.db, device.account_id);
    const current = totp ? await currentTotp(ctx.encryptor.decrypt(totp.secret_encrypted)) : undefined;
    const pending = await pendingPushes(ctx.db, device.account_id);
    return {
      username: device.username,
      nickname: device.nickname,
      ...(current ?? {}),
      ...(device.is_recent ? { passcodeFrom: new Date(device.passcode_from).toISOString() } : {}),
      requests: pending.map((push) => ({
        id: push.id,
        purpose: push.purpose,
        clientAddress: push.client_address,
        createdAt: new Date(push.created_at as unknown as string).toISOString(),
      })),
    };
  });

  route(calls.answerAuthenticatorRequest, {}, async (request) => {
    const device = await deviceFor(request.ip, request.body.deviceKey);
    const { id, approve } = request.body;
    const answered = await ctx.db.transaction().execute(async (tx) => {
      const done = await answerPush(tx, device, id, approve);
      if (done) {
        await recordAudit(tx, {
          action: 'mfa.push-answer',
          outcome: 'success',
          actor: { id: device.account_id, username: device.username },
          clientAddress: request.ip,
          details: { approve },
        });
      }
      return done;
    });
    if (!answered) throw new AppError('conflict', authenticatorMessages.gone);
    return { success: true };
  });
};
