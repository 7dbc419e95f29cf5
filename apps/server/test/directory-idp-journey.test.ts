// The production journey, through the portal's own screens and calls only (nothing here
// writes the directory itself): OpenLDAP (the slapd harness) behind Debian's SimpleSAMLphp with its
// ldap:LDAP authentication source, and the portal in production mode on PostgreSQL with
// IDENTITY_STORE=ldap, in Chromium. A vendor registers; the BRM (an employee in the same
// directory) approves; the vendor activates with a password that lands in the directory and signs
// in at SimpleSAMLphp with it; changes it on Manage Profile (the old one refused at the IdP, the
// new one let in); resets it by Forgot Password's emailed link; the BRM adds and removes a role
// (group membership follows), disables (refused at the IdP) and enables it; the directory stops
// (the banner, 503 on an account change, reads fine) and returns; the BRM terminates the vendor
// (refused, no portal group left); the BRM's Log Out ends the IdP's session too.
// The directory's outage under load (20 role changes, 5 resets, 60 s) is directory-outage.test.ts.
import { existsSync } from 'node:fs';
import { roleName } from '@pra/contracts';
import { Client } from 'ldapts';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const FIRST_PASSWORD = 'Sturdy-Harbor-Lamp-48';
const CHANGED_PASSWORD = 'Quiet-Orchard-Step-53';
const RESET_PASSWORD = 'Bright-Canyon-Gate-62';
const ORG = 'Contoso Imaging';
const OTHER_ORG = 'Fabrikam Devices';
const VENDOR = { first: 'Vic', last: 'Valdez', email: 'vic.valdez@contoso.example' };

