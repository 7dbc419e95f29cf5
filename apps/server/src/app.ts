import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerFactory,
} from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { activationRoutes } from './features/activation/routes';
import { administrationRoutes } from './features/administration/routes';
import { approvalsRoutes } from './features/approvals/routes';
import { approvalRoutingRoutes } from './features/approval-routing/routes';
import { accessReviewRoutes } from './features/access-reviews/routes';
import { activityReviewRoutes } from './features/activity-review/routes';
import { departureRoutes } from './features/departure/routes';
import { manageUsersRoutes } from './features/manage-users/routes';
import { terminateVendorsRoutes } from './features/terminate-vendors/routes';
import { authenticatorRoutes } from './features/authenticator/routes';
import { securityKeyRoutes } from './features/security-keys/routes';
import { devMailboxRoutes } from './features/dev-mailbox/routes';
import { governanceDevRoutes } from './features/governance/dev-routes';
import { governanceAdminRoutes } from './features/governance/admin-routes';
import { policyAttestationRoutes } from './features/policy-attestation/routes';
import { reportRoutes } from './features/reports/routes';
import { recoveryRoutes } from './features/recovery/routes';
import { registrationRoutes } from './features/registration/routes';
import { sessionRoutes } from './features/session/routes';
import { profileRoutes } from './features/profile/routes';
import { accessRoutes } from './features/access/routes';
import { systemRoutes } from './features/system/routes';
import type { AppContext } from './platform/app-context';
import { messages } from './platform/app-error';
import { failureLogs, registerErrorHandling } from './http/errors';
import { registerApiCompression } from './http/compression';
import { registerLoadShedding } from './http/load-shedding';
import { registerObservability } from './http/observability';
import { registerOpenApi } from './http/openapi';
import { registerProbes } from './http/probes';
import { isApiRequest } from './http/request-path';
import { registerSecurityHeaders, securityHeaders } from './http/security-headers';
import { registerServerAssets } from './http/server-page';
import { recordServedRoutes } from './http/served-methods';
import { sessionPlugin } from './http/session-plugin';
import { portalValidatorCompiler } from './http/validation';
import { registerWebApp } from './http/web-app';
import { builtinIdpRoutes } from './idp/routes';
import { lazyChildLogger, loggerOptions, registerRequestLog } from './platform/logger';

/** Largest request body accepted unless a route says otherwise. */
const DEFAULT_BODY_LIMIT = 100 * 1024;

/** A hop count becomes "trust the n nearest hops"; addresses and CIDRs pass through. */
function trustProxy(setting: false | number | string[]) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/**
 * Errors fastify raises before routing (e.g. a malformed URL) leave in the same envelope, with
 * the security headers (no hook runs for them).
 */
function sendFrameworkError(headers: Record<string, string>) {
  return (_error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    void reply
      .headers(headers)
      .status(400)
      .type('application/json; charset=utf-8')
      .send({ errors: [messages.badRequest] });
  };
}

/** Builds the whole portal as a fastify app; the process entry and the tests both call this. */
export async function buildApp(
  ctx: AppContext,
  options: {
    logger?: boolean;
    logStream?: NodeJS.WritableStream;
    /** The listener opened at the start of the process (portal.ts); tests use inject or listen. */
    serverFactory?: FastifyServerFactory;
  } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    logger: options.logger === false ? false : loggerOptions(ctx.config.LOG_LEVEL, options.logStream),
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: trustProxy(ctx.config.TRUST_PROXY),
    return503OnClosing: true,
    frameworkErrors: sendFrameworkError(securityHeaders(ctx.config.insecureCookies)),
    forceCloseConnections: 'idle',
    // registerRequestLog writes one line per request instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
  }).withTypeProvider<ZodTypeProvider>();
  registerRequestLog(app);
  app.setValidatorCompiler(portalValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(
    app,
    failureLogs(
      ctx.dbKind === 'pglite' ? `the disk of DATA_DIR (${resolve(ctx.config.DATA_DIR)})` : undefined,
    ),
  );
  // Before any route: a path served with other methods answers 405 with Allow (web-app.ts).
  recordServedRoutes(app);
  // First of the request hooks: a shed request costs no database work.
  const shedding = await registerLoadShedding(app, ctx);
  registerObservability(app);

  registerSecurityHeaders(app, ctx.config.insecureCookies);
  await app.register(fastifyCookie);

  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiRequest(request)) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  registerApiCompression(app);

  await registerOpenApi(app, ctx);
  registerProbes(app, ctx, shedding.settled);
  registerServerAssets(app);
  await app.register(sessionPlugin, ctx);
  await app.register(sessionRoutes, ctx);
  await app.register(profileRoutes, ctx);
  await app.register(accessRoutes, ctx);
  await app.register(approvalsRoutes, ctx);
  await app.register(approvalRoutingRoutes, ctx);
  await app.register(accessReviewRoutes, ctx);
  await app.register(departureRoutes, ctx);
  await app.register(manageUsersRoutes, ctx);
  await app.register(terminateVendorsRoutes, ctx);
  await app.register(registrationRoutes, ctx);
  await app.register(activationRoutes, ctx);
  await app.register(recoveryRoutes, ctx);
  await app.register(authenticatorRoutes, ctx);
  await app.register(securityKeyRoutes, ctx);
  await app.register(devMailboxRoutes, ctx);
  await app.register(governanceDevRoutes, ctx);
  await app.register(systemRoutes, ctx);
  await app.register(administrationRoutes, ctx);
  await app.register(governanceAdminRoutes, ctx);
  await app.register(activityReviewRoutes, ctx);
  await app.register(policyAttestationRoutes, ctx);
  await app.register(reportRoutes, ctx);
  if (ctx.config.idp === 'builtin') await app.register(builtinIdpRoutes, ctx);
  await registerWebApp(app, ctx);
  return app;
}
