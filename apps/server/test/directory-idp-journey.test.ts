// The directory journey as far as the portal writes the directory today: OpenLDAP (the slapd
// harness) behind SimpleSAMLphp's ldap:LDAP source, and the portal in production mode with
// IDENTITY_STORE=ldap. An employee BRM loaded in the directory signs in with the directory's
// password; a vendor account is written, given a password, disabled, enabled and terminated by the
// portal's LDAP identity store, and the IdP lets the vendor in or refuses accordingly.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createIdentityStore } from '../src/platform/directory/create-store';
import type { IdentityStore } from '../src/platform/directory/identity-store';
import { startProductionPortal, type ProductionPortal } from './support/production-portal';
import { runSql } from './support/server-process';
import { simpleSamlPhpMissing, startSimpleSamlPhp, type SimpleSamlPhp } from './support/simplesamlphp';
import { slapdInstalled, startSlapd, type Slapd } from './support/slapd';

const CHROMIUM = '/usr/bin/chromium';
const missing = [
  ...simpleSamlPhpMissing(),
  slapdInstalled ? null : 'slapd',
  existsSync(CHROMIUM) ? null : `Chromium (${CHROMIUM})`,
  process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL (PostgreSQL)',
].filter(Boolean);
if (missing.length > 0) console.warn(`SKIPPED directory-idp-journey.test.ts: needs ${missing.join(', ')}`);

const BRM_PASSWORD = 'Brm-Directory-Pass-7';
const VENDOR_PASSWORD = 'Vendor-Set-In-Portal-8';

describe.skipIf(missing.length > 0)(
  'OpenLDAP + SimpleSAMLphp (ldap:LDAP) + the portal with IDENTITY_STORE=ldap',
  () => {
    let slapd: Slapd;
    let idp: SimpleSamlPhp;
    let portal: ProductionPortal;
    let store: IdentityStore;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      slapd = await startSlapd({
        people: [
          {
            uid: 'bea.brm',
            givenName: 'Bea',
            sn: 'Manager',
            mail: 'bea@hospital.example',
            password: BRM_PASSWORD,
          },
        ],
      });
      idp = await startSimpleSamlPhp({
        auth: {
          ldap: {
            url: slapd.url,
            baseDn: slapd.suffix,
            usernameAttribute: 'uid',
            searchDn: slapd.adminDn,
            searchPassword: slapd.adminPassword,
          },
        },
      });
      portal = await startProductionPortal(idp, {
        admins: [
          { username: 'bea.brm', email: 'bea.old@hospital.example', givenName: 'Bea', familyName: 'Manager' },
        ],
        env: slapd.env,
      });
      await runSql(
        portal.databaseUrl,
        `insert into accounts (username, given_name, family_name, email, type, status, password_hash)
       values ('vic.vendor', 'Vic', 'Vendor', 'vic@vendor.example', 'vendor', 'active', '')`,
      );
      // The portal's own LDAP store, as the portal's calls use it (same settings as the server's).
      store = createIdentityStore(loadConfig({ PRA_MODE: 'standalone', ...slapd.env }));
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await store?.close();
      await portal?.close();
      await idp?.stop();
      await slapd?.close();
    });

    /** A fresh browser signs in at SimpleSAMLphp; where it ends: the portal's path, or 'refused at the IdP'. */
    async function signIn(username: string, password: string): Promise<string> {
      const context = await browser.newContext();
      page = await context.newPage();
      await page.goto(`${portal.origin}/api/saml/login/standard?next=${encodeURIComponent('/welcome')}`);
      await page.waitForURL((url) => url.origin === idp.origin, { timeout: 30_000 });
      await page.locator('input[name=username]').fill(username);
      await page.locator('input[name=password]').fill(password);
      await page.locator('input[name=password]').press('Enter');
      // The IdP either sends the browser on to the portal or shows its own refusal.
      const outcome = await Promise.race([
        page.waitForURL((url) => url.origin === portal.origin, { timeout: 30_000 }).then(() => 'portal'),
        page
          .getByText('Incorrect username or password')
          .first()
          .waitFor({ timeout: 30_000 })
          .then(() => 'refused at the IdP'),
      ]);
      if (outcome !== 'portal') return outcome;
      await page.waitForURL((u) => u.pathname !== '/api/saml/acs');
      return new URL(page.url()).pathname;
    }

    it('the BRM, an employee in the same directory, signs in with the directory’s password', async () => {
      expect(await signIn('bea.brm', 'wrong-password')).toBe('refused at the IdP');
      expect(await signIn('bea.brm', BRM_PASSWORD)).toBe('/welcome');
      const row = await runSql(portal.databaseUrl, `select email from accounts where username = 'bea.brm'`);
      expect(row.rows[0]).toEqual({ email: 'bea@hospital.example' });
    }, 120_000);

    it('a vendor signs in with the password the portal set, refused while disabled and once terminated', async () => {
      await store.ensureAccount({
        username: 'vic.vendor',
        givenName: 'Vic',
        familyName: 'Vendor',
        email: 'vic@vendor.example',
      });
      await store.setPassword('vic.vendor', VENDOR_PASSWORD);
      expect(await signIn('vic.vendor', VENDOR_PASSWORD)).toBe('/welcome');
      await store.setEnabled('vic.vendor', false);
      expect(await signIn('vic.vendor', VENDOR_PASSWORD)).toBe('refused at the IdP');
      await store.setEnabled('vic.vendor', true);
      expect(await signIn('vic.vendor', VENDOR_PASSWORD)).toBe('/welcome');
      // A role added and removed: group membership follows; then one kept until termination.
      const role = 'PRA - Vendor Access - Contoso - BR';
      const member = async () =>
        [...(await store.listGroups()).entries()].filter(([, members]) =>
          members.some((m) => m.toLowerCase().includes('uid=vic.vendor')),
        ).length;
      await store.ensureGroup(role);
      await store.setRoles('vic.vendor', [role]);
      expect(await member()).toBe(1);
      await store.setRoles('vic.vendor', []);
      expect(await member()).toBe(0);
      await store.setRoles('vic.vendor', [role]);
      await store.terminate('vic.vendor');
      expect(await member()).toBe(0);
      expect(await signIn('vic.vendor', VENDOR_PASSWORD)).toBe('refused at the IdP');
    }, 240_000);
  },
);
