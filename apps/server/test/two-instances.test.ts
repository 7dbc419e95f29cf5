// Two server processes sharing one PostgreSQL database, as behind a load balancer: a sign-in
// started on one finishes on the other, and a session made on one is valid, and ends, on both.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEncryptor } from '../src/platform/encryption';
import { authnRequestIdFromUrl, forgeResponse } from './support/saml-forge';
import { builtinIdpKeys, setCookie } from './support/instance-sign-in';
import {
  buildServer,
  freePort,
  runSql,
  scratchDatabase,
  startServer as start,
  stopServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';

const DEMO_PASSWORD = 'Demo-Secret-2024!xyz';

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server processes on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  let dataDir: string;
  let a: Instance;
  let b: Instance;
  let publicUrl: string;

  beforeAll(async () => {
    buildServer();
    database = await scratchDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'pra-two-instances-'));
    const [portA, portB] = [await freePort(), await freePort()];
    publicUrl = `http://localhost:${portA}`;
    const env = {
      PRA_MODE: 'standalone',
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      DEMO_PASSWORD,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: publicUrl,
    };
    // A first, alone: it migrates, seeds and writes the shared keys and secrets; B then reads them.
    a = start('A', portA, env);
    await waitUntilUp(a);
    b = start('B', portB, env);
    await waitUntilUp(b);
  }, 60_000);

  afterAll(async () => {
    const codes = await Promise.all([a, b].map(stopServer));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
    // Graceful shutdown: both processes close the server and the pool and exit 0.
    expect(codes, [a, b].map((i) => `${i?.name}:\n${i?.output.join('')}`).join('\n')).toEqual([0, 0]);
  }, 30_000);

  it('starts on A, finishes on B, and the session works on both until logout on B', async () => {
    // The browser starts the sign-in on A.
    const login = await fetch(`${a.url}/api/saml/login/standard?next=%2Fwelcome`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    const location = login.headers.get('location') ?? '';
    expect(location.startsWith(`${publicUrl}/idp/sso?SAMLRequest=`)).toBe(true);
    const anonymousCookie = setCookie(login);
    expect(anonymousCookie).toBeTruthy();
    // The sign-in belongs to this browser: its nonce cookie must come back with the IdP's post.
    const signInNonce = setCookie(login, 'pra_saml');
    expect(signInNonce).toBeTruthy();
    const requestId = authnRequestIdFromUrl(location);

    // The IdP answers; the load balancer sends the post to B.
    // The built-in IdP's key, as the instances keep it: in the database, encrypted.
    const idpKeys = await builtinIdpKeys(database?.url ?? '', dataDir);
    const samlResponse = forgeResponse({
      issuer: `${publicUrl}/idp/metadata`,
      acsUrl: `${publicUrl}/api/saml/acs`,
      audience: `${publicUrl}/api/saml/metadata`,
      nameId: 'jdoe',
      inResponseTo: requestId,
      keys: idpKeys,
    });
    const acs = await fetch(`${b.url}/api/saml/acs`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `${anonymousCookie ?? ''}; ${signInNonce ?? ''}`,
      },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '/welcome' }).toString(),
    });
    expect(acs.status).toBe(303);
    expect(acs.headers.get('location')).toBe('/welcome');
    const cookie = setCookie(acs) ?? '';
    expect(cookie).toMatch(/^pra_session=.{20,}/);
    expect(cookie).not.toBe(anonymousCookie);

    // The same response replayed to A is refused: the assertion id is shared too.
    const replay = await fetch(`${a.url}/api/saml/acs`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/auth-failure');

    for (const instance of [a, b]) {
      const user = await fetch(`${instance.url}/api/user`, { headers: { cookie, 'x-pra-api-call': 'true' } });
      expect(user.status, instance.name).toBe(200);
      expect(await user.json()).toMatchObject({ username: 'jdoe', type: 'vendor', orgs: ['Acme Imaging'] });
    }

    // A CSRF token from A is accepted by B: both hold the same secret.
    const csrf = await fetch(`${a.url}/api/csrf`, { headers: { cookie, 'x-pra-api-call': 'true' } });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const extend = await fetch(`${b.url}/api/user/extend-session`, {
      method: 'POST',
      headers: { cookie, 'x-pra-api-call': 'true', 'x-csrf-token': csrfToken },
    });
    expect(extend.status).toBe(200);
    expect(await extend.json()).toEqual({ success: true });
    const status = await fetch(`${a.url}/api/saml/is-authenticated`, { headers: { cookie } });
    expect(await status.json()).toMatchObject({ isAuthenticated: true, remainingSessionExtentions: 2 });

    // Logout on B ends the session on A as well.
    const logout = await fetch(`${b.url}/api/saml/logout`, { headers: { cookie, 'x-pra-api-call': 'true' } });
    expect(logout.status).toBe(200);
    expect(await logout.json()).toEqual({});
    expect(setCookie(logout)).toBe('');
    const after = await fetch(`${a.url}/api/saml/is-authenticated`, { headers: { cookie } });
    expect(await after.json()).toEqual({ isAuthenticated: false });
    const userAfter = await fetch(`${a.url}/api/user`, { headers: { cookie, 'x-pra-api-call': 'true' } });
    expect(userAfter.status).toBe(401);
  });

  it('a password-reset push waiting on A is approved by the phone through B', async () => {
    // jdoe gets a TOTP device and a phone paired days ago (a newer one could not approve a reset
    // by itself) whose device key the test knows.
    const deviceKey = randomBytes(32).toString('base64url');
    const keyHash = createHash('sha256').update(`authenticator:${deviceKey}`).digest('base64url');
    const [account] = (await runSql(database!.url, `select id, email from accounts where username = 'jdoe'`))
      .rows as { id: string; email: string }[];
    const encryptor = createEncryptor(readFileSync(join(dataDir, 'data-encryption-key'), 'utf8').trim());
    await runSql(
      database!.url,
      `insert into mfa_devices (account_id, nickname, secret_encrypted, last_used_step, confirmed_at)
       values ($1, 'Phone', $2, null, now())`,
      [account!.id, encryptor.encrypt('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')],
    );
    await runSql(
      database!.url,
      `insert into authenticators (account_id, nickname, key_hash, created_at)
       values ($1, 'Phone', $2, now() - interval '2 days')`,
      [account!.id, keyHash],
    );

    const csrf = await fetch(`${a.url}/api/csrf`, { headers: { 'x-pra-api-call': 'true' } });
    const cookie = setCookie(csrf)!;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const post = (instance: Instance, path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${instance.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pra-api-call': 'true', ...headers },
        body: JSON.stringify(body),
      });
    const browser = { cookie, 'x-csrf-token': csrfToken };
    const identified = await post(
      a,
      '/api/user/forgot-password/identify',
      { username: 'jdoe', email: account!.email },
      browser,
    );
    expect(((await identified.json()) as { isAccountValid: boolean }).isAccountValid).toBe(true);
    const waiting = post(a, '/api/user/forgot-password/ping-push', { username: 'jdoe' }, browser);

    // The phone has a session of its own, on B.
    const phoneCsrf = await fetch(`${b.url}/api/csrf`, { headers: { 'x-pra-api-call': 'true' } });
    const phone = {
      cookie: setCookie(phoneCsrf)!,
      'x-csrf-token': ((await phoneCsrf.json()) as { csrfToken: string }).csrfToken,
    };
    let requestId: string | undefined;
    for (let i = 0; i < 50 && !requestId; i += 1) {
      const status = await post(b, '/api/authenticator/status', { deviceKey }, phone);
      requestId = ((await status.json()) as { requests: { id: string }[] }).requests[0]?.id;
      if (!requestId) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(requestId).toBeDefined();
    const answer = await post(
      b,
      '/api/authenticator/answer',
      { deviceKey, id: requestId, approve: true },
      phone,
    );
    expect(answer.status).toBe(200);
    expect(await (await waiting).json()).toEqual({ result: 'success' });
  });
});
