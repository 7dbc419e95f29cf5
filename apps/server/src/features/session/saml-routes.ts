import formbody from '@fastify/formbody';
import { routes } from '@pra/contracts';
import {
  completeSignIn as completeSignInCall,
  getSamlMetadata,
  SAML_ACS_BODY_LIMIT,
  signOut,
  singleLogout,
  startSignIn,
} from '@pra/contracts/endpoints/session';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { AppError, messages } from '../../platform/app-error';
import { endpointRouter } from '../../http/endpoint-routes';
import { ensureSession } from '../../http/session-plugin';
import { recordAudit } from '../../identity/audit';
import { clearSessionCookie, setSessionCookie } from '../../http/session';
import { createServiceProvider, serviceProviderMetadata, spEndpoints } from '../../identity/saml-sp';
import { bindSignInToBrowser, signInBrowserHash } from './browser-binding';
import { safeNextPath } from './next-path';
import { completeSignIn, SignInRefused } from './sign-in';
import { endSession } from './sign-out';
import { acceptLogoutResponse, answerLogoutRequest, LogoutRefused } from './single-logout';

export const samlRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  // Made per call: the IdP's description changes when its metadata is refreshed.
  const serviceProvider = () => createServiceProvider(ctx.config, ctx.db, ctx.keys.sp, ctx.idp);
  await app.register(formbody, { bodyLimit: SAML_ACS_BODY_LIMIT });
  const route = endpointRouter(app, ctx);

  route(startSignIn, {}, async (request, reply) => {
    await ensureSession(ctx, request, reply);
    const browserHash = bindSignInToBrowser(request, reply, ctx.session);
    const starter = createServiceProvider(ctx.config, ctx.db, ctx.keys.sp, ctx.idp, { browserHash });
    const url = await starter.getAuthorizeUrlAsync(safeNextPath(request.query.next), undefined, {});
    return reply.redirect(url, 302);
  });

  route(
    completeSignInCall,
    {
      bodyLimit: SAML_ACS_BODY_LIMIT,
      // Every failure here is a browser on a form post: send it to the failure page, never JSON.
      // fastify awaits a returned promise here as from any handler; the option's type says void.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      async errorHandler(error, request, reply) {
        const reason = (error instanceof SignInRefused ? error.message : (error.code ?? error.name)).slice(
          0,
          200,
        );
        request.log.warn({ reason }, 'sign-in refused');
        // Audited without the SAML document; an audit failure must not change where the browser goes.
        if (!(error instanceof SignInRefused && error.audited)) {
          await recordAudit(ctx.db, {
            action: 'signin',
            outcome: 'failure',
            clientAddress: request.ip,
            details: { reason },
          }).catch((auditError: unknown) => request.log.error({ err: auditError }, 'audit write failed'));
        }
        return reply.redirect(error instanceof SignInRefused ? error.page : routes.authFailure, 303);
      },
    },
    async (request, reply) => {
      const result = await completeSignIn(ctx, {
        samlResponse: request.body.SAMLResponse,
        relayState: request.body.RelayState,
        previousSession: request.session,
        browserHash: signInBrowserHash(request, ctx.session),
        clientAddress: request.ip,
        userAgent: String(request.headers['user-agent'] ?? ''),
      });
      if ('stepUp' in result) {
        request.log.info('sign-in stepped up');
        return reply.redirect(result.stepUp, 303);
      }
      setSessionCookie(reply, ctx.session, result.rawSessionId, result.expiresAt);
      request.log.info('sign-in completed');
      return reply.redirect(result.next, 303);
    },
  );

  route(getSamlMetadata, {}, async (_request, reply) =>
    reply
      .type('application/samlmetadata+xml; charset=utf-8')
      .send(
        serviceProviderMetadata(
          serviceProvider(),
          ctx.keys.sp.certPem,
          spEndpoints(ctx.config.publicUrl).sloUrl,
        ),
      ),
  );

  // The SLO endpoint the metadata advertises. No automatic HEAD twin: it ends sessions.
  route(singleLogout, { exposeHeadRoute: false }, async (request, reply) => {
    const rawQuery = request.raw.url?.split('?')[1] ?? '';
    const sp = createServiceProvider(ctx.config, ctx.db, ctx.keys.sp, ctx.idp, { consumedLater: true });
    if (request.query.SAMLResponse !== undefined && request.query.SAMLRequest === undefined) {
      const { next, problem } = await acceptLogoutResponse(ctx, sp, request.query, rawQuery);
      if (problem)
        request.log.warn({ reason: problem }, 'single logout: the IdP’s LogoutResponse not accepted');
      return reply.redirect(next, 302);
    }
    try {
      const next = await answerLogoutRequest(ctx, sp, request.query, rawQuery, request.ip);
      clearSessionCookie(reply, ctx.session);
      request.log.info('single logout from the IdP');
      return reply.redirect(next, 302);
    } catch (error) {
      if (!(error instanceof LogoutRefused)) throw error;
      request.log.warn({ reason: error.message }, 'single logout refused');
      await recordAudit(ctx.db, {
        action: 'signout',
        outcome: 'failure',
        clientAddress: request.ip,
        details: { initiatedBy: 'idp', reason: error.message },
      });
      throw new AppError(
        'badRequest',
        'This logout request was not sent by the identity provider the portal trusts.',
      );
    }
  });

  // No automatic HEAD twin: a HEAD request must never run the sign-out.
  route(signOut, { exposeHeadRoute: false }, async (request, reply) => {
    // A plain GET by the spec: the custom header keeps other sites from signing people out.
    if (request.headers['x-pra-api-call'] !== 'true') throw new AppError('forbidden', messages.forbidden);
    const redirectTo = await endSession(ctx, serviceProvider(), request.session, request.account, request.ip);
    clearSessionCookie(reply, ctx.session);
    return redirectTo ? { redirectTo } : {};
  });
};