describe.skipIf(missing.length > 0)(
  'production journey: OpenLDAP + SimpleSAMLphp (ldap:LDAP) + the portal with IDENTITY_STORE=ldap',
  () => {
    let slapd: Slapd;
    let idp: SimpleSamlPhp;
    let portal: ProductionPortal;
    let browser: Browser;
    /** The BRM's browser: signed in at the IdP and the portal for the whole journey. */
    let brm: Page;
    let username = '';
    const started = performance.now();

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
        setup: [
          ['org-add', ORG, '--domain', 'contoso.example'],
          ['org-add', OTHER_ORG, '--domain', 'fabrikam.example'],
          ['brm-assign', 'bea.brm', ORG],
          ['brm-assign', 'bea.brm', OTHER_ORG],
        ],
        // A wait for the directory as long as a loaded CI machine needs (slapd and the portal run
        // beside the browser journeys there): the outage below stops slapd, which refuses at once.
        env: { ...slapd.env, LDAP_HEALTH_CACHE_SECONDS: '1', LDAP_TIMEOUT_MS: '20000' },
      });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await portal?.close();
      await idp?.stop();
      await slapd?.close();
      console.info(`directory-idp-journey: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
    });

    /** The IdP's sign-in form, filled in; where it ends: the portal's path, or 'refused at the IdP'. */
    async function signInAt(page: Page, user: string, password: string): Promise<string> {
      await page.goto(`${portal.origin}/api/saml/login/standard?next=${encodeURIComponent('/welcome')}`);
      await page.waitForURL((url) => url.origin === idp.origin, { timeout: 30_000 });
      await page.locator('input[name=username]').fill(user);
      await page.locator('input[name=password]').fill(password);
      await page.locator('input[name=password]').press('Enter');
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

    /** A fresh browser (no IdP session) signs in; the page stays open on where it ended. */
    async function freshSignIn(user: string, password: string): Promise<{ where: string; page: Page }> {
      const context: BrowserContext = await browser.newContext();
      const page = await context.newPage();
      return { where: await signInAt(page, user, password), page };
    }

    const fresh = async (user: string, password: string) => {
      const { where, page } = await freshSignIn(user, password);
      await page.context().close();
      return where;
    };

    /**
     * Waits for what a step leads to; when it does not come, fails with what the page says instead
     * and the portal's last log lines (a refusal, an outage), not a bare timeout.
     */
    async function arrives(page: Page, what: Locator): Promise<void> {
      try {
        await what.waitFor({ timeout: 45_000 });
      } catch (error) {
        const said = await page
          .locator('body')
          .innerText()
          .catch(() => '(no page)');
        const log = portal.instance.output.join('').split('\n').slice(-15).join('\n');
        throw new Error(`${String(error)}\nthe page says:\n${said}\nthe portal's log ends:\n${log}`);
      }
    }

    /** The newest mail to `to` whose source matches `pattern`: the link it holds. */
    async function linkIn(to: string, pattern: RegExp): Promise<string> {
      const end = Date.now() + 30_000;
      for (;;) {
        const mail = portal.relay.messages.filter((m) => m.to.includes(to) && pattern.test(m.text)).at(-1);
        const link = mail ? pattern.exec(mail.text)?.[0] : undefined;
        if (link) return link;
        if (Date.now() > end) throw new Error(`no mail to ${to} matching ${pattern}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }

    /** A call the BRM's screens make, from its browser (session cookie, CSRF token, API marker). */
    async function brmPost(path: string, data: unknown) {
      const csrf = (await (await brm.request.get(`${portal.origin}/api/csrf`)).json()) as {
        csrfToken: string;
      };
      return brm.request.post(`${portal.origin}${path}`, {
        data,
        headers: { 'x-pra-api-call': 'true', 'x-csrf-token': csrf.csrfToken },
      });
    }

    async function brmCall(path: string, data: unknown): Promise<void> {
      const response = await brmPost(path, data);
      expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
    }

    /** The vendor as the directory holds it: its groups (by cn) and whether it is locked. */
    async function inDirectory(): Promise<{ groups: string[]; locked: boolean; dn: string } | null> {
      const client = new Client({ url: slapd.url, timeout: 5_000 });
      await client.bind(slapd.adminDn, slapd.adminPassword);
      try {
        const { searchEntries } = await client.search(slapd.suffix, {
          filter: `(uid=${username})`,
          attributes: ['pwdAccountLockedTime'],
        });
        const entry = searchEntries[0];
        if (!entry) return null;
        const groups = await client.search(slapd.groupsDn, {
          filter: `(member=${entry.dn})`,
          attributes: ['cn'],
        });
        return {
          dn: entry.dn,
          // ldapts lists a requested attribute the entry lacks as an empty array.
          locked: [entry.pwdAccountLockedTime ?? []].flat().length > 0,
          groups: groups.searchEntries.map((g) => String(g.cn)).sort(),
        };
      } finally {
        await client.unbind();
      }
    }

    /** Waits (the provisioning worker applies within seconds) until the directory shows `wanted`. */
    async function directoryShows(
      wanted: (v: NonNullable<Awaited<ReturnType<typeof inDirectory>>>) => boolean,
    ) {
      const end = Date.now() + 30_000;
      for (;;) {
        const vendor = await inDirectory();
        if (vendor && wanted(vendor)) return vendor;
        if (Date.now() > end) {
          const rows = await runSql(
            portal.databaseUrl,
            `select p.action, p.status, p.attempts, p.last_error, a.status as account from provisioning p
             join accounts a on a.id = p.account_id where a.username = '${username}' order by p.created_at`,
          );
          throw new Error(
            `the directory never showed it: ${JSON.stringify(vendor)}; queue: ${JSON.stringify(rows.rows)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }

    it('the BRM, an employee in the same directory, signs in with the directory’s password', async () => {
      expect(await fresh('bea.brm', 'wrong-password')).toBe('refused at the IdP');
      const signedIn = await freshSignIn('bea.brm', BRM_PASSWORD);
      expect(signedIn.where).toBe('/welcome');
      brm = signedIn.page;
      const row = await runSql(portal.databaseUrl, `select email from accounts where username = 'bea.brm'`);
      expect(row.rows[0]).toEqual({ email: 'bea@hospital.example' });
    }, 120_000);

    it('a vendor registers, the BRM approves, and the password set at activation signs in at the IdP', async () => {
      const vendor = await (await browser.newContext()).newPage();
      await vendor.goto(`${portal.origin}/new-user`);
      await vendor.getByLabel('First Name').fill(VENDOR.first);
      await vendor.getByLabel('Last Name').fill(VENDOR.last);
      await vendor.getByLabel('Email').fill(VENDOR.email);
      await vendor.getByLabel('Organization').selectOption({ label: ORG });
      await vendor.getByLabel('I agree to the Acceptable Use Policy').check();
      await vendor.getByRole('button', { name: 'Register' }).click();
      await arrives(vendor, vendor.getByRole('heading', { name: 'Registration Successful' }));

      await brm.goto(`${portal.origin}/brm/pending-approvals`);
      const pending = brm.getByRole('row').filter({ hasText: VENDOR.email });
      await pending.getByRole('button', { name: 'Approve' }).click();
      await brm.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
      await arrives(brm, brm.getByText('Request has been successfully approved'));

      await vendor.goto(await linkIn(VENDOR.email, /https?:\/\/\S+\/activate-account\?code=[A-Z0-9-]+/));
      username = await vendor.getByLabel('Username').inputValue();
      expect(username).not.toBe('');
      await vendor.getByRole('button', { name: 'Next' }).click();
      await vendor.getByLabel('New Password').fill(FIRST_PASSWORD);
      await vendor.getByLabel('Confirm Password').fill(FIRST_PASSWORD);
      await vendor.getByRole('button', { name: 'Activate Account' }).click();
      await arrives(vendor, vendor.getByRole('heading', { name: 'Congratulations!' }));
      await vendor.context().close();

      // In the directory: enabled, in the organization's group; the password is the IdP's now.
      const entry = await directoryShows((v) => v.groups.length === 1 && !v.locked);
      expect(entry.groups).toEqual([roleName(ORG)]);
      expect(entry.dn).toBe(`uid=${username},${slapd.vendorsDn}`);
      expect(await fresh(username, FIRST_PASSWORD)).toBe('/welcome');
      // Never in clear in the portal's tables: not the queue, not the audit trail, not the account.
      const stored = await runSql(
        portal.databaseUrl,
        `select (select count(*) from provisioning p where row_to_json(p)::text like '%${FIRST_PASSWORD}%')
              + (select count(*) from audit_events e where row_to_json(e)::text like '%${FIRST_PASSWORD}%')
              + (select count(*) from accounts a where row_to_json(a)::text like '%${FIRST_PASSWORD}%') as n`,
      );
      expect(Number(stored.rows[0]?.n)).toBe(0);
    }, 180_000);

    it('Change Password on Manage Profile: the IdP refuses the old password and takes the new one', async () => {
      const { where, page } = await freshSignIn(username, FIRST_PASSWORD);
      expect(where).toBe('/welcome');
      await page.goto(`${portal.origin}/vendor/profile`);
      await page.getByLabel('Current Password').fill(FIRST_PASSWORD);
      await page.getByLabel('New Password').fill(CHANGED_PASSWORD);
      await page.getByLabel('Confirm Password').fill(CHANGED_PASSWORD);
      await page.getByRole('button', { name: 'Submit' }).click();
      await arrives(page, page.getByText('Successfully changed password'));
      await page.context().close();
      expect(await fresh(username, FIRST_PASSWORD)).toBe('refused at the IdP');
      expect(await fresh(username, CHANGED_PASSWORD)).toBe('/welcome');
    }, 180_000);

    it('Forgot Password by the emailed link: the reset password signs in at the IdP', async () => {
      const page = await (await browser.newContext()).newPage();
      await page.goto(`${portal.origin}/forgot-password`);
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Email').fill(VENDOR.email);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'Send Password Reset Email' }).click();
      await arrives(page, page.getByRole('heading', { name: 'Password Reset Email Sent' }));
      await page.goto(await linkIn(VENDOR.email, /https?:\/\/\S+\/forgot-password\?code=[A-Z0-9-]+/));
      await page.getByRole('heading', { name: 'Password Reset Link' }).waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('New Password').fill(RESET_PASSWORD);
      await page.getByLabel('Confirm Password').fill(RESET_PASSWORD);
      await page.getByRole('button', { name: 'Set Password' }).click();
      await arrives(page, page.getByRole('link', { name: 'Login' }));
      await page.context().close();
      expect(await fresh(username, CHANGED_PASSWORD)).toBe('refused at the IdP');
      expect(await fresh(username, RESET_PASSWORD)).toBe('/welcome');
    }, 180_000);

    it('the BRM adds and removes a role: the directory’s groups follow', async () => {
      const reason = { justification: 'Imaging project', beneficiaryUsername: username };
      await brmCall('/api/vendor/access/request', { ...reason, selectedNames: [roleName(OTHER_ORG)] });
      await directoryShows((v) => v.groups.length === 2);
      expect((await inDirectory())?.groups).toEqual([roleName(ORG), roleName(OTHER_ORG)].sort());
      await brmCall('/api/vendor/access/current/cancel', { ...reason, selectedNames: [roleName(OTHER_ORG)] });
      await directoryShows((v) => v.groups.length === 1);
      expect((await inDirectory())?.groups).toEqual([roleName(ORG)]);
    }, 120_000);

    it('disabled: refused at the IdP; enabled: let in again', async () => {
      await brmCall('/api/brm/users/enable-or-disable', { enable: false, targetUsername: username });
      await directoryShows((v) => v.locked);
      expect(await fresh(username, RESET_PASSWORD)).toBe('refused at the IdP');
      await brmCall('/api/brm/users/enable-or-disable', { enable: true, targetUsername: username });
      await directoryShows((v) => !v.locked);
      expect(await fresh(username, RESET_PASSWORD)).toBe('/welcome');
    }, 120_000);

    it('the directory stopped: the banner shows, account changes answer 503, reads work; back: the banner goes', async () => {
      const banner = brm.getByText('IIQ is currently unavailable');
      /** The welcome page as the BRM reloads it, until the banner is (or is not) there. */
      const bannerShown = async (shown: boolean) => {
        const end = Date.now() + 20_000;
        for (;;) {
          await brm.goto(`${portal.origin}/welcome`);
          await brm.getByRole('heading', { name: /^Welcome/ }).waitFor();
          if ((await banner.isVisible()) === shown) return;
          if (Date.now() > end) throw new Error(`the banner never ${shown ? 'showed' : 'went'}`);
          await new Promise((r) => setTimeout(r, 500));
        }
      };
      await slapd.stop();
      try {
        await bannerShown(true);
        const refused = await brmPost('/api/vendor/access/request', {
          justification: 'Imaging project',
          beneficiaryUsername: username,
          selectedNames: [roleName(OTHER_ORG)],
        });
        expect(refused.status()).toBe(503);
        expect(await refused.text()).toContain('Account management features are currently unavailable');
        const read = await brm.request.get(`${portal.origin}/api/user`, {
          headers: { 'x-pra-api-call': 'true' },
        });
        expect(read.status()).toBe(200);
        expect(((await read.json()) as { iiqAvailable: boolean }).iiqAvailable).toBe(false);
      } finally {
        await slapd.start();
      }
      await bannerShown(false);
      expect((await inDirectory())?.groups).toEqual([roleName(ORG)]);
    }, 120_000);

    it('terminated: no portal group left, moved out of the vendors, refused at the IdP', async () => {
      await brmCall('/api/brm/terminate-vendors', { emails: [VENDOR.email] });
      // The worker may apply the disable and the group removals before the move: wait for the move.
      const terminatedDn = `uid=${username},${slapd.terminatedDn}`;
      const entry = await directoryShows((v) => v.dn === terminatedDn);
      expect(entry).toMatchObject({ dn: terminatedDn, locked: true, groups: [] });
      expect(await fresh(username, RESET_PASSWORD)).toBe('refused at the IdP');
    }, 120_000);

    it('the BRM’s Log Out ends the IdP’s session too (single logout)', async () => {
      await brm.goto(`${portal.origin}/welcome`);
      await brm.locator('[data-sign-out]').click();
      await brm.waitForURL(`${portal.origin}/home`, { timeout: 30_000 });
      const state = await brm.request.get(`${portal.origin}/api/saml/is-authenticated`);
      expect(((await state.json()) as { isAuthenticated: boolean }).isAuthenticated).toBe(false);
      await brm.goto(`${portal.origin}/api/saml/login/standard?next=${encodeURIComponent('/welcome')}`);
      await brm.waitForURL((url) => url.origin === idp.origin);
      await brm.locator('input[name=password]').waitFor();
    }, 120_000);
  },
);
