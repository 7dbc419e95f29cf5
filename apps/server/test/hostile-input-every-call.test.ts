// Every operation of the served OpenAPI document, called by each kind of signed-in person with
// hostile text where the operation takes text: a NUL character (PostgreSQL cannot store it), a lone
// UTF-16 surrogate, and a very long string, in each path parameter, each query parameter and each
// string of the JSON body (one field at a time, the others plausible, so the call gets past its
// first check), then 30 copies of one such call at once. No answer may be a 5xx, and every refusal
// is the `{ errors: [...] }` envelope: a new call cannot slip past the rules written for the old
// ones (NUL and surrogates: nul-characters.test.ts, lone-surrogates.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from './support/databases';
import { createAccount, signInAs } from './support/sign-in';
import { createTestApp, type TestClient, type TestApp } from './support/test-app';
import { addOrganization, assignBrm } from './support/world';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  minimum?: number;
  minItems?: number;
};
interface Operation {
  operationId?: string;
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const HOSTILE = { nul: 'a\u0000b', surrogate: 'x\ud800', long: 'y'.repeat(100_000) } as const;
const UUID = '00000000-0000-4000-8000-000000000000';
/** Calls that end the caller's session or sign someone in: left to their own tests. */
const SKIPPED = new Set(['/api/saml/logout', '/api/saml/acs', '/api/saml/slo', '/api/saml/login/standard']);

/** A plausible value for `schema`, with `text` where a string goes (`text` undefined: a plain one). */
function sample(
  schema: Schema | undefined,
  text: string | undefined,
  components: Record<string, Schema>,
): unknown {
  if (!schema) return text ?? 'abc';
  if (schema.$ref) return sample(components[schema.$ref.split('/').at(-1)!], text, components);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum.find((v) => v !== null) ?? null;
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return sample(options.find((o) => o.type !== 'null') ?? options[0], text, components);
  if (schema.allOf) return sample(schema.allOf[0], text, components);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s, text, components)]),
      );
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        sample(schema.items, text, components),
      );
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      if (text !== undefined) return text;
      if (schema.format === 'uuid') return UUID;
      if (schema.format === 'email') return 'someone@example.test';
      if (schema.format === 'date') return '2030-01-01';
      if (schema.format === 'date-time') return '2030-01-01T00:00:00.000Z';
      return 'abc';
  }
}

/** Each body with hostile `text` in one string leaf at a time (the rest plausible). */
function bodiesWith(schema: Schema | undefined, text: string, components: Record<string, Schema>): unknown[] {
  const plain = sample(schema, undefined, components);
  const bodies: unknown[] = [sample(schema, text, components)];
  const walk = (value: unknown, set: (v: unknown) => unknown) => {
    if (typeof value === 'string') bodies.push(set(text));
    else if (Array.isArray(value))
      value.forEach((v: unknown, i) =>
        walk(v, (nv) => set((value as unknown[]).map((x, j) => (j === i ? nv : x)))),
      );
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, (nv) => set({ ...value, [k]: nv }));
  };
  walk(plain, (v) => v);
  return bodies;
}

