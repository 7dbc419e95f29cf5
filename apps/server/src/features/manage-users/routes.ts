import {
  enableOrDisableUser,
  getManagedUsers,
  resetActivationCode as resetActivationCodeCall,
  resetSignInMethods as resetSignInMethodsCall,
  sendOtpEmail as sendOtpEmailCall,
} from '@pra/contracts/endpoints/manage-users';
import { asksForPage } from '@pra/contracts/paging';
import type { ManagedUser } from '@pra/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { listManagedUsers, pageManagedUsers } from './list-users';
import { resetActivationCode, resetSignInMethods, sendOtpEmail, setUserEnabled } from './manage-user';
import { withSignInDue } from '../../identity/governance/sign-in-due';
import { withSignInMethods } from '../../identity/mfa/key-policy';

export const manageUsersRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  /** The rows with their sign-in methods and, inside the inactivity warning window, the date due (read side by side). */
  const decorated = async (users: ManagedUser[]) => {
    const [due, methods] = await Promise.all([withSignInDue(ctx, users), withSignInMethods(ctx, users)]);
    return methods.map((user, i) => ({ ...due[i], ...user }));
  };

  // Without paging parameters: the spec's whole list (older callers); the page otherwise.
  // Each row that is inside its inactivity warning window says by when to sign in (§6.2).
  route(getManagedUsers, {}, async (request) => {
    if (!asksForPage(request.query)) return decorated(await listManagedUsers(ctx.db, request.account));
    return pageManagedUsers(ctx, request.account, request.query, decorated);
  });

  route(enableOrDisableUser, {}, async (request) => {
    const { enable, targetUsername } = request.body;
    await setUserEnabled({
      ctx,
      actor: request.account,
      username: targetUsername,
      enable,
      clientAddress: request.ip,
    });
    return { success: true };
  });

  route(sendOtpEmailCall, {}, async (request) => {
    const { email, username } = request.body;
    await sendOtpEmail({ ctx, actor: request.account, username, email, clientAddress: request.ip });
    return { success: true };
  });

  route(resetActivationCodeCall, {}, async (request) => {
    const { username } = request.body;
    await resetActivationCode({ ctx, actor: request.account, username, clientAddress: request.ip });
    return { success: true };
  });

  route(resetSignInMethodsCall, {}, async (request) => {
    const { username, identityVerified } = request.body;
    await resetSignInMethods({
      ctx,
      actor: request.account,
      username,
      identityVerified,
      clientAddress: request.ip,
    });
    return { success: true };
  });
};
