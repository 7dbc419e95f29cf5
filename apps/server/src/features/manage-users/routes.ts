import {
  api,
  enableOrDisableBody,
  manageUserResponse,
  managedUsersResponse,
  resetActivationCodeBody,
  sendOtpEmailBody,
} from '@pra/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/app-context';
import { createGuards } from '../../http/guards';
import { resetActivationCode, sendOtpEmail, setUserEnabled } from './manage-user';
import { listManagedVendors } from '../../store/accounts';

export const manageUsersRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);
  // Signed in (401) as a BRM or admin (403), before the body is read.
  const reading = { onRequest: [guards.requireLogin, guards.requireBrmOrAdmin] };
  const changing = { ...reading, preHandler: [guards.requireIdentityService] };

  app.get(
    api.managedUsers,
    {
      schema: { response: { 200: managedUsersResponse } },
      ...reading,
    },
    async (request) =>
      (await listManagedVendors(ctx.db, request.account!)).map((row) => ({
        username: row.username,
        givenName: row.given_name,
        familyName: row.family_name,
        email: row.email,
        active: row.status === 'active',
        status: row.status as 'pendingActivation' | 'active' | 'disabled',
      })),
  );

  app.post(
    api.enableOrDisableUser,
    { schema: { body: enableOrDisableBody, response: { 200: manageUserResponse } }, ...changing },
    async (request) => {
      const { enable, targetUsername } = request.body;
      await setUserEnabled({
        ctx,
        actor: request.account!,
        username: targetUsername,
        enable,
        clientAddress: request.ip,
      });
      return { success: true };
    },
  );

  app.post(
    api.sendOtpEmail,
    { schema: { body: sendOtpEmailBody, response: { 200: manageUserResponse } }, ...changing },
    async (request) => {
      const { email, username } = request.body;
      await sendOtpEmail({ ctx, actor: request.account!, username, email, clientAddress: request.ip });
      return { success: true };
    },
  );

  app.post(
    api.resetActivationCode,
    {
      schema: { body: resetActivationCodeBody, response: { 200: manageUserResponse } },
      ...changing,
    },
    async (request) => {
      const { username } = request.body;
      await resetActivationCode({ ctx, actor: request.account!, username, clientAddress: request.ip });
      return { success: true };
    },
  );
};
