import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn, signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';
import { createActiveVendor, logOut, screenshots } from './support/world';

test.describe.configure({ mode: 'serial' });
// Three sign-ins with TOTP and an activation.
test.setTimeout(180_000);

const run = Date.now().toString(36);
const vendor = {
  firstName: 'Paula',
  lastName: 'Reyes',
  email: `paula.reyes.${run}@globex.example`,
  org: 'Globex Health IT',
};
const FIRST_PASSWORD = 'Granite-Meadow-31!';
const NEW_PASSWORD = 'Copper-Willow-84!';

test('a vendor changes its password on Manage Profile and signs in with the new one; the old one fails', async ({
  page,
}) => {
  await signInFromHome(page, 'admin');
  const username = await createActiveVendor(page, vendor, FIRST_PASSWORD);

  await page
    .getByRole('main')
    .getByRole('link', { name: /Profile/ })
    .click();
  await expect(page).toHaveURL(/\/vendor\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Profile' })).toBeVisible();
  await expect(page.getByText('Paula')).toBeVisible();
  await expect(page.getByText('Reyes', { exact: true })).toBeVisible();

  // A wrong current password is refused and changes nothing.
  await page.getByLabel('Current Password').fill('Not-My-Password-1!');
  await page.getByLabel('New Password').fill(NEW_PASSWORD);
  await page.getByLabel('Confirm Password').fill(`${NEW_PASSWORD}x`);
  await expect(page.getByText('Passwords must match')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await page.getByLabel('Confirm Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Current password is incorrect')).toBeVisible();
  await expectAccessible(page, '/vendor/profile');
  await screenshots(page, 'profile');

  await page.getByLabel('Current Password').fill(FIRST_PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Successfully changed password')).toBeVisible();
  await expect(page.getByLabel('Current Password')).toHaveValue('');
  await waitForMail(page.request, vendor.email, /your password was changed/);
  await logOut(page);

  // The old password no longer signs in; the new one does.
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(FIRST_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(
    page.getByText('The username or password is incorrect, or the account cannot sign in.'),
  ).toBeVisible();
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await completeIdpSignIn(page, username, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/welcome$/);
});

test('a BRM is sent from Manage Profile to the welcome page', async ({ page }) => {
  await signInFromHome(page, 'bbrown');
  await page.goto('/vendor/profile');
  await expect(page).toHaveURL(/\/welcome$/);
});
