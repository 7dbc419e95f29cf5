// A full sign-in through the built-in IdP, in-process: the login redirect, the IdP's SSO, its
// login page, the password, the passcode page, the passcode, the ACS and /welcome. The figure is
// the steady cost of a sign-in: the first WARM_UP sign-ins of the process are run first and
// reported apart, because V8 runs the path's JavaScript (node-saml's and xml-crypto's XML work
// most of all) in its lower tiers until it has run a few dozen times: those cost 20-30 % more
// (bench/RESULTS.md, 2026-11-29), a start-up cost a running portal pays once. Each step's
// time is the server's own: what its request-duration metric (pra_http_request_duration_seconds,
// fastify's elapsed time from the request's arrival to its answer going out) recorded for it. The
// figure is their sum per sign-in; the same requests as this client saw them (the injected round
// trip, with its cookie jar and parsing) are reported beside it.
import { performance } from 'node:perf_hooks';
import { median, type BenchRow } from './table';
import { httpDuration } from '../apps/server/src/platform/metrics';
import type { DbKind } from '../apps/server/src/platform/db';
import { csrfOf, inputValue, PASSWORD, totpCode } from '../apps/server/test/support/idp-kit';
import { createAccount } from '../apps/server/test/support/sign-in';
import { createTestApp, TestClient } from '../apps/server/test/support/test-app';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** Seconds the server has recorded answering requests so far, over every route. */
export async function serverSeconds(): Promise<number> {
  const { values } = await httpDuration.get();
  return values
    .filter((v) => v.metricName === 'pra_http_request_duration_seconds_sum')
    .reduce((sum, v) => sum + v.value, 0);
}

const steps = [
  'login redirect',
  '/idp/sso',
  'IdP login page',
  'password',
  'passcode page',
  'passcode',
  'ACS',
  '/welcome',
] as const;

/** Sign-ins run and reported apart before the measured ones (see the header). */
export const WARM_UP = 15;

export async function benchSignIn(kind: DbKind, runs: number): Promise<BenchRow[]> {
  const t = await createTestApp(kind);
  try {
    const accountId = await createAccount(t, { username: 'benchvendor' });
    await t.ctx.db
      .insertInto('mfa_devices')
      .values({
        account_id: accountId,
        nickname: 'bench',
        secret_encrypted: t.ctx.encryptor.encrypt(SECRET),
        confirmed_at: new Date(),
      })
      .execute();
    const perStep: number[][] = steps.map(() => []);
    const totals: number[] = [];
    const clientTotals: number[] = [];
    const warmUpTotals: number[] = [];
    for (let run = 0; run < runs + WARM_UP; run++) {
      // Each time step is accepted once: let this run use the current one again (not timed).
      await t.ctx.db.updateTable('mfa_devices').set({ last_used_step: null }).execute();
      const client = new TestClient(t.app);
      await client.fetchCsrf();
      const times: number[] = [];
      let clientTime = 0;
      const timed = async <T>(fn: () => Promise<T>): Promise<T> => {
        const before = await serverSeconds();
        const start = performance.now();
        const result = await fn();
        clientTime += performance.now() - start;
        times.push(((await serverSeconds()) - before) * 1000);
        return result;
      };
      const login = await timed(() => client.get('/api/saml/login/standard?next=%2Fwelcome'));
      const sso = new URL(String(login.headers.location));
      const toLogin = await timed(() => client.get(`${sso.pathname}${sso.search}`));
      if (toLogin.headers.location !== '/idp/login')
        throw new Error(`/idp/sso answered ${toLogin.statusCode}`);
      const loginPage = await timed(() => client.get('/idp/login'));
      const password = await timed(() =>
        client.postForm('/idp/login', {
          csrfToken: csrfOf(loginPage.body),
          username: 'benchvendor',
          password: PASSWORD,
        }),
      );
      if (password.statusCode !== 303) throw new Error(`password step answered ${password.statusCode}`);
      const mfaPage = await timed(() => client.get('/idp/mfa'));
      const code = await totpCode(SECRET);
      const posted = await timed(() =>
        client.postForm('/idp/mfa', { csrfToken: csrfOf(mfaPage.body), passcode: code }),
      );
      const samlResponse = inputValue(posted.body, 'SAMLResponse');
      if (!samlResponse) throw new Error(`passcode step answered ${posted.statusCode}`);
      const acs = await timed(() =>
        client.postForm('/api/saml/acs', {
          SAMLResponse: samlResponse,
          RelayState: inputValue(posted.body, 'RelayState') ?? '/welcome',
        }),
      );
      if (acs.headers.location !== '/welcome') throw new Error(`ACS answered ${acs.statusCode}`);
      await timed(() => client.get('/welcome'));
      if (run < WARM_UP) {
        warmUpTotals.push(times.reduce((a, b) => a + b, 0));
        continue;
      }
      times.forEach((ms, i) => perStep[i]!.push(ms));
      totals.push(times.reduce((a, b) => a + b, 0));
      clientTotals.push(clientTime);
    }
    const label = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
    return [
      {
        figure: `full sign-in, summed server time, ${label}`,
        value: median(totals),
        unit: 'ms',
        goal: { atMost: 60 },
        note: `median of ${runs} after ${WARM_UP} not counted; the server's own times; steps below`,
      },
      {
        figure: `  the first ${WARM_UP} of the process`,
        value: median(warmUpTotals),
        unit: 'ms',
        note: `median; the first two ${warmUpTotals
          .slice(0, 2)
          .map((ms) => ms.toFixed(0))
          .join(' and ')} ms (V8's lower tiers, see the header)`,
      },
      {
        figure: `  as the client saw it (injected round trips)`,
        value: median(clientTotals),
        unit: 'ms',
        note: 'the same requests, with the client side',
      },
      ...steps.map((step, i) => ({
        figure: `  ${step}`,
        value: median(perStep[i]!),
        unit: 'ms',
      })),
    ];
  } finally {
    await t.close();
  }
}
