import {
  api,
  authenticatorAnswerBody,
  authenticatorAnswerResponse,
  authenticatorMessages,
  authenticatorStatus,
  authenticatorStatusBody,
  pairAuthenticatorBody,
  pairAuthenticatorResponse,
} from '@pra/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { createGuards } from '../../http/guards';
import { recordAudit } from '../../identity/audit';
import {
  answerPush,
  authenticatorByKey,
  pairPhone,
  pendingPushes,
  touchAuthenticator,
} from '../../identity/mfa/push';
import { currentTotp } from '../../identity/mfa/totp';
import { findConfirmedDevice } from '../../identity/mfa/totp-device';
import { enforceRateLimit, type RateLimitRule } from '../../identity/rate-limit';

/** The phone polls every few seconds; a guesser of device keys gets nowhere at this rate either. */
const DEVICE_LIMIT: RateLimitRule = { limit: 120, windowSeconds: 60 };

/**
 * The built-in MFA provider's authenticator: pairing a phone from a signed-in session (the QR
 * code's link carries the device key), and the phone's two calls (what waits, and its answer).
 */
export const authenticatorRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);

  async function deviceFor(ip: string, deviceKey: string) {
    await enforceRateLimit(ctx.db, `authenticator:${ip}`, DEVICE_LIMIT);
    const device = await authenticatorByKey(ctx.db, deviceKey);
    if (!device) throw new AppError('unauthenticated', authenticatorMessages.notPaired);
    return device;
  }

  app.post(
    api.authenticatorPair,
    {
      schema: { body: pairAuthenticatorBody, response: { 200: pairAuthenticatorResponse } },
      onRequest: [guards.requireLogin],
    },
    async (request) => {
      return pairPhone(ctx, {
        account: request.account!,
        nickname: request.body.nickname,
        clientAddress: request.ip,
      });
    },
  );

  app.post(
    api.authenticatorStatus,
    { schema: { body: authenticatorStatusBody, response: { 200: authenticatorStatus } } },
    async (request) => {
      const device = await deviceFor(request.ip, request.body.deviceKey);
      await touchAuthenticator(ctx.db, device.id);
      const totp = await findConfirmedDevice(ctx.db, device.account_id);
      const current = totp ? await currentTotp(ctx.encryptor.decrypt(totp.secret_encrypted)) : undefined;
      const pending = await pendingPushes(ctx.db, device.account_id);
      return {
        username: device.username,
        nickname: device.nickname,
        ...(current ?? {}),
        requests: pending.map((push) => ({
          id: push.id,
          purpose: push.purpose,
          clientAddress: push.client_address,
          createdAt: new Date(push.created_at as unknown as string).toISOString(),
        })),
      };
    },
  );

  app.post(
    api.authenticatorAnswer,
    { schema: { body: authenticatorAnswerBody, response: { 200: authenticatorAnswerResponse } } },
    async (request) => {
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
    },
  );
};
