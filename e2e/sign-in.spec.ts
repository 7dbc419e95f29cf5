import { expect, test } from '@playwright/test';
import { SHORT_SESSION_PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn, isEnrolled, signInFromHome, welcomeCards } from './support/idp';

test.describe.configure({ mode: 'serial' });

test.describe('sign-in through the built-in identity provider', () => {
  const roles = [
    { username: 'jdoe', cards: ['Credential Vault', 'Manage Access', 'Profile', 'User Guides'] },
    {
      username: 'bbrown',
      cards: [
        'Access Reviews',
        'Approvals',
        'Away and Backup',
        'New User',
        'Terminate Vendors',
        'User Guides',
        'Users',
      ],
    },
    {
      username: 'admin',
      cards: ['Access Reviews', 'Administration', 'Approvals', 'New User', 'User Guides', 'Users'],
    },
  ];

  for (const { username, cards } of roles) {
    test(`${username} enrols TOTP on first sign-in and sees exactly the cards of the role`, async ({
      page,
    }) => {
      await page.goto('/home');
      await page.getByRole('link', { name: 'Login', exact: true }).click();
      await expect(page).toHaveURL(/\/idp\/login/);
      await expectAccessible(page, 'IdP sign-in page');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill('wrong-password-123');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByRole('alert')).toContainText(/incorrect/i);
      // administration.spec.ts runs first and signs the admin in (and enrols it) already.
      const earlier = isEnrolled(new URL(page.url()).origin, username);
      expect(await completeIdpSignIn(page, username)).toBe(earlier ? 'passcode' : 'enrolled');
      await expect(page).toHaveURL(/\/welcome$/);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
      await expect.poll(() => welcomeCards(page)).toEqual([...cards].sort());
      await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
      await expectAccessible(page, `/welcome as ${username}`);
    });
  }

  test('a deep link to a guarded route returns there after sign-in', async ({ page }) => {
    await page.goto('/brm/manage-users');
    await expect(page).toHaveURL(/\/idp\/login/);
    await completeIdpSignIn(page, 'bbrown');
    await expect(page).toHaveURL(/\/brm\/manage-users$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeVisible();
  });

  test('on a phone, with the keyboard alone: the menu opens, takes the user to a page, closes and hands focus to it', async ({
    page,
  }) => {
    await signInFromHome(page, 'bbrown');
    await page.setViewportSize({ width: 390, height: 844 });
    const toggle = page.getByRole('button', { name: 'Toggle navigation' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    // The menu's link: /welcome's own Approvals card (once drawn) has the same name.
    const menuLink = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Approvals', exact: true });
    await expect(menuLink).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/brm\/pending-approvals$/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menuLink).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Approvals and Provisioning' })).toBeVisible();
    // Focus went to the new page, not back to the top of the navigation: Tab goes on inside it.
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement))).toBe(
      true,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'Approvals on a phone');
  });

  test('logout ends the session', async ({ page }) => {
    await signInFromHome(page, 'admin');
    await page.getByRole('button', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(/\/home$/);
    const status = await page.request.get('/api/saml/is-authenticated');
    expect(await status.json()).toEqual({ isAuthenticated: false });
    await page.goto('/welcome');
    await expect(page).toHaveURL(/\/idp\/login/);
  });

  test('a vendor opening the approvals page sees the BRM notice', async ({ page }) => {
    await signInFromHome(page, 'jdoe');
    await page.goto('/brm/pending-approvals');
    await expect(
      page.getByText(
        'BRM features are either not enabled for this server, or not enabled for user. If you feel this is in error, please contact your system administrator.',
      ),
    ).toBeVisible();
    await expectAccessible(page, 'BRM notice');
  });
});

test.describe('the session timer', () => {
  test.use({ baseURL: `http://localhost:${SHORT_SESSION_PORT}` });

  test('warns before the session ends, extends it, and times out', async ({ page }) => {
    await page.clock.install();
    await signInFromHome(page, 'msmith');
    // Sessions on this portal last one minute: the warning shows at once, counting down in mm:ss.
    const banner = page.getByText(/Your session will expire in \d\d:\d\d/);
    await expect(banner).toBeVisible();
    await expect(banner).toContainText(/\b00:[0-5]\d\b/);
    await expectAccessible(page, 'session warning');
    const before = await (await page.request.get('/api/saml/is-authenticated')).json();
    await page.getByRole('button', { name: 'Extend Session' }).first().click();
    await expect(page.getByText('Session extended')).toBeVisible();
    const after = await (await page.request.get('/api/saml/is-authenticated')).json();
    expect(after.remainingSessionExtentions).toBe(before.remainingSessionExtentions - 1);
    expect(Date.parse(after.expires)).toBeGreaterThan(Date.parse(before.expires));
    // Past the end (plus the one-second margin) the timeout dialog replaces the banner.
    await page.clock.fastForward('01:10');
    const dialog = page.getByRole('dialog', { name: 'Session Timeout' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      'Your session has timed out. You can login again to start a new session.',
    );
    // Only the browser's clock ran ahead: the server still holds the session, so Extend Session
    // is offered beside Login Again.
    await expect(dialog.getByRole('button', { name: 'Extend Session' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Login Again' })).toBeVisible();
    await expectAccessible(page, 'session timeout dialog');
  });

  test('a session that runs out with extensions left offers Login Again, which signs in again and returns to the page', async ({
    page,
  }) => {
    // The real clock this time: the server must really have ended the one-minute session.
    test.setTimeout(180_000);
    await signInFromHome(page, 'msmith');
    await page.goto('/vendor/profile?from=timeout');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const status = await (await page.request.get('/api/saml/is-authenticated')).json();
    expect(status.remainingSessionExtentions).toBeGreaterThan(0);

    const dialog = page.getByRole('dialog', { name: 'Session Timeout' });
    await expect(dialog).toBeVisible({ timeout: 90_000 });
    const loginAgain = dialog.getByRole('button', { name: 'Login Again' });
    await expect(loginAgain).toBeVisible();
    expect(await (await page.request.get('/api/saml/is-authenticated')).json()).toEqual({
      isAuthenticated: false,
    });
    await expect(dialog.getByRole('button', { name: 'Extend Session' })).toHaveCount(0);
    await expectAccessible(page, 'session timeout dialog after the session ended');

    await loginAgain.click();
    await expect(page).toHaveURL(/\/idp\/login/);
    await completeIdpSignIn(page, 'msmith');
    await expect(page).toHaveURL(/\/vendor\/profile\?from=timeout$/);
    await expect(page.getByRole('dialog', { name: 'Session Timeout' })).toHaveCount(0);
  });
});
