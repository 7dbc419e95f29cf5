import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDatabaseKinds } from '../../test/support/databases';
import { createIdpAccount, csrfOf, startSignIn } from '../../test/support/idp-kit';
import { createAccount, signInAs } from '../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../test/support/test-app';
import { readOutboxState } from '../store/outbox';
import { bindMetricsSources, listenOverflows } from './metrics';
import { startMetricsListener } from './metrics-listener';

/** The value of one sample line (`name{labels} value`) in an exposition, summed over matches. */
function sampleSum(text: string, name: string, labels: RegExp = /.*/): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => labels.test(line))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

// PostgreSQL when the run has one (its pool is what the pool gauges describe), else PGlite.
const kind = testDatabaseKinds.includes('postgres') ? 'postgres' : 'pglite';

describe(`Prometheus metrics on ${kind}`, () => {
  let t: TestApp;
  let listener: Awaited<ReturnType<typeof startMetricsListener>>;
  const scrape = async () => {
    const res = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNIN_MAX_FAILURES: '2' });
    bindMetricsSources({ outboxState: () => readOutboxState(t.ctx.db), poolStats: () => t.ctx.poolStats() });
    listener = await startMetricsListener(0, '127.0.0.1');
  });
  afterAll(async () => {
    await listener?.close();
    await t?.close();
  });

  it('is not served on the public port', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).not.toBe(200); // 404 page, or 503 where the web app is not built
    expect(res.body).not.toContain('pra_http_request_duration_seconds');
    const other = await fetch(`http://127.0.0.1:${listener.port}/anything`);
    expect(other.status).toBe(404);
  });

  it('shows every family with non-zero values after the app has been used', async () => {
    // Sign-ins: one through the SP, one refused at the ACS, wrong passwords at the built-in IdP
    // until the account locks (which queues a mail to its owner: the outbox backlog).
    await createAccount(t, { username: 'metricsuser' });
    await signInAs(t, 'metricsuser');
    const refused = new TestClient(t.app);
    await refused.fetchCsrf();
    await refused.postForm('/api/saml/acs', { SAMLResponse: 'bm90IHNhbWw=', RelayState: '/welcome' });
    const account = await createIdpAccount(t);
    for (let i = 0; i < 2; i++) {
      const { client, loginPage } = await startSignIn(t, undefined, '192.0.2.55');
      await client.postForm('/idp/login', {
        csrfToken: csrfOf(loginPage),
        username: account.username,
        password: `Wrong-Guess-${i}`,
      });
    }
    await t.ctx.db
      .insertInto('outbox')
      .values({
        recipient: 'gone@example.test',
        subject: 'x',
        text_body: 'x',
        html_body: 'x',
        template: 'test',
        status: 'undeliverable',
        next_attempt_at: new Date(),
        created_at: new Date(Date.now() - 60_000),
      })
      .execute();
    await t.ctx.db
      .updateTable('outbox')
      .set({ created_at: new Date(Date.now() - 30_000) })
      .where('status', '=', 'pending')
      .execute();

    // Hold every pool connection and queue one more query, so the pool gauges have something to say.
    const sleepers =
      kind === 'postgres' ? Array.from({ length: 6 }, () => sql`select pg_sleep(0.8)`.execute(t.ctx.db)) : [];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const text = await scrape();
    await Promise.all(sleepers);

    expect(
      sampleSum(
        text,
        'pra_http_request_duration_seconds_count',
        /route="\/api\/saml\/acs".*status_code="303"/,
      ),
    ).toBeGreaterThan(0);
    expect(text).not.toMatch(/route="[^"]*\?/); // route patterns, never raw URLs with queries
    expect(sampleSum(text, 'pra_signin_attempts_total', /step="sp".*outcome="success"/)).toBe(1);
    expect(sampleSum(text, 'pra_signin_attempts_total', /step="sp".*outcome="failure"/)).toBe(1);
    expect(
      sampleSum(
        text,
        'pra_signin_attempts_total',
        /step="password".*outcome="failure".*reason="wrongPassword"/,
      ),
    ).toBe(2);
    expect(sampleSum(text, 'pra_signin_lockouts_total')).toBe(1);
    expect(sampleSum(text, 'pra_outbox_pending')).toBeGreaterThan(0);
    expect(sampleSum(text, 'pra_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(29);
    expect(sampleSum(text, 'pra_outbox_undeliverable')).toBe(1);
    expect(sampleSum(text, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThan(0);
    expect(sampleSum(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // The kernel's own count, as /proc/net/netstat says it at the scrape (it only grows).
    if (existsSync('/proc/net/netstat')) {
      const before = listenOverflows(readFileSync('/proc/net/netstat', 'utf8'))!;
      const again = await scrape();
      expect(again).toMatch(/^# TYPE pra_kernel_listen_overflows_total counter$/m);
      expect(again).toMatch(/^pra_kernel_listen_overflows_total \d+$/m);
      const scraped = sampleSum(again, 'pra_kernel_listen_overflows_total');
      const after = listenOverflows(readFileSync('/proc/net/netstat', 'utf8'))!;
      expect(scraped).toBeGreaterThanOrEqual(before);
      expect(scraped).toBeLessThanOrEqual(after);
    } else {
      expect(text).not.toContain('pra_kernel_listen_overflows_total');
    }
    expect(sampleSum(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    if (kind === 'postgres') {
      expect(sampleSum(text, 'pra_db_pool_connections', /state="in_use"/)).toBe(5);
      expect(sampleSum(text, 'pra_db_pool_waiting')).toBeGreaterThan(0);
    } else {
      expect(text).not.toContain('pra_db_pool_connections{');
    }
  });

  // Last: a scrape caches the outbox for a second, which the usage test above must not see.
  it("names the running build: package.json's version and the Node.js runtime", async () => {
    const { version } = JSON.parse(
      readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    const text = await scrape();
    expect(text).toContain('# TYPE pra_build_info gauge');
    expect(text).toContain(`pra_build_info{version="${version}",node="${process.version}"} 1`);
  });
});

describe('the kernel listen-overflow count', () => {
  const netstat = [
    'TcpExt: SyncookiesSent ListenOverflows ListenDrops',
    'TcpExt: 3 118336 118340',
    'IpExt: InNoRoutes InTruncatedPkts',
    'IpExt: 0 0',
    '',
  ].join('\n');

  it('reads TcpExt ListenOverflows by its name, wherever the kernel puts it', () => {
    expect(listenOverflows(netstat)).toBe(118336);
    expect(
      listenOverflows(netstat.replace('SyncookiesSent ListenOverflows', 'ListenOverflows SyncookiesSent')),
    ).toBe(3);
  });

  it('says nothing when the kernel does not report it', () => {
    expect(listenOverflows('')).toBeUndefined();
    expect(listenOverflows('TcpExt: SyncookiesSent\nTcpExt: 3\n')).toBeUndefined();
    expect(listenOverflows('TcpExt: ListenOverflows\n')).toBeUndefined();
    expect(listenOverflows('TcpExt: ListenOverflows\nTcpExt: lots\n')).toBeUndefined();
  });
});
