import fastifyFormbody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../platform/app-context';
import { ensureSession } from '../http/session-plugin';
import { registerIdpAssets } from './assets';
import { acceptAuthnRequest, AuthnRequestError } from './authn-request';
import { writeLoginState } from './login-state';
import { registerLoginRoutes } from './login-routes';
import { builtinIdpMetadata } from './metadata';
import { registerMfaRoutes } from './mfa-routes';
import { sendMessage } from './page-replies';
import { loadSchemaValidator } from './schema-validator';

/** Form posts of the IdP pages are tiny; anything bigger is not from them. */
const FORM_BODY_LIMIT = 8 * 1024;

/**
 * The built-in SAML IdP (standalone mode): metadata, SSO (HTTP-Redirect), the sign-in pages
 * (password, then TOTP enrolment or passcode) and the auto-post of the signed Response.
 */
export const builtinIdpRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  // Scoped to this plugin: the API stays JSON-only.
  await app.register(fastifyFormbody, { bodyLimit: FORM_BODY_LIMIT });
  registerIdpAssets(app);
  loadSchemaValidator();

  app.get('/idp/metadata', async (_request, reply) =>
    reply.type('application/samlmetadata+xml; charset=utf-8').send(builtinIdpMetadata(ctx)),
  );

  app.get('/idp/sso', async (request, reply) => {
    let pending;
    try {
      pending = await acceptAuthnRequest(ctx, request.url);
    } catch (error) {
      if (!(error instanceof AuthnRequestError)) throw error;
      // The reason is logged for operators; the request itself (a SAML document) is not.
      request.log.warn({ reason: error.message }, 'AuthnRequest refused');
      return sendMessage(
        ctx,
        reply,
        400,
        'Sign-in request refused',
        'The sign-in request could not be accepted. Please start again from PRA Portal.',
      );
    }
    const session = await ensureSession(ctx, request, reply);
    await writeLoginState(ctx.db, session, {
      ...pending,
      startedAt: ctx.clock.now().getTime(),
      stage: 'password',
    });
    return reply.redirect('/idp/login', 303);
  });

  registerLoginRoutes(app, ctx, FORM_BODY_LIMIT);
  registerMfaRoutes(app, ctx, FORM_BODY_LIMIT);
};
