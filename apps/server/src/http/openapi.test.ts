import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { OPENAPI_PATH } from './openapi';

/** Redocly's command line (a dev dependency). */
const redoclyCli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

/** Every route the app serves, as `METHOD path`, read back from fastify's route tree. */
function servedRoutes(tree: string): string[] {
  const stack: string[] = [];
  const found: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([\s│├└─]*)(\S.*?) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const segment = match[2] ?? '';
    const path =
      depth === 0 ? segment : `${stack[depth - 1] === '/' ? '/' : (stack[depth - 1] ?? '')}${segment}`;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ')) found.push(`${method} ${path}`);
  }
  return found;
}

interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

describe('the OpenAPI description', () => {
  let t: TestApp;
  let document: { openapi: string; paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    document = res.json();
  });
  afterAll(async () => t?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every /api route the app serves, and nothing outside /api', () => {
    const api = servedRoutes(t.app.printRoutes({ commonPrefix: false }))
      .filter((route) => / \/api\//.test(route) && !route.startsWith('HEAD '))
      .map((route) => route.replace(/:(\w+)/g, '{$1}'));
    expect(api.length).toBeGreaterThan(15);
    const described = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(described.sort()).toEqual(api.sort());
  });

  it('gives each operation a success answer and the error envelope for 4xx and 5xx', () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method} ${path}`;
        expect(
          Object.keys(operation.responses).some((code) => /^[23]/.test(code)),
          where,
        ).toBe(true);
        for (const code of ['4XX', '5XX']) {
          expect(operation.responses[code]?.content?.['application/json']?.schema, where).toMatchObject({
            type: 'object',
            properties: { errors: { type: 'array', items: { type: 'string' } } },
            required: ['errors'],
          });
        }
      }
    }
  });

  it('carries the request schemas the routes validate with', () => {
    const submit = document.paths['/api/user/new/submit']?.post;
    expect(Object.keys(submit?.requestBody?.content['application/json']?.schema as object)).toContain(
      'properties',
    );
    const body = submit?.requestBody?.content['application/json']?.schema as { properties: object };
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['firstName', 'lastName', 'email']));
    const domain = document.paths['/api/orgs/email-domain']?.get;
    expect(domain?.parameters?.some((p) => p.in === 'query')).toBe(true);
  });
});

describe('the OpenAPI description under Redocly’s recommended rules', () => {
  it('declares the security schemes, an id, summary and tag per operation, and lints with 0 errors', async () => {
    const t = await createTestApp('pglite');
    try {
      const document = (await t.app.inject({ method: 'GET', url: OPENAPI_PATH })).json<{
        components: { securitySchemes: Record<string, { type: string; in: string }> };
        paths: Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] }>>;
      }>();
      expect(Object.values(document.components.securitySchemes).map((s) => `${s.type} ${s.in}`)).toEqual([
        'apiKey cookie',
        'apiKey header',
        'http undefined',
      ]);
      expect(document.components.securitySchemes.serviceToken).toMatchObject({
        type: 'http',
        scheme: 'bearer',
      });
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const { operationId, summary, tags, security } = operation as typeof operation & {
            security?: unknown;
          };
          expect([operationId, summary, tags?.length, Array.isArray(security)], `${method} ${path}`).toEqual([
            expect.any(String),
            expect.any(String),
            1,
            true,
          ]);
        }
      }
      expect(document.paths['/api/csrf']?.get).toMatchObject({ security: [] });
      expect(document.paths['/api/user']?.get).toMatchObject({ security: [{ sessionCookie: [] }] });
      expect(document.paths['/api/user/new/submit']?.post).toMatchObject({
        security: [{ sessionCookie: [], csrfToken: [] }],
      });
      // The admin and BRM calls accept a service token with their scope; sign-in and profile never.
      expect(document.paths['/api/admin/organizations']?.post).toMatchObject({
        security: [{ sessionCookie: [], csrfToken: [] }, { serviceToken: ['organizations:write'] }],
      });
      expect(document.paths['/api/admin/audit']?.get).toMatchObject({
        security: [{ sessionCookie: [] }, { serviceToken: ['audit:read'] }],
      });
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const security = JSON.stringify((operation as { security?: unknown }).security);
          const where = `${method} ${path}`;
          if (/^\/api\/(user|saml|authenticator|csrf|admin\/service-tokens)/.test(path))
            expect(security, where).not.toContain('serviceToken');
          else if (/^\/api\/(admin|brm)\//.test(path)) expect(security, where).toContain('serviceToken');
        }
      }
      const metadata = document.paths['/api/saml/metadata']?.get as {
        responses: Record<string, { content?: object }>;
      };
      expect(Object.keys(metadata.responses['200']?.content ?? {})).toEqual(['application/samlmetadata+xml']);
      const dir = mkdtempSync(join(tmpdir(), 'pra-openapi-'));
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const result = spawnSync(
        process.execPath,
        [redoclyCli, 'lint', '--extends=recommended', '--format=json', file],
        {
          encoding: 'utf8',
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      );
      rmSync(dir, { recursive: true, force: true });
      const report = JSON.parse(result.stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; severity: string; message: string }>;
      };
      expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      await t.close();
    }
  });
});
