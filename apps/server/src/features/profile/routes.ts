import {
  api,
  changePasswordBody,
  changePasswordResponse,
  profileMessages,
  reauthenticateHeaders,
  reauthenticateResponse,
} from '@pra/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { createGuards } from '../../http/guards';
import { changePassword } from './change-password';
import { reauthenticate } from './reauthenticate';

/** The longest header value read as a password (the policy's own maximum is lower). */
const MAX_HEADER_PASSWORD = 1024;

function header(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_HEADER_PASSWORD
    ? value
    : undefined;
}

/** Manage Profile's calls: confirm the current password, then change it (vendors only). */
export const profileRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);

  app.get(
    api.reauthenticate,
    {
      schema: { response: { 200: reauthenticateResponse } },
      onRequest: [guards.requireLogin, guards.requireVendor],
      preHandler: [guards.requireIdentityService],
    },
    async (request, reply) => {
      // The password travels in a header: never in a URL, never logged (the logger drops headers).
      reply.header('cache-control', 'no-store');
      const username = header(request.headers[reauthenticateHeaders.username]);
      const password = header(request.headers[reauthenticateHeaders.password]);
      if (!username || !password) throw new AppError('badRequest', profileMessages.missingHeaders);
      const ok = await reauthenticate({
        ctx,
        account: request.account!,
        session: request.session!,
        username,
        password,
        clientAddress: request.ip,
      });
      return { authentication: ok ? ('success' as const) : ('authenticationFailure' as const) };
    },
  );

  app.post(
    api.changePassword,
    {
      schema: { body: changePasswordBody, response: { 200: changePasswordResponse } },
      onRequest: [guards.requireLogin, guards.requireVendor],
      preHandler: [guards.requireIdentityService],
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      await changePassword({
        ctx,
        account: request.account!,
        session: request.session!,
        newPassword: request.body.newPassword,
        clientAddress: request.ip,
      });
      return { success: true };
    },
  );
};
