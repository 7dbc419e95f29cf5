import * as calls from '@pra/contracts/endpoints/policy-attestation';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../platform/app-context';
import { endpointRouter } from '../../http/endpoint-routes';
import {
  acceptAup,
  aupReportCsv,
  aupReportPage,
  csvFileName,
  myAup,
  notAcceptedCsv,
  notAcceptedPage,
  publish,
  versions,
} from './attestation';

function sendCsv(reply: FastifyReply, name: string, body: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

/** The Acceptable Use Policy attestation (GOVERNANCE.md §8). */
export const policyAttestationRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  const actorOf = (account: { id: string; username: string }) => ({
    id: account.id,
    username: account.username,
  });

  route(calls.getMyAup, {}, async (request) => myAup(ctx, request.account));

  route(calls.acceptAup, {}, async (request) => {
    await acceptAup(ctx, request.account, request.body.version, request.ip);
    return { success: true };
  });

  route(calls.listAupVersions, {}, async () => versions(ctx));

  route(calls.publishAupVersion, {}, async (request) =>
    publish(ctx, actorOf(request.account), request.body, request.ip),
  );

  route(calls.listAupNotAccepted, {}, async (request) => notAcceptedPage(ctx, request.query));

  route(calls.exportAupNotAccepted, {}, async (request, reply) =>
    sendCsv(
      reply,
      csvFileName(ctx, 'aup-not-accepted'),
      await notAcceptedCsv(ctx, actorOf(request.account), request.query.filter ?? '', request.ip),
    ),
  );

  route(calls.getAupReport, {}, async (request) => aupReportPage(ctx, request.query));

  route(calls.exportAupReport, {}, async (request, reply) =>
    sendCsv(
      reply,
      csvFileName(ctx, 'acceptable-use-policy'),
      await aupReportCsv(ctx, actorOf(request.account), request.query.filter ?? '', request.ip),
    ),
  );
};
