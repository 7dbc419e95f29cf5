// Two instances, each with its own DATA_DIR (two hosts) but one PostgreSQL, the built-in IdP on
// both: a load balancer that sends every step of a sign-in to the other instance must still sign
// the person in, so the IdP's and the SP's generated keys have to be the same on both.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfOf, inputValue, secretOf, totpCode } from './support/idp-kit';
import {
  buildServer,
  freePort,
  scratchDatabase,
  startServer,
  stopServer,
  waitUntilUp,
  type Instance,
} from './support/server-process';

const DEMO_PASSWORD = 'Demo-Secret-2024!xyz';

/** A browser's cookies for the portal's one origin, whichever instance answers. */
class Browser {
  readonly jar = new Map<string, string>();
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (pair.slice(at + 1)) this.jar.set(pair.slice(0, at), pair.slice(at + 1));
      else this.jar.delete(pair.slice(0, at));
    }
    return res;
  }
  postForm(url: string, fields: Record<string, string>): Promise<Response> {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('the built-in IdP behind two instances', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  const dataDirs: string[] = [];
  let a: Instance;
  let b: Instance;
  let publicUrl: string;

  beforeAll(async () => {
    buildServer();
    database = await scratchDatabase();
    const [portA, portB] = [await freePort(), await freePort()];
    publicUrl = `http://localhost:${portA}`;
    const env = (name: string) => {
      const dataDir = mkdtempSync(join(tmpdir(), `pra-idp-${name}-`));
      dataDirs.push(dataDir);
      return {
        PRA_MODE: 'standalone',
        IDP: 'builtin',
        DATABASE_URL: database?.url ?? '',
        DATA_DIR: dataDir,
        // What every instance shares: the database and the secrets.
        SESSION_SECRET: 'shared-session-secret-shared-session-secret',
        DATA_ENCRYPTION_KEY: 'shared-encryption-key-shared-encryption-key',
        DEMO_DATA: 'true',
        DEMO_PASSWORD,
        LOG_LEVEL: 'warn',
        PUBLIC_URL: publicUrl,
      };
    };
    // Started together: both find no key yet, and the database decides which one both use.
    a = startServer('A', portA, env('a'));
    b = startServer('B', portB, env('b'));
    await Promise.all([waitUntilUp(a, 40_000), waitUntilUp(b, 40_000)]);
  }, 60_000);

  afterAll(async () => {
    const codes = await Promise.all([a, b].map(stopServer));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
    expect(codes).toEqual([0, 0]);
  }, 30_000);

  it('signs in when every step lands on the other instance', async () => {
    const browser = new Browser();
    const onA = (path: string) => `${a.url}${path}`;
    const onB = (path: string) => `${b.url}${path}`;

    const login = await browser.fetch(onA('/api/saml/login/standard?next=%2Fwelcome'));
    expect(login.status).toBe(302);
    const sso = new URL(login.headers.get('location') ?? '');
    expect(`${sso.origin}${sso.pathname}`).toBe(`${publicUrl}/idp/sso`);

    // B's IdP checks the AuthnRequest A's SP signed.
    const ssoAnswer = await browser.fetch(onB(`${sso.pathname}${sso.search}`));
    expect(ssoAnswer.status, await ssoAnswer.clone().text()).toBe(303);
    const loginPage = await (await browser.fetch(onA('/idp/login'))).text();
    const password = await browser.postForm(onB('/idp/login'), {
      csrfToken: csrfOf(loginPage),
      username: 'jdoe',
      password: DEMO_PASSWORD,
    });
    expect(password.status).toBe(303);
    const mfaPage = await (await browser.fetch(onA('/idp/mfa'))).text();
    const enrolled = await browser.postForm(onB('/idp/mfa'), {
      csrfToken: csrfOf(mfaPage),
      passcode: await totpCode(secretOf(mfaPage)),
      nickname: 'Phone',
    });
    expect(enrolled.status).toBe(200);
    const postPage = await enrolled.text();
    const samlResponse = inputValue(postPage, 'SAMLResponse') ?? '';
    expect(samlResponse).not.toBe('');

    // A's SP checks the response B's IdP signed.
    const acs = await browser.postForm(onA('/api/saml/acs'), {
      SAMLResponse: samlResponse,
      RelayState: inputValue(postPage, 'RelayState') ?? '',
    });
    expect(acs.status).toBe(303);
    expect(acs.headers.get('location')).toBe('/welcome');
    const user = await browser.fetch(onB('/api/user'), { headers: { 'x-pra-api-call': 'true' } });
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ username: 'jdoe' });
  });
});
