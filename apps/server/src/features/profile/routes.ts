import { profileMessages, reauthenticateHeaders } from '@pra/contracts';
import {
  changePassword as changePasswordCall,
  reauthenticate as reauthenticateCall,
} from '@pra/contracts/endpoints/profile';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { endpointRouter } from '../../http/endpoint-routes';
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
export const profileRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  route(reauthenticateCall, {}, async (request, reply) => {
    // The password travels in a header: never in a URL, never logged (the logger drops headers).
    reply.header('cache-control', 'no-store');
    const username = header(request.headers[reauthenticateHeaders.username]);
    const password = header(request.headers[reauthenticateHeaders.password]);
    if (!username || !password) throw new AppError('badRequest', profileMessages.missingHeaders);
    const ok = await reauthenticate({
      ctx,
      account: request.account,
      session: request.session,
      username,
      password,
      clientAddress: request.ip,
    });
    return { authentication: ok ? ('success' as const) : ('authenticationFailure' as const) };
  });

  route(changePasswordCall, {}, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await changePassword({
      ctx,
      account: request.account,
      session: request.session,
      newPassword: request.body.newPassword,
      clientAddress: request.ip,
    });
    return { success: true };
  });
};
