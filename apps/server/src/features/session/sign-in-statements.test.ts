import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { csrfOf, inputValue, PASSWORD, totpCode } from '../../../test/support/idp-kit';
import { createAccount } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';

// Issue 31: a sign-in costs its password hash and little else. Each step of a full sign-in
// through the built-in IdP (password and passcode) is held to the number of statements it runs
// today, so that a change that adds a round trip to the sign-in path fails here and says where.

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/**
 * The statements each step runs (BEGIN and COMMIT not counted): 25 for the sign-in, 1 for the
 * page it lands on, 1 for the signed-in `GET /api/user`. Every step starts with the batched
 * session lookup.
 */
const budget = {
  // the session lookup, the AuthnRequest's id recorded for this browser
  'login redirect': 2,
  // the session lookup, the SAML request kept in the session
  '/idp/sso': 2,
  'IdP login page': 1,
  // the session lookup, the account, both attempt counters in one upsert, then (side by side)
  // the attempt given back and the login state kept in the session
  password: 5,
  // the session lookup, and side by side the account with its device, the provider's device and
  // the key policy with the number of keys (which page to show: the tier's requirement, the keys
  // and whether a grace is kept, in one statement, GOVERNANCE.md §7.4); then the policy kept in
  // the login state for the passcode that follows (read once per sign-in)
  'passcode page': 5,
  // the session lookup, the account with its device (the key policy is the login state's), the
  // counters, the code's step recorded, the counters cleared, the login state dropped
  passcode: 6,
  // the session lookup; the request consumed, the assertion recorded and the account read in
  // one statement; the key policy when the assertion's class is not phishing-resistant (one
  // statement, §7.4); the new session, the last sign-in and the audit event in one statement
  ACS: 4,
  // the page drawn with its boot data: the session lookup with the user and the system message in
  // one statement (none when the web app is not built and there is no page to draw)
  '/welcome': 1,
  'GET /api/user': 1,
} as const;
type Step = keyof typeof budget;

describe.each(testDatabaseKinds)('statements of a sign-in on %s', (kind) => {
  let t: TestApp;
  let statements: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { onStatement: (sql) => statements.push(sql) });
    const accountId = await createAccount(t, { username: 'countedvendor' });
    await t.ctx.db
      .insertInto('mfa_devices')
      .values({
        account_id: accountId,
        nickname: 'counted',
        secret_encrypted: t.ctx.encryptor.encrypt(SECRET),
        confirmed_at: new Date(),
      })
      .execute();
  });
  afterAll(async () => t?.close());

  /** One full sign-in, each step's statements. */
  async function signIn(): Promise<Record<Step, string[]>> {
    await t.ctx.db.updateTable('mfa_devices').set({ last_used_step: null }).execute();
    const seen = {} as Record<Step, string[]>;
    const step = async <T>(name: Step, work: () => Promise<T>): Promise<T> => {
      statements = [];
      const result = await work();
      seen[name] = statements;
      return result;
    };
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const login = await step('login redirect', () => client.get('/api/saml/login/standard?next=%2Fwelcome'));
    const sso = new URL(String(login.headers.location));
    const toLogin = await step('/idp/sso', () => client.get(`${sso.pathname}${sso.search}`));
    expect(toLogin.headers.location).toBe('/idp/login');
    const loginPage = await step('IdP login page', () => client.get('/idp/login'));
    const password = await step('password', () =>
      client.postForm('/idp/login', {
        csrfToken: csrfOf(loginPage.body),
        username: 'countedvendor',
        password: PASSWORD,
      }),
    );
    expect(password.statusCode).toBe(303);
    const mfaPage = await step('passcode page', () => client.get('/idp/mfa'));
    const code = await totpCode(SECRET);
    const posted = await step('passcode', () =>
      client.postForm('/idp/mfa', { csrfToken: csrfOf(mfaPage.body), passcode: code }),
    );
    const samlResponse = inputValue(posted.body, 'SAMLResponse');
    expect(samlResponse, posted.body).toBeTruthy();
    const acs = await step('ACS', () =>
      client.postForm('/api/saml/acs', {
        SAMLResponse: samlResponse!,
        RelayState: inputValue(posted.body, 'RelayState') ?? '/welcome',
      }),
    );
    expect(acs.headers.location).toBe('/welcome');
    await step('/welcome', () => client.get('/welcome'));
    const user = await step('GET /api/user', () => client.get('/api/user'));
    expect(user.statusCode).toBe(200);
    return seen;
  }

  it('runs no more statements per step than its budget', async () => {
    await signIn(); // the first sign-in warms what is read once (keys, settings)
    const seen = await signIn();
    for (const [name, most] of Object.entries(budget)) {
      expect(seen[name as Step].length, `${name}:\n${seen[name as Step].join('\n')}`).toBeLessThanOrEqual(
        most,
      );
    }
  });
});
