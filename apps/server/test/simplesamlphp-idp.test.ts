// The portal in production mode on PostgreSQL with a real external IdP nobody here wrote:
// Debian's SimpleSAMLphp (php-fpm behind nginx). Chromium signs in through it, the required
// authentication context is enforced, the IdP's email reaches the account, and single logout
// works both ways. SAML metadata is exchanged as an operator would: the IdP's into IDP_METADATA,
// the portal's into the IdP's SP metadata.
import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProductionPortal, type ProductionPortal } from './support/production-portal';
import { runSql } from './support/server-process';
import { simpleSamlPhpMissing, startSimpleSamlPhp, type SimpleSamlPhp } from './support/simplesamlphp';

const CHROMIUM = '/usr/bin/chromium';
const MFA = 'https://refeds.org/profile/mfa';
const missing = [
  ...simpleSamlPhpMissing(),
  existsSync(CHROMIUM) ? null : `Chromium (${CHROMIUM})`,
  process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL (PostgreSQL)',
].filter(Boolean);
if (missing.length > 0) console.warn(`SKIPPED simplesamlphp-idp.test.ts: needs ${missing.join(', ')}`);

/** Serious and critical axe findings on the page (none expected). */
async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page: page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.skipIf(missing.length > 0)('production mode with SimpleSAMLphp as the hospital’s IdP', () => {
  let idp: SimpleSamlPhp;
  let portal: ProductionPortal;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let origin = '';
  const database = { url: '' };

  beforeAll(async () => {
    idp = await startSimpleSamlPhp({
      auth: {
        users: [
          {
            username: 'ada.mfa',
            password: 'Ada-Idp-Password-1',
            attributes: {
              uid: ['ada.mfa'],
              givenName: ['Ada'],
              sn: ['Lovelace'],
              mail: ['ada@directory.example'],
            },
          },
          {
            username: 'bob.pw',
            password: 'Bob-Idp-Password-1',
            attributes: {
              uid: ['bob.pw'],
              givenName: ['Bob'],
              sn: ['Builder'],
              mail: ['bob@directory.example'],
            },
          },
        ],
      },
      strongContext: { classRef: MFA, usernames: ['ada.mfa'] },
    });
    portal = await startProductionPortal(idp, {
      admins: [
        { username: 'ada.mfa', email: 'ada.mfa@portal.example', givenName: 'Ada', familyName: 'Old' },
        { username: 'bob.pw', email: 'bob.pw@portal.example', givenName: 'Bob', familyName: 'Builder' },
      ],
      env: { IDP_REQUIRED_AUTHN_CONTEXT: MFA },
    });
    origin = portal.origin;
    database.url = portal.databaseUrl;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    context = await browser.newContext();
    page = await context.newPage();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
    await idp?.stop();
  });

  async function signInAtIdp(username: string, password: string): Promise<void> {
    await page.goto(`${origin}/api/saml/login/standard?next=${encodeURIComponent('/welcome')}`);
    await page.waitForURL((url) => url.origin === idp.origin, { timeout: 30_000 });
    await page.locator('input[name=username]').fill(username);
    await page.locator('input[name=password]').fill(password);
    await page.locator('input[name=password]').press('Enter');
    await page.waitForURL((url) => url.origin === origin, { timeout: 30_000 });
  }

  async function signedIn(): Promise<boolean> {
    const res = await page.request.get(`${origin}/api/saml/is-authenticated`);
    return ((await res.json()) as { isAuthenticated: boolean }).isAuthenticated;
  }

  it('refuses a password-only sign-in when MFA is required, with a page saying why', async () => {
    await signInAtIdp('bob.pw', 'Bob-Idp-Password-1');
    await page.waitForURL(`${origin}/auth-failure?reason=authn-context`);
    await page.getByRole('heading', { name: 'Authentication Failure' }).waitFor();
    await page.getByText('without the multi-factor authentication this portal requires').waitFor();
    expect(await axeProblems(page)).toEqual([]);
    expect(await signedIn()).toBe(false);
    const audit = await runSql(
      database.url,
      `select details from audit_events where action = 'signin' and outcome = 'failure' and target_username = 'bob.pw'`,
    );
    expect(audit.rows[0]?.details).toMatchObject({ reason: 'authentication context not accepted' });
    // The IdP still holds Bob's session: end it so the next sign-in asks for a password again.
    await context.clearCookies();
  }, 120_000);

  it('signs in with MFA, takes the directory’s email and names, and logs out at the IdP too', async () => {
    await signInAtIdp('ada.mfa', 'Ada-Idp-Password-1');
    await page.waitForURL(`${origin}/welcome`);
    await page.getByRole('heading', { name: 'Welcome Ada Lovelace' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    const account = await runSql(
      database.url,
      `select email, family_name from accounts where username = 'ada.mfa'`,
    );
    expect(account.rows[0]).toEqual({ email: 'ada@directory.example', family_name: 'Lovelace' });
    // SP-initiated: the portal's Log Out ends its session, then the IdP's, and lands on /home.
    await page.locator('[data-sign-out]').click();
    await page.waitForURL(`${origin}/home`, { timeout: 30_000 });
    expect(await signedIn()).toBe(false);
    // The IdP's session is gone too: signing in asks for the password again.
    await page.goto(`${origin}/api/saml/login/standard?next=${encodeURIComponent('/welcome')}`);
    await page.waitForURL((url) => url.origin === idp.origin);
    await page.locator('input[name=password]').waitFor();
  }, 120_000);

  it('ends the portal session when the IdP starts the logout, answering it', async () => {
    await signInAtIdp('ada.mfa', 'Ada-Idp-Password-1');
    await page.waitForURL(`${origin}/welcome`);
    expect(await signedIn()).toBe(true);
    // IdP-initiated: SimpleSAMLphp sends its LogoutRequest to the portal, which answers it.
    const returnTo = `${origin}/home`;
    await page.goto(
      `${idp.origin}/simplesaml/saml2/idp/SingleLogoutService.php?ReturnTo=${encodeURIComponent(returnTo)}`,
    );
    await page.waitForURL(returnTo, { timeout: 30_000 });
    expect(await signedIn()).toBe(false);
    const audit = await runSql(
      database.url,
      `select details from audit_events where action = 'signout' and outcome = 'success' order by occurred_at desc limit 1`,
    );
    expect(audit.rows[0]?.details).toMatchObject({ initiatedBy: 'idp' });
  }, 120_000);
});
