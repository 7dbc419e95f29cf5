import { CLIENT_LOG_MAX_CHARS } from '@pra/contracts';
import { getServiceCheck, getSystemMessage, reportClientFailure } from '@pra/contracts/endpoints/system';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import { enforceRateLimit } from '../../identity/rate-limit';
import { redactUrl } from '../../platform/logger';
import { readSystemMessage } from '../../identity/system-message';
import { serviceCheck } from './service-check';

export const systemRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);

  route(getSystemMessage, {}, async (request) => readSystemMessage(ctx.db, request.account !== null));

  route(
    reportClientFailure,
    // JSON overhead around the longest accepted message, escaped characters included.
    { bodyLimit: CLIENT_LOG_MAX_CHARS * 6 + 100 },
    async (request, reply) => {
      await enforceRateLimit(ctx.db, `client-log:${request.ip}`, {
        limit: ctx.config.CLIENT_LOG_PER_MINUTE,
        windowSeconds: 60,
      });
      request.log.warn(
        { clientError: redactUrl(request.body.errorMessage), accountId: request.account?.id ?? null },
        'client reported a failure',
      );
      return reply.status(204).send(null);
    },
  );

  route(getServiceCheck, {}, async (request, reply) => {
    const { ok, text } = await serviceCheck(ctx, request.account?.is_admin === true);
    return reply
      .status(ok ? 200 : 503)
      .type('text/plain; charset=utf-8')
      .send(text);
  });

  app.get('/example.csv', async (_request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="example.csv"')
      .header('cache-control', 'public, max-age=3600')
      .send('jane.doe@vendor.example\njohn.smith@vendor.example\n'),
  );
};
