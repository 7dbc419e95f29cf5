import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn, signInFromHome } from './support/idp';
import { activationLink, waitForMail, type Mail } from './support/mailbox';
import { activate, registerOnBehalf, screenshots, signedInPage } from './support/vendors';

test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const PASSWORD = 'Copper-Meadow-48!';
const NEW_PASSWORD = 'Linen-Harbor-73!';
const vendor = { first: 'Vera', last: 'Lindqvist', email: `vera.lindqvist.${run}@acme-imaging.example` };
const pending = { first: 'Paulo', last: 'Nakamura', email: `paulo.nakamura.${run}@acme-imaging.example` };

/** Filters the users table down to one email and opens that row's Actions menu. */
async function openActions(page: Page, email: string) {
  await page.getByLabel('Filter by username, email or name').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Actions for / }).click();
  return row;
}

test('a BRM disables a vendor (session ends, sign-in refused), enables it again and sends the reset e-mail, whose link sets a new password', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const link = await registerOnBehalf(page, 'bbrown', vendor, 'Acme Imaging');
  const vendorPage = await (await browser.newContext()).newPage();
  const username = await activate(vendorPage, link, PASSWORD);
  await vendorPage.context().close();
  const signedIn = await signedInPage(browser, username, PASSWORD);

  await page.goto('/brm/manage-users');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeVisible();
  await expect(page.getByText(/^Managing \d+ users$/)).toBeVisible();
  const headers = await page.getByRole('columnheader').allInnerTexts();
  expect(headers.map((h) => h.replace(/[▲▼↕]/g, '').trim())).toEqual([
    'Actions',
    'Username',
    'First Name',
    'Last Name',
    'Email',
    'Status',
  ]);
  await expectAccessible(page, '/brm/manage-users');
  await screenshots(page, 'manage-users');

  let row = await openActions(page, vendor.email);
  await expect(page.getByRole('button', { name: 'Reset Account Activation Code' })).toHaveCount(0);
  await expectAccessible(page, '/brm/manage-users actions menu');
  await page.screenshot({
    path: `${process.env.PRA_SCREENSHOT_DIR ?? process.env.PRA_E2E_DIR}/manage-users-actions.png`,
  });
  await page.getByRole('button', { name: 'Disable User' }).click();
  await expect(page.getByText(`User ${username} is now disabled`)).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Disabled' })).toBeVisible();
  await expect(row).toHaveClass(/fst-italic/);

  // The vendor's open session has ended, and signing in again is refused.
  expect((await signedIn.request.get('/api/user', { headers: { 'x-pra-api-call': 'true' } })).status()).toBe(
    401,
  );
  await signedIn.goto('/welcome');
  await expect(signedIn).toHaveURL(/\/idp\/login/);
  await signedIn.getByLabel('Username').fill(username);
  await signedIn.getByLabel('Password').fill(PASSWORD);
  await signedIn.getByRole('button', { name: 'Sign In' }).click();
  await expect(signedIn.getByRole('alert')).toContainText(/cannot sign in/);

  row = await openActions(page, vendor.email);
  await expect(page.getByRole('button', { name: 'Send One-Time Password E-mail' })).toBeDisabled();
  await page.getByRole('button', { name: 'Enable User' }).click();
  await expect(page.getByText(`User ${username} is now enabled`)).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Enabled' })).toBeVisible();
  await signedIn.goto('/home');
  await signedIn.getByRole('link', { name: 'Login', exact: true }).click();
  await completeIdpSignIn(signedIn, username, PASSWORD);
  await expect(signedIn).toHaveURL(/\/welcome$/);

  await openActions(page, vendor.email);
  await page.getByRole('button', { name: 'Send One-Time Password E-mail' }).click();
  await expect(page.getByText('Reset e-mail sent')).toBeVisible();
  const mail = await waitForMail(page.request, vendor.email, /.*/, '/forgot-password?code=');
  const resetLink = /https?:\/\/\S+\/forgot-password\?code=[A-Z0-9-]+/.exec(mail.text)?.[0];
  expect(resetLink).toBeTruthy();
  await signedIn.context().close();

  // The vendor follows the link from the mailbox, sets a new password and signs in with it.
  const vendorReset = await (await browser.newContext()).newPage();
  await vendorReset.goto(resetLink!);
  await expect(vendorReset.getByRole('heading', { name: 'Password Reset Link' })).toBeVisible();
  await vendorReset.getByRole('button', { name: 'Next' }).click();
  await expect(vendorReset.getByRole('heading', { name: 'Set New Password' })).toBeVisible();
  await vendorReset.getByLabel('New Password').fill(NEW_PASSWORD);
  await vendorReset.getByLabel('Confirm Password').fill(NEW_PASSWORD);
  await vendorReset.getByRole('button', { name: 'Set Password' }).click();
  await expect(vendorReset.getByRole('heading', { name: 'Congratulations!' })).toBeVisible();
  await vendorReset.getByRole('link', { name: 'Login' }).click();
  await completeIdpSignIn(vendorReset, username, NEW_PASSWORD);
  await expect(vendorReset).toHaveURL(/\/welcome$/);
  await vendorReset.context().close();
});

test('an admin resets an activation code: the new code works, the old one does not', async ({ page }) => {
  test.setTimeout(120_000);
  const oldLink = await registerOnBehalf(page, 'bbrown', pending, 'Acme Imaging');
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await signInFromHome(page, 'admin');
  await page.goto('/brm/manage-users');
  await openActions(page, pending.email);
  await expectAccessible(page, '/brm/manage-users as admin');
  await page.getByRole('button', { name: 'Reset Account Activation Code' }).click();
  await expect(page.getByText('Successfully reset activation code')).toBeVisible();
  let newLink = oldLink;
  await expect
    .poll(async () => {
      const mails = (await (await page.request.get('/dev/mailbox/api/messages')).json()) as Mail[];
      const links = mails.filter((m) => m.to === pending.email).map(activationLink);
      newLink = links.find((l) => l !== oldLink) ?? oldLink;
      return newLink !== oldLink;
    })
    .toBe(true);
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.goto(oldLink);
  await expect(page.getByText(/has expired|not valid/)).toBeVisible();
  await activate(page, newLink, PASSWORD);
});
