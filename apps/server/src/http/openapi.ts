import fastifySwagger from '@fastify/swagger';
import {
  api,
  isMediaAnswer,
  isRedirectAnswer,
  isStateChanging,
  tagDescriptions,
  type Endpoint,
  type Tag,
} from '@pra/contracts';
import { getOpenApi } from '@pra/contracts/endpoints/system';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../platform/app-context';
import { endpointRouter } from './endpoint-routes';

/** Where integrators read the API description. */
export const OPENAPI_PATH = api.openapi;

/** The body of every refused /api call (see http/errors.ts). */
const errorEnvelope = z
  .object({ errors: z.array(z.string()).min(1) })
  .describe('The call was refused; each entry is a message for people');

const zodTransform = createJsonSchemaTransform({ skipList: [] });
type TransformInput = Parameters<typeof zodTransform>[0];

/** The security schemes' names in the document. */
const SESSION = 'sessionCookie';
const CSRF = 'csrfToken';
const BEARER = 'serviceToken';

/**
 * What a call needs: nothing (a read anyone may make, or a post that takes no token), the session
 * cookie (a signed-in read), or the cookie and the CSRF token (every other state-changing call,
 * anonymous ones too: the token belongs to the session GET /api/csrf opens). A call a service
 * token may make also accepts the bearer token instead, with the scope it names (no cookie, no
 * CSRF token).
 */
export function securityOf(endpoint: Endpoint): Array<Record<string, string[]>> {
  const bearer = endpoint.tokenScope ? [{ [BEARER]: [endpoint.tokenScope] }] : [];
  if (isStateChanging(endpoint.method) && endpoint.csrf !== false)
    return [{ [SESSION]: [], [CSRF]: [] }, ...bearer];
  return endpoint.callers === 'anyone' ? [] : [{ [SESSION]: [] }, ...bearer];
}

/** The answers that are not JSON: a text or file of their media type, or a redirect. */
function otherAnswers(endpoint: Endpoint): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(endpoint.response)) {
    if (!answer) continue;
    if (isMediaAnswer(answer)) {
      const schema = answer.mediaType === 'application/json' ? { type: 'object' } : { type: 'string' };
      answers[status] = { description: answer.description, content: { [answer.mediaType]: { schema } } };
    } else if (isRedirectAnswer(answer)) {
      answers[status] = {
        description: answer.description,
        type: 'null',
        headers: { Location: { type: 'string', description: 'Where the browser goes' } },
      };
    }
  }
  return answers;
}

/**
 * The OpenAPI 3.1 description, generated from the contract endpoints the routes are registered
 * from (http/endpoint-routes.ts), so it cannot drift from them: each operation's id, summary, tag,
 * security, parameters, body and answers. Only /api routes are described (pages, the IdP's and the
 * dev mailbox are for browsers); each gets the `{ errors: [...] }` envelope for 4xx and 5xx
 * answers. Must be registered before the routes: @fastify/swagger collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'PRA Portal API',
        version: '1',
        description:
          'The JSON API of the privileged remote access portal. In the browser, state-changing calls need the session cookie, the X-CSRF-Token header from GET /api/csrf and `X-PRA-API-Call: true`. Automation calls the admin and BRM operations that list the `serviceToken` scheme with `Authorization: Bearer pra_…` (a service token an admin made under Administration, with the scope the operation names) and no cookie or CSRF token.',
        license: { name: 'Proprietary: the hospital’s own software', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: ctx.config.publicUrl }],
      tags: Object.entries(tagDescriptions).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          [SESSION]: {
            type: 'apiKey',
            in: 'cookie',
            name: ctx.session.cookieName,
            description: 'The session cookie, set by sign-in (or by GET /api/csrf for an anonymous session)',
          },
          [CSRF]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-CSRF-Token',
            description:
              'The session’s CSRF token from GET /api/csrf, sent with `X-PRA-API-Call: true` on every state-changing call',
          },
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'pra_ and 43 base64url characters',
            description:
              'A service token for automation, made by an admin under Administration → Service tokens. It acts as that admin, within its scopes (listed per operation); a wrong, revoked or expired token answers 401 with `WWW-Authenticate: Bearer error="invalid_token"`, a missing scope 403.',
          },
        },
      },
    },
    transform(input: TransformInput) {
      const endpoint = input.route.config?.endpoint;
      if (!input.url.startsWith('/api/') || !endpoint) return { schema: { hide: true }, url: input.url };
      const schema = input.schema ?? {};
      const response = (schema.response ?? {}) as Record<string, unknown>;
      const described = zodTransform({
        ...input,
        schema: {
          ...schema,
          ...(endpoint.headers ? { headers: endpoint.headers } : {}),
          response: { ...response, '4XX': errorEnvelope, '5XX': errorEnvelope },
        },
      });
      const out = described.schema as Record<string, unknown> & { response: Record<string, unknown> };
      out.response = { ...otherAnswers(endpoint), ...out.response };
      out.operationId = endpoint.operationId;
      out.summary = endpoint.summary;
      out.tags = [endpoint.tag satisfies Tag];
      out.security = securityOf(endpoint);
      if (endpoint.bodyType) out.consumes = [endpoint.bodyType];
      return described;
    },
  });
  endpointRouter(app, ctx)(getOpenApi, {}, async (_request, reply) =>
    reply.type('application/json').send(app.swagger()),
  );
}
