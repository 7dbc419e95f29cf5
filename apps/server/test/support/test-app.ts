import {
  isStateChanging,
  pathWith,
  queryParams,
  type BodyInput,
  type Endpoint,
  type ParamsInput,
  type QueryInput,
  type ResultOf,
} from '@pra/contracts/endpoint';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import type { AppContext } from '../../src/platform/app-context';
import type { Clock } from '../../src/platform/clock';
import { readFileSync } from 'node:fs';
import type { KeyPair } from '../../src/platform/keys';
import { createAppContext, databaseTimeouts, type ContextParts } from '../../src/runtime';
import { createExportWorkers, type ExportWorkers } from '../../src/platform/export-workers';
import { openDatabase, type Db, type DbKind } from '../../src/platform/db';
import { createTestDatabase } from './databases';
import { setDirectoryProvisioning } from '../../src/store/provisioning';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** The PostgreSQL database's URL (undefined on PGlite). */
  databaseUrl: string | undefined;
  close(): Promise<void>;
}

/** Fixed test keys (test/fixtures), made once with a self-signed generator; never used outside tests. */
export function fixtureKeys(name: 'sp' | 'idp' | 'other'): KeyPair {
  const dir = new URL('../fixtures/', import.meta.url);
  return {
    privateKeyPem: readFileSync(new URL(`${name}.key`, dir), 'utf8'),
    certPem: readFileSync(new URL(`${name}.crt`, dir), 'utf8'),
  };
}

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/** The app's context for tests: fixture keys and secrets, a mail status that is always fine. */
export function testContext(
  config: Config,
  database: ContextParts['database'],
  clock?: Clock,
  longWorkDb?: Db,
  exportWorkers?: ExportWorkers | null,
): Promise<AppContext> {
  return createAppContext({
    config,
    database,
    sessionSecret: TEST_SECRET,
    keys: { sp: fixtureKeys('sp'), idp: config.idp === 'builtin' ? fixtureKeys('idp') : null },
    encryptionKey: 'test-encryption-key-test-encryption-key',
    mailStatus: async () => ({ ok: true, text: 'test mailer' }),
    ...(clock && { clock }),
    ...(longWorkDb && { longWorkDb }),
    ...(exportWorkers && { exportWorkers }),
  });
}

/**
 * The settings of an in-process test app, with `env` over them. A busy test machine lags (a worker
 * starved of CPU by the others shows event-loop delays past the shedding bound), and a test's
 * burst of requests (30 concurrent guesses) can queue for connections: shedding only where a test
 * asks for it (load-shedding.test.ts). For the same reason the database's waits are long here: on
 * a 2-core CI machine at a load of 15, the test of 30 concurrent calls failed
 * (hostile-input-every-call.test.ts, on Node 22 beside the journeys; its message was not kept),
 * most likely a 503 after the production default's 1 s wait for a pool connection. The production bounds are tested where
 * they are the subject
 * (database-hung.test.ts, database-faults.test.ts, load-shedding.test.ts set their own).
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/pra-test-unused',
    SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    SHED_MAX_POOL_WAITING: '0',
    DATABASE_CONNECTION_WAIT_MS: '30000',
    DATABASE_STATEMENT_TIMEOUT_MS: '30000',
    ...env,
  });
}

/** The whole portal on a fresh database, with settings overridden as a test needs. */
export async function createTestApp(
  kind: DbKind,
  env: Record<string, string> = {},
  options: {
    logStream?: NodeJS.WritableStream;
    /** Runs after the app is built and before it is ready (e.g. the CPU work of a start). */
    beforeReady?: () => void;
    /** The app's clock (a TestClock for governance); default: the system clock. */
    clock?: Clock;
    /** Told each statement the app's database runs (platform/db.ts onStatement). */
    onStatement?: (sql: string) => void;
    /**
     * PostgreSQL: long work gets a pool of its own as in production (AppContext.longWorkDb),
     * whose statements go to this listener.
     */
    onLongWorkStatement?: (sql: string) => void;
  } = {},
): Promise<TestApp> {
  const config = testConfig(env);
  const database = await createTestDatabase(kind, databaseTimeouts(config), options.onStatement);
  const longWork =
    options.onLongWorkStatement && database.url
      ? await openDatabase({
          url: database.url,
          poolSize: 2,
          applicationName: 'pra-portal-long-work',
          onStatement: options.onLongWorkStatement,
        })
      : null;
  // PostgreSQL: exports run in worker threads as in production (platform/export-workers.ts).
  const exportWorkers = database.url ? createExportWorkers(database.url, databaseTimeouts(config)) : null;
  const closeDatabases = async () => {
    await exportWorkers?.close();
    await longWork?.close();
    await database.close();
  };
  const ctx = await testContext(config, database, options.clock, longWork?.db, exportWorkers).catch(
    async (error: unknown) => {
      await closeDatabases(); // e.g. unreadable IdP metadata: leave no database behind
      throw error;
    },
  );
  // openRuntime turns the provisioning triggers on with IDENTITY_STORE=ldap; a test app too.
  if (config.IDENTITY_STORE === 'ldap') await setDirectoryProvisioning(database.db, true);
  const app = await buildApp(ctx, options.logStream ? { logStream: options.logStream } : { logger: false });
  options.beforeReady?.();
  await app.ready();
  return {
    app,
    ctx,
    databaseUrl: database.url,
    async close() {
      await app.close();
      await closeDatabases();
    },
  };
}

