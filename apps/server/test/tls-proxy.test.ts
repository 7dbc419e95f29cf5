// The deployment the operations guide describes: nginx terminating TLS in front of two portal
// instances on one PostgreSQL database. A browser signs in through it; cookies and headers are
// those of an https site; rate limits see the real client address; and an instance stopped in
// the middle of traffic costs no request.
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { generate } from 'otplib';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxInstalled, startBehindNginx, type BehindNginx } from './support/nginx';
import { freePort, type Instance } from './support/server-process';

const CHROMIUM = '/usr/bin/chromium';
const DEMO_PASSWORD = 'Demo-Secret-2024!xyz';
const missing = [
  nginxInstalled ? null : 'nginx (/usr/sbin/nginx; apt-get install -y nginx)',
  existsSync(CHROMIUM) ? null : `Chromium (${CHROMIUM})`,
  process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL (PostgreSQL)',
].filter(Boolean);
if (missing.length > 0) {
  console.warn(`SKIPPED tls-proxy.test.ts: needs ${missing.join(', ')}`);
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe.skipIf(missing.length > 0)('behind nginx with TLS, two instances on one PostgreSQL', () => {
  let pair: BehindNginx;
  let a: Instance;
  let b: Instance;
  let proxyPort: number;
  let metricsPort: number;
  let browser: Browser;
  let sessionCookie = '';
  const agent = new Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: 8 });

  /** A request to the proxy, from a chosen loopback address (so nginx sees distinct clients). */
  function viaProxy(
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          servername: 'localhost',
          port: proxyPort,
          path,
          method: options.method ?? 'GET',
          headers: { host: `localhost:${proxyPort}`, ...options.headers },
          ...(options.from
            ? { localAddress: options.from, agent: false, rejectUnauthorized: false }
            : { agent }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString(),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  }

  beforeAll(async () => {
    metricsPort = await freePort();
    pair = await startBehindNginx(
      'tls-proxy',
      {
        DEMO_DATA: 'true',
        DEMO_PASSWORD,
        CLIENT_LOG_PER_MINUTE: '3',
        SHUTDOWN_GRACE_SECONDS: '8',
        // As in production behind a balancer: standalone would stop without draining.
        SHUTDOWN_DRAIN_SECONDS: '2',
      },
      { METRICS_PORT: String(metricsPort) },
    );
    ({ a, b, proxyPort } = pair);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 90_000);

  afterAll(async () => {
    agent.destroy();
    await browser?.close();
    const codes = await Promise.all(
      [a, b].filter(Boolean).map(async (instance) => {
        if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
        return instance.exit;
      }),
    );
    await pair?.remove();
    expect(codes, [a, b].map((i) => `${i?.name}:\n${i?.output.join('')}`).join('\n')).toEqual([0, 0]);
  }, 30_000);

  it('signs a person in with Chromium through the proxy, with __Host- Secure cookies and HSTS', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const origin = `https://localhost:${proxyPort}`;
    await page.goto(`${origin}/api/saml/login/standard?next=%2Fwelcome`);
    await page.waitForURL(/\/idp\/login/);
    await page.getByLabel('Username').fill('jdoe');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Set up your authenticator app' }).waitFor();
    const secret = (await page.locator('#totp-secret').innerText()).replace(/\s+/g, '');
    await page.getByLabel('Passcode').fill(await generate({ secret }));
    await page.getByLabel('Device nickname').fill('test phone');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/(welcome|auth-failure)$/, { timeout: 20_000 }).catch(() => {});
    expect(page.url(), readFileSync(join(pair.dir, 'error.log'), 'utf8')).toBe(`${origin}/welcome`);

    const cookies = await context.cookies(origin);
    const session = cookies.find((c) => c.name === '__Host-pra_session');
    expect(session, JSON.stringify(cookies)).toMatchObject({ secure: true, httpOnly: true, path: '/' });
    expect(session?.domain).toBe('localhost');
    expect(cookies.filter((c) => !c.name.startsWith('__Host-'))).toEqual([]);
    sessionCookie = `__Host-pra_session=${session?.value ?? ''}`;

    const user = await page.request.get(`${origin}/api/user`, { headers: { 'x-pra-api-call': 'true' } });
    expect(user.status()).toBe(200);
    expect(await user.json()).toMatchObject({ username: 'jdoe' });
    expect(user.headers()['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await context.close();
  }, 60_000);

  it('carries the session started through the proxy to each instance directly', async () => {
    for (const instance of [a, b]) {
      const res = await fetch(`${instance.url}/api/user`, {
        headers: { cookie: sessionCookie, 'x-pra-api-call': 'true' },
      });
      expect(res.status, instance.name).toBe(200);
      expect(await res.json()).toMatchObject({ username: 'jdoe' });
    }
  });

  it('keys rate limits on the client address nginx saw, not the proxy nor a forged header', async () => {
    const log = (from: string, forged: string) =>
      viaProxy('/api/client-log', {
        method: 'POST',
        from,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
        body: JSON.stringify({ errorMessage: 'proxy test' }),
      }).then((r) => r.status);
    const first: number[] = [];
    // A different forged address each time: were it believed, the limit would never apply.
    for (let i = 0; i < 5; i++) first.push(await log('127.0.0.2', `203.0.113.${i}`));
    expect(first).toEqual([204, 204, 204, 429, 429]);
    // Another client behind the same proxy still has its own allowance.
    expect(await log('127.0.0.3', '203.0.113.1')).toBe(204);
  });

  it('serves metrics on the separate listener only, never through the public port', async () => {
    const res = await viaProxy('/metrics');
    expect(res.status).not.toBe(200);
    expect(res.body).not.toContain('pra_http_request_duration_seconds');
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    expect(text).toMatch(
      /^pra_http_request_duration_seconds_count\{.*route="\/api\/service_check".*\} [1-9]/m,
    );
    expect(text).toMatch(/^pra_db_pool_connections\{state="total"\} [1-9]/m);
    expect(text).toMatch(/^pra_outbox_pending \d/m);
  });

  it('loses no request when an instance is stopped in the middle of traffic', async () => {
    // Answers by kind: `200 signed in` is the only good one.
    const answers = new Map<string, number>();
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const res = await viaProxy('/api/saml/is-authenticated', {
          headers: { cookie: sessionCookie },
        }).catch((error: Error) => ({ status: -1, body: error.message }));
        const kind =
          res.status === 200 && res.body.includes('"isAuthenticated":true')
            ? '200 signed in'
            : `${res.status} ${res.body.slice(0, 80)}`;
        answers.set(kind, (answers.get(kind) ?? 0) + 1);
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stoppedAt = Date.now();
    a.child.kill('SIGTERM');
    const code = await a.exit;
    const tookMs = Date.now() - stoppedAt;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stop = true;
    await Promise.all(workers);
    expect(code, a.output.join('')).toBe(0);
    expect(tookMs).toBeLessThan(8_000);
    expect([...answers.keys()], JSON.stringify([...answers])).toEqual(['200 signed in']);
    expect(answers.get('200 signed in')).toBeGreaterThan(20);
  }, 30_000);
});
