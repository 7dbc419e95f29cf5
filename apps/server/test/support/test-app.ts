import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import type { AppContext } from '../../src/http/context';
import { sessionSettings } from '../../src/http/session';
import type { DbKind } from '../../src/platform/db';
import { createTestDatabase } from './databases';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/** The whole portal on a fresh database, with settings overridden as a test needs. */
export async function createTestApp(kind: DbKind, env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase(kind);
  const config: Config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/pra-test-unused', ...env });
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    session: sessionSettings(config.insecureCookies, TEST_SECRET),
    mailStatus: async () => ({ ok: true, text: 'test mailer' }),
  };
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** A browser-like client: keeps the session cookie and sends the CSRF token as the web app does. */
export class TestClient {
  cookie = '';
  csrfToken = '';
  constructor(private readonly app: FastifyInstance) {}

  private remember(setCookie: string | string[] | undefined) {
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    if (first) this.cookie = first.split(';')[0] ?? '';
  }

  async fetchCsrf(): Promise<string> {
    const res = await this.app.inject({ method: 'GET', url: '/api/csrf', headers: this.headers() });
    this.remember(res.headers['set-cookie']);
    this.csrfToken = res.json<{ csrfToken: string }>().csrfToken;
    return this.csrfToken;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'x-pra-api-call': 'true',
      ...(this.cookie ? { cookie: this.cookie } : {}),
      ...extra,
    };
  }

  get(url: string) {
    return this.app.inject({ method: 'GET', url, headers: this.headers() });
  }

  post(url: string, payload: unknown, extra: Record<string, string> = {}) {
    return this.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: this.headers({ 'x-csrf-token': this.csrfToken, ...extra }),
    });
  }
}