/** A call's parts as a test sends them, typed by the endpoint. */
export interface TestCall<E extends Endpoint> {
  params?: ParamsInput<E>;
  query?: QueryInput<E>;
  body?: BodyInput<E>;
  headers?: Record<string, string>;
}

/** An answer whose `json()` is the endpoint's success body (check the status first). */
export type EndpointResponse<E extends Endpoint> = Omit<LightMyRequestResponse, 'json'> & {
  json<T = ResultOf<E>>(): T;
};

/** The path and query string of a call, as the web app's callEndpoint builds them. */
export function callUrl(endpoint: Endpoint, params?: object, query?: object): string {
  const path = pathWith(endpoint.path, params as Record<string, string> | undefined);
  const search = new URLSearchParams(queryParams(query)).toString();
  return search ? `${path}?${search}` : path;
}

/** A browser-like client: keeps its cookies and sends the CSRF token as the web app does. */
export class TestClient {
  /** Cookie name → value, as a browser keeps them for this origin. */
  readonly jar = new Map<string, string>();
  csrfToken = '';
  /** The TCP peer every request comes from (light-my-request's default is 127.0.0.1). */
  remoteAddress: string | undefined;
  constructor(private readonly app: FastifyInstance) {}

  private get peer(): { remoteAddress?: string } {
    return this.remoteAddress ? { remoteAddress: this.remoteAddress } : {};
  }

  /** The session cookie as `name=value` ('' when there is none). */
  get cookie(): string {
    for (const [name, value] of this.jar) if (name.endsWith('pra_session')) return `${name}=${value}`;
    return '';
  }

  /** Every cookie, as a browser would send them. */
  get cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Keeps the cookies a response sets; a cleared one (empty value) is dropped. */
  remember(setCookie: string | string[] | number | undefined) {
    const all = Array.isArray(setCookie) ? setCookie : typeof setCookie === 'string' ? [setCookie] : [];
    for (const line of all) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value) this.jar.set(name, value);
      else this.jar.delete(name);
    }
  }

  async fetchCsrf(): Promise<string> {
    const res = await this.app.inject({
      method: 'GET',
      url: '/api/csrf',
      headers: this.headers(),
      ...this.peer,
    });
    this.remember(res.headers['set-cookie']);
    this.csrfToken = res.json<{ csrfToken: string }>().csrfToken;
    return this.csrfToken;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'x-pra-api-call': 'true',
      ...(this.jar.size ? { cookie: this.cookieHeader } : {}),
      ...extra,
    };
  }

  async get(url: string, extra: Record<string, string> = {}) {
    const res = await this.app.inject({ method: 'GET', url, headers: this.headers(extra), ...this.peer });
    this.remember(res.headers['set-cookie']);
    return res;
  }

  async post(url: string, payload: unknown, extra: Record<string, string> = {}) {
    const res = await this.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: this.headers({ 'x-csrf-token': this.csrfToken, ...extra }),
      ...this.peer,
    });
    this.remember(res.headers['set-cookie']);
    return res;
  }

  /** Any method, as the web app sends it (JSON body, CSRF token). */
  async send(method: 'PUT' | 'PATCH' | 'DELETE' | 'POST', url: string, payload?: unknown) {
    const res = await this.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: this.headers({ 'x-csrf-token': this.csrfToken }),
    });
    this.remember(res.headers['set-cookie']);
    return res;
  }

  /** Calls a contract endpoint as the web app's callEndpoint does (method, path, query, JSON body, CSRF token). */
  async call<E extends Endpoint>(endpoint: E, parts: TestCall<E> = {}): Promise<EndpointResponse<E>> {
    const res = await this.app.inject({
      method: endpoint.method,
      url: callUrl(endpoint, parts.params as object | undefined, parts.query as object | undefined),
      ...(parts.body === undefined ? {} : { payload: parts.body as object }),
      headers: this.headers({
        ...(isStateChanging(endpoint.method) ? { 'x-csrf-token': this.csrfToken } : {}),
        ...parts.headers,
      }),
      ...this.peer,
    });
    this.remember(res.headers['set-cookie']);
    return res;
  }

  /** A browser form post (no API headers), as the IdP's page makes to the ACS. */
  async postForm(url: string, fields: Record<string, string>) {
    const res = await this.app.inject({
      method: 'POST',
      url,
      payload: new URLSearchParams(fields).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(this.jar.size ? { cookie: this.cookieHeader } : {}),
      },
      ...this.peer,
    });
    this.remember(res.headers['set-cookie']);
    return res;
  }
}

/**
 * Calls a contract endpoint as automation does: `Authorization: Bearer <token>` and nothing else
 * (no cookie, no CSRF token, no X-PRA-API-Call), unless `parts.headers` adds something.
 */
export async function callWithToken<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  token: string,
  parts: TestCall<E> = {},
): Promise<EndpointResponse<E>> {
  return app.inject({
    method: endpoint.method,
    url: callUrl(endpoint, parts.params as object | undefined, parts.query as object | undefined),
    ...(parts.body === undefined ? {} : { payload: parts.body as object }),
    headers: { authorization: `Bearer ${token}`, ...parts.headers },
  });
}
