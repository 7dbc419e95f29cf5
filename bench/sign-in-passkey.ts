// The sign-in of bench/sign-in.ts with a passkey instead of the passcode: the login redirect, the
// IdP's SSO, its login page, the password, the MFA page, the assertion options, the assertion
// (a software authenticator's real ES256 signature, verified by @simplewebauthn/server), the ACS
// and /welcome. Summed server time per sign-in, as the TOTP row beside it.
import { median, type BenchRow } from './table';
import { serverSeconds } from './sign-in';
import type { DbKind } from '../apps/server/src/platform/db';
import { registrationOptions, verifyRegistration } from '../apps/server/src/identity/mfa/webauthn';
import { csrfOf, inputValue, PASSWORD } from '../apps/server/test/support/idp-kit';
import { createAccount } from '../apps/server/test/support/sign-in';
import { SoftAuthenticator } from '../apps/server/test/support/soft-authenticator';
import { createTestApp, TestClient } from '../apps/server/test/support/test-app';

export async function benchSignInWithPasskey(kind: DbKind, runs: number): Promise<BenchRow[]> {
  const t = await createTestApp(kind);
  try {
    const accountId = await createAccount(t, { username: 'benchpasskey' });
    const account = await t.ctx.db
      .selectFrom('accounts')
      .select(['id', 'username', 'given_name', 'family_name', 'email'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    const authenticator = new SoftAuthenticator(new URL(t.ctx.config.publicUrl).origin);
    const setup = { idHash: 'bench-setup', data: {} };
    const options = await registrationOptions(t.ctx, setup, account);
    if (!options.ok) throw new Error(options.message);
    const added = await verifyRegistration(t.ctx, setup, {
      account,
      response: authenticator.create(options.options),
      nickname: 'Bench key',
      clientAddress: '127.0.0.1',
    });
    if (!added.ok) throw new Error(added.message);

    const totals: number[] = [];
    const keySteps: number[] = [];
    for (let run = 0; run < runs + 2; run++) {
      const client = new TestClient(t.app);
      await client.fetchCsrf();
      const times: number[] = [];
      const timed = async <T>(fn: () => Promise<T>): Promise<T> => {
        const before = await serverSeconds();
        const result = await fn();
        times.push(((await serverSeconds()) - before) * 1000);
        return result;
      };
      const login = await timed(() => client.get('/api/saml/login/standard?next=%2Fwelcome'));
      const sso = new URL(String(login.headers.location));
      await timed(() => client.get(`${sso.pathname}${sso.search}`));
      const loginPage = await timed(() => client.get('/idp/login'));
      await timed(() =>
        client.postForm('/idp/login', {
          csrfToken: csrfOf(loginPage.body),
          username: 'benchpasskey',
          password: PASSWORD,
        }),
      );
      const mfaPage = await timed(() => client.get('/idp/mfa'));
      const csrfToken = csrfOf(mfaPage.body);
      const keyStart = times.length;
      const optionsRes = await timed(() =>
        t.app.inject({
          method: 'POST',
          url: '/idp/mfa/webauthn/options',
          payload: { csrfToken },
          headers: { 'content-type': 'application/json', cookie: client.cookieHeader },
        }),
      );
      const answer = authenticator.get(optionsRes.json<{ options: never }>().options);
      const posted = await timed(() =>
        client.postForm('/idp/mfa/webauthn', { csrfToken, credential: JSON.stringify(answer) }),
      );
      const samlResponse = inputValue(posted.body, 'SAMLResponse');
      if (!samlResponse) throw new Error(`passkey step answered ${posted.statusCode}`);
      const keyTime = times.slice(keyStart).reduce((a, b) => a + b, 0);
      const acs = await timed(() =>
        client.postForm('/api/saml/acs', {
          SAMLResponse: samlResponse,
          RelayState: inputValue(posted.body, 'RelayState') ?? '/welcome',
        }),
      );
      if (acs.headers.location !== '/welcome') throw new Error(`ACS answered ${acs.statusCode}`);
      await timed(() => client.get('/welcome'));
      if (run < 2) continue; // warm-up
      totals.push(times.reduce((a, b) => a + b, 0));
      keySteps.push(keyTime);
    }
    const label = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
    return [
      {
        figure: `full sign-in with a passkey, summed server time, ${label}`,
        value: median(totals),
        unit: 'ms',
        goal: { atMost: 60 },
        note: `median of ${runs}; the server's own times, as the TOTP row`,
      },
      {
        figure: '  passkey options and assertion',
        value: median(keySteps),
        unit: 'ms',
        note: 'the two key steps in place of the passcode page and passcode',
      },
    ];
  } finally {
    await t.close();
  }
}
