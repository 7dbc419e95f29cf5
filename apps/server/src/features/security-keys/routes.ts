import { securityKeyMessages, type SecurityKeyList } from '@pra/contracts';
import * as calls from '@pra/contracts/endpoints/security-keys';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import type { Session } from '../../http/session';
import { setSessionValue } from '../../http/session';
import { endpointRouter } from '../../http/endpoint-routes';
import {
  authenticationOptions,
  CHALLENGE_MS,
  KEY_CONFIRMED,
  keyConfirmationGiven,
  MAX_CREDENTIALS,
  registrationOptions,
  removeCredential,
  renameCredential,
  verifyAuthentication,
  verifyRegistration,
  webauthnMessages,
} from '../../identity/mfa/webauthn';
import { findConfirmedDevice } from '../../store/factors';
import { keyRequirement, listCredentials } from '../../store/webauthn';
import { isReauthenticated } from '../../store/sessions';

/**
 * Profile → Sign-in methods (GOVERNANCE.md §7.3): the signed-in vendor's security keys and
 * passkeys. Adding one needs a fresh re-authentication (the 5-minute mark of GET /api/user/auth)
 * and, when an organization of the account requires phishing-resistant sign-in and the account
 * has a key, a confirmation with that key first (a phished passcode must not enrol an attacker's
 * key). Removing one needs the re-authentication too, and never removes the last one required.
 */
export const securityKeyRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  function builtinOnly() {
    if (ctx.config.idp !== 'builtin') throw new AppError('conflict', securityKeyMessages.builtinOnly);
  }

  function requireReauthentication(session: Session) {
    if (!isReauthenticated(session, ctx.clock.now()))
      throw new AppError('forbidden', securityKeyMessages.reauthenticate);
  }

  /** Whether adding a key needs a confirmation with an existing one, and whether it was given. */
  async function keyConfirmation(account: Account, session: Session) {
    const [keys, requirement] = await Promise.all([
      listCredentials(ctx.db, account.id),
      keyRequirement(ctx.db, account.id, ctx.clock.now()),
    ]);
    const required = requirement !== null;
    const needed = required && keys.length > 0;
    const given = keyConfirmationGiven(ctx, session);
    return { keys, required, requiredBy: requirement?.organizationName ?? null, needed, given };
  }

  route(calls.getSecurityKeys, {}, async (request): Promise<SecurityKeyList> => {
    const [state, app] = await Promise.all([
      keyConfirmation(request.account, request.session),
      findConfirmedDevice(ctx.db, request.account.id),
    ]);
    return {
      keys: state.keys.map((key) => ({
        id: key.id,
        nickname: key.nickname,
        addedAt: new Date(key.created_at).toISOString(),
        lastUsedAt: key.last_used_at ? new Date(key.last_used_at).toISOString() : null,
        type: key.backed_up ? 'synced' : 'thisDevice',
      })),
      authenticatorApp: app?.nickname ?? null,
      required: state.required,
      requiredBy: state.requiredBy,
      needsKeyConfirmation: state.needed && !state.given,
      max: MAX_CREDENTIALS,
    };
  });

  route(calls.securityKeyRegistrationOptions, {}, async (request, reply) => {
    noStore(reply);
    builtinOnly();
    requireReauthentication(request.session);
    const state = await keyConfirmation(request.account, request.session);
    if (state.needed && !state.given) throw new AppError('forbidden', securityKeyMessages.confirmWithKey);
    const result = await registrationOptions(ctx, request.session, request.account);
    if (!result.ok) throw new AppError('conflict', result.message);
    return { options: { ...result.options } };
  });

  route(calls.addSecurityKey, {}, async (request) => {
    builtinOnly();
    requireReauthentication(request.session);
    const state = await keyConfirmation(request.account, request.session);
    if (state.needed && !state.given) throw new AppError('forbidden', securityKeyMessages.confirmWithKey);
    const outcome = await verifyRegistration(ctx, request.session, {
      account: request.account,
      response: request.body.credential as never,
      nickname: request.body.nickname,
      clientAddress: request.ip,
    });
    if (!outcome.ok) throw new AppError('badRequest', outcome.message);
    return { id: outcome.id, nickname: outcome.nickname };
  });

  route(calls.securityKeyAssertionOptions, {}, async (request, reply) => {
    noStore(reply);
    builtinOnly();
    const options = await authenticationOptions(ctx, request.session, request.account.id, 'stepup');
    if (!options) throw new AppError('conflict', webauthnMessages.notRegistered);
    return { options: { ...options } };
  });

  route(calls.confirmWithSecurityKey, {}, async (request) => {
    builtinOnly();
    const outcome = await verifyAuthentication(ctx, request.session, {
      account: request.account,
      response: request.body.credential as never,
      purpose: 'stepup',
      clientAddress: request.ip,
    });
    if (!outcome.ok) throw new AppError('badRequest', outcome.message);
    await setSessionValue(ctx.db, request.session, KEY_CONFIRMED, ctx.clock.now().getTime() + CHALLENGE_MS);
    return { success: true };
  });

  route(calls.renameSecurityKey, {}, async (request) => {
    const outcome = await renameCredential(ctx, {
      account: request.account,
      id: request.params.id,
      nickname: request.body.nickname,
      clientAddress: request.ip,
    });
    if (!outcome.ok) throw new AppError('notFound', outcome.message);
    return { success: true };
  });

  route(calls.removeSecurityKey, {}, async (request) => {
    requireReauthentication(request.session);
    const outcome = await removeCredential(ctx, {
      account: request.account,
      id: request.params.id,
      clientAddress: request.ip,
    });
    if (!outcome.ok) throw new AppError(outcome.status, outcome.message);
    return { success: true };
  });
};
