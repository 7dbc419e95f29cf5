import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Where integrators read the API description. */
export const OPENAPI_PATH = '/api/openapi.json';

/** The body of every refused /api call (see http/errors.ts). */
const errorEnvelope = z
  .object({ errors: z.array(z.string()).min(1) })
  .describe('The call was refused; each entry is a message for people');

const zodTransform = createJsonSchemaTransform({ skipList: [] });
type TransformInput = Parameters<typeof zodTransform>[0];

/** What a route without a zod response schema answers (text, a redirect or nothing). */
function plainSuccess(url: string): Record<string, unknown> {
  const text = { description: 'Plain text', content: { 'text/plain': { schema: { type: 'string' } } } };
  const redirect = { description: 'A redirect (Location) for the browser', type: 'null' };
  if (url.endsWith('/saml/metadata')) {
    return { 200: { description: 'SAML metadata', content: { 'application/samlmetadata+xml': {} } } };
  }
  if (url === OPENAPI_PATH) {
    return { 200: { description: 'This document', content: { 'application/json': { schema: {} } } } };
  }
  return /\/saml\/(login|logout|acs)/.test(url) ? { 302: redirect, 303: redirect } : { 200: text };
}

/**
 * The OpenAPI 3.1 description, generated from the zod schemas the routes validate with, so it
 * cannot drift from them. Only /api routes are described (pages, the IdP's and the dev mailbox
 * are for browsers); each gets the `{ errors: [...] }` envelope for 4xx and 5xx answers. Must be
 * registered before the routes: @fastify/swagger collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'PRA Portal API',
        version: '1',
        description:
          'The JSON API of the privileged remote access portal. State-changing calls need the session cookie and the X-CSRF-Token header from GET /api/csrf.',
      },
      servers: [{ url: publicUrl }],
    },
    transform(input: TransformInput) {
      if (!input.url.startsWith('/api/')) return { schema: { hide: true }, url: input.url };
      const schema = input.schema ?? {};
      const response = (schema.response ?? {}) as Record<string, unknown>;
      const described = zodTransform({
        ...input,
        schema: { ...schema, response: { ...response, '4XX': errorEnvelope, '5XX': errorEnvelope } },
      });
      const out = described.schema as { response: Record<string, unknown> };
      if (!Object.keys(response).some((code) => /^[23]/.test(code))) {
        out.response = { ...plainSuccess(input.url), ...out.response };
      }
      return described;
    },
  });
  app.get(OPENAPI_PATH, async (_request, reply) => reply.type('application/json').send(app.swagger()));
}