describe.each(testDatabaseKinds)('hostile text in every call on %s', (kind) => {
  let t: TestApp;
  const callers: Record<string, TestClient> = {};
  let operations: { method: string; path: string; op: Operation }[] = [];
  let components: Record<string, Schema> = {};

  beforeAll(async () => {
    t = await createTestApp(kind, { IDP: 'builtin' });
    const org = await addOrganization(t, 'Hostile Org', ['hostile.example']);
    await createAccount(t, { username: 'hadmin', type: 'employee', isAdmin: true });
    const brm = await createAccount(t, { username: 'hbrm', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brm, org);
    await createAccount(t, { username: 'hvendor' });
    const auditor = await createAccount(t, { username: 'hauditor', type: 'employee' });
    await t.ctx.db.updateTable('accounts').set({ is_auditor: true }).where('id', '=', auditor).execute();
    for (const name of ['hadmin', 'hbrm', 'hvendor', 'hauditor']) callers[name] = await signInAs(t, name);
    const spec = (await callers.hadmin!.get('/api/openapi.json')).json<{
      paths: Record<string, Record<string, Operation>>;
      components?: { schemas?: Record<string, Schema> };
    }>();
    components = spec.components?.schemas ?? {};
    operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
  }, 120_000);
  afterAll(async () => t?.close());

  /** How many answers had each status, for the log line (how deep the calls got). */
  const statuses = new Map<number, number>();

  /** Sends one call; a 5xx or a refusal outside the envelope is returned as a line to report. */
  async function attempt(
    client: TestClient,
    method: string,
    url: string,
    body: unknown,
  ): Promise<string | null> {
    const res = await t.app.inject({
      method: method as 'POST',
      url,
      headers: client.headers({ 'x-csrf-token': client.csrfToken, 'content-type': 'application/json' }),
      ...(method === 'GET' || method === 'DELETE' ? {} : { payload: JSON.stringify(body ?? {}) }),
    });
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    const short = `${method} ${url.slice(0, 120)} ${JSON.stringify(body)?.slice(0, 120) ?? ''}`;
    if (res.statusCode >= 500) return `${res.statusCode} ${short}: ${res.body.slice(0, 200)}`;
    if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
      const { errors } = res.json<{ errors?: unknown }>();
      if (!Array.isArray(errors) || errors.some((e) => typeof e !== 'string'))
        return `${res.statusCode} without the envelope ${short}: ${res.body.slice(0, 200)}`;
    }
    return null;
  }

  it('never answers 5xx, in any parameter or body field, to any caller', async () => {
    expect(operations.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let sent = 0;
    for (const { method, path, op } of operations) {
      if (SKIPPED.has(path)) continue;
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query');
      for (const [textName, text] of Object.entries(HOSTILE)) {
        const encoded = encodeURIComponent(text === HOSTILE.surrogate ? 'x\uFFFD' : text).slice(0, 20_000);
        // Path parameters, then each query parameter alone, then the body's strings one by one.
        const urls = [path.replace(/\{[^}]+\}/g, encoded)];
        const plainPath = path.replace(/\{[^}]+\}/g, UUID);
        for (const p of query) urls.push(`${plainPath}?${p.name}=${encoded}`);
        if (textName === 'surrogate') urls.push(`${plainPath}?filter=%ED%A0%80`);
        const bodies = bodySchema ? bodiesWith(bodySchema, text, components) : [undefined];
        for (const client of Object.values(callers)) {
          for (const url of urls) {
            const failure = await attempt(
              client,
              method,
              url,
              bodySchema ? sample(bodySchema, undefined, components) : undefined,
            );
            sent += 1;
            if (failure) failures.push(failure);
          }
          for (const body of bodies.slice(0, 12)) {
            const failure = await attempt(client, method, plainPath, body);
            sent += 1;
            if (failure) failures.push(failure);
          }
        }
      }
    }
    const tally = [...statuses].sort(([a], [b]) => a - b).map(([code, n]) => `${code}: ${n}`);
    console.info(
      `hostile-input-every-call (${kind}): ${operations.length} operations, ${sent} calls (${tally.join(', ')})`,
    );
    expect(failures).toEqual([]);
  }, 600_000);

  it('answers 30 identical hostile calls at once each with a 4xx, never a 5xx', async () => {
    const targets = operations.filter((o) => o.method !== 'GET' && !SKIPPED.has(o.path)).slice(0, 40);
    const failures: string[] = [];
    for (const { method, path, op } of targets) {
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const url = path.replace(/\{[^}]+\}/g, UUID);
      const body = bodySchema ? sample(bodySchema, HOSTILE.nul, components) : undefined;
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => attempt(callers.hadmin!, method, url, body)),
      );
      failures.push(...answers.filter((a): a is string => a !== null));
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
