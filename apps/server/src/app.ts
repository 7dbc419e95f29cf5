import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { activationRoutes } from './features/activation/routes';
import { administrationRoutes } from './features/administration/routes';
import { approvalsRoutes } from './features/approvals/routes';
import { devMailboxRoutes } from './features/dev-mailbox/routes';
import { registrationRoutes } from './features/registration/routes';
import { authRoutes } from './features/auth/routes';
import { sessionRoutes } from './features/session/routes';
import { userRoutes } from './features/user/routes';
import { systemRoutes } from './features/system/routes';
import type { AppContext } from './http/context';
import { messages, registerErrorHandling } from './http/errors';
import { isApiRequest } from './http/request-path';
import { registerServerAssets } from './http/server-page';
import { sessionPlugin } from './http/session-plugin';
import { registerWebApp } from './http/web-app';
import { builtinIdpRoutes } from './idp/routes';
import { loggerOptions } from './platform/logger';

/** Largest request body accepted unless a route says otherwise. */
const DEFAULT_BODY_LIMIT = 100 * 1024;

/** A hop count becomes "trust the n nearest hops"; addresses and CIDRs pass through. */
function trustProxy(setting: false | number | string[]) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/** Errors fastify raises before routing (e.g. a malformed URL) leave in the same envelope. */
function sendFrameworkError(_error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  void reply
    .status(400)
    .type('application/json; charset=utf-8')
    .send({ errors: [messages.badRequest] });
}

/** Builds the whole portal as a fastify app; the process entry and the tests both call this. */
export async function buildApp(
  ctx: AppContext,
  options: { logger?: boolean } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(ctx.config.LOG_LEVEL),
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: trustProxy(ctx.config.TRUST_PROXY),
    return503OnClosing: true,
    // Errors fastify raises before routing (e.g. a malformed URL) leave in the same envelope.
    frameworkErrors: sendFrameworkError,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(ctx.config.insecureCookies ? {} : { upgradeInsecureRequests: [] }),
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  });
  await app.register(fastifyCookie);

  app.addHook('onSend', async (request, reply) => {
    if (isApiRequest(request)) reply.header('cache-control', 'no-store');
  });

  registerServerAssets(app);
  await app.register(sessionPlugin, ctx);
  await app.register(sessionRoutes, ctx);
  await app.register(authRoutes, ctx);
  await app.register(userRoutes, ctx);
  await app.register(approvalsRoutes, ctx);
  await app.register(registrationRoutes, ctx);
  await app.register(activationRoutes, ctx);
  await app.register(devMailboxRoutes, ctx);
  await app.register(systemRoutes, ctx);
  await app.register(administrationRoutes, ctx);
  if (ctx.config.idp === 'builtin') await app.register(builtinIdpRoutes, ctx);
  await registerWebApp(app, ctx.config);
  return app;
}
