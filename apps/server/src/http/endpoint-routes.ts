import {
  isStateChanging,
  isMediaAnswer,
  isRedirectAnswer,
  type BodyOf,
  type Callers,
  type Endpoint,
  type ParamsOf,
  type QueryOf,
  type ReplyOf,
} from '@pra/contracts/endpoint';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../platform/app-context';
import type { Account } from '../platform/db-schema';
import { createGuards } from './guards';
import type { Session } from './session';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract endpoint the route serves (the OpenAPI description reads it). */
    endpoint?: Endpoint;
    /**
     * The call is long work: a CSV download, read in batches for as long as the file takes (or
     * waiting for an export worker first). Load shedding leaves it out of the backlog it measures.
     */
    longWork?: boolean;
  }
}

/**
 * What a signed-in endpoint's handler is sure of: its guards refused everyone else. A call a
 * service token may make has no session then (http/bearer.ts): the account is the token's admin.
 */
interface SignedIn<E extends Endpoint> {
  account: Account;
  session: E['tokenScope'] extends string ? Session | null : Session;
}

/** The request an endpoint's handler gets: its validated parts, and the account where signed in. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Body: BodyOf<E>;
  Querystring: QueryOf<E>;
  Params: ParamsOf<E>;
}> &
  (E['callers'] extends 'anyone' ? unknown : SignedIn<E>);

/** A handler answers the success body, or the reply it has sent itself (text, a redirect, a file). */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<ReplyOf<E> | FastifyReply>;

/** The state-changing calls an auditor may make: they change only the caller's own session. */
const auditorMayCall = new Set(['extendSession']);

/**
 * The signed-in calls a vendor whose Acceptable Use Policy acceptance is overdue may still make
 * (GOVERNANCE.md §8.2): the attestation's own, the current user, the session and logout.
 */
export const callsWhileAupOverdue = new Set([
  'getMyAup',
  'acceptAup',
  'getCurrentUser',
  'extendSession',
  'signOut',
  'singleLogout',
  'getCsrfToken',
  'getAuthStatus',
]);

/** What only the server knows about a route: how it is loaded, limited and logged. */
export interface ServerOptions {
  /** Flags for the session and observability plugins (the endpoint's own come from it). */
  config?: { organizations?: boolean; audits?: boolean };
  bodyLimit?: number;
  exposeHeadRoute?: boolean;
  errorHandler?: RouteOptions['errorHandler'];
}

/**
 * Registers routes from contract endpoints: the path, method and schemas are the endpoint's; the
 * guards follow from its callers (signed in: 401, then the kind: 403, as `onRequest` hooks, before
 * the body is read); calls that change accounts wait for the identity service (a `preHandler`,
 * after validation and the CSRF check).
 */
export function endpointRouter(app: FastifyInstance, ctx: AppContext) {
  const guards = createGuards(ctx);
  const guardsOf: Record<Callers, onRequestHookHandler[]> = {
    anyone: [],
    signedIn: [guards.requireLogin],
    vendor: [guards.requireLogin, guards.requireVendor],
    vendorOrManager: [guards.requireLogin, guards.requireVendorOrManager],
    brmOrAdmin: [guards.requireLogin, guards.requireBrmOrAdmin],
    employeeBrm: [guards.requireLogin, guards.requireEmployeeBrm],
    admin: [guards.requireLogin, guards.requireAdmin],
    adminOrAuditor: [guards.requireLogin, guards.requireAdminOrAuditor],
  };

  return function route<E extends Endpoint>(
    endpoint: E,
    options: ServerOptions,
    handler: EndpointHandler<E>,
  ): void {
    // The auditor is read-only: a signed-in call that changes something refuses them too (keeping
    // their own session alive is no change).
    const refusesAuditor =
      endpoint.callers !== 'anyone' &&
      isStateChanging(endpoint.method) &&
      !auditorMayCall.has(endpoint.operationId);
    const onRequest = [
      ...guardsOf[endpoint.callers],
      ...(refusesAuditor ? [guards.refuseAuditor] : []),
      ...(endpoint.callers !== 'anyone' && !callsWhileAupOverdue.has(endpoint.operationId)
        ? [guards.refuseAupOverdue]
        : []),
    ];
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      schema: {
        ...(endpoint.params ? { params: endpoint.params } : {}),
        ...(endpoint.query ? { querystring: endpoint.query } : {}),
        ...(endpoint.body ? { body: endpoint.body } : {}),
        response: jsonAnswers(endpoint),
      },
      ...(onRequest.length > 0 ? { onRequest } : {}),
      ...(endpoint.identityService ? { preHandler: [guards.requireIdentityService] } : {}),
      config: {
        ...options.config,
        endpoint,
        ...(endpoint.csrf === false ? { csrf: false } : {}),
        ...(isDownload(endpoint) ? { longWork: true } : {}),
      },
      ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      ...(options.exposeHeadRoute === undefined ? {} : { exposeHeadRoute: options.exposeHeadRoute }),
      ...(options.errorHandler ? { errorHandler: options.errorHandler } : {}),
      // The guards make the signed-in request's account and session present (EndpointRequest).
      handler: handler as unknown as RouteHandlerMethod,
    });
  };
}

/** Whether the endpoint answers a CSV file: a download, streamed as it is read. */
function isDownload(endpoint: Endpoint): boolean {
  const answer = endpoint.response[200];
  return answer !== undefined && isMediaAnswer(answer) && answer.mediaType === 'text/csv';
}

/** The answers the serializer checks: the JSON ones (text, files and redirects are sent as they are). */
function jsonAnswers(endpoint: Endpoint): Record<number, z.ZodType> {
  const answers: Record<number, z.ZodType> = {};
  for (const [status, answer] of Object.entries(endpoint.response)) {
    if (answer && !isMediaAnswer(answer) && !isRedirectAnswer(answer)) answers[Number(status)] = answer;
  }
  return answers;
}
