import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import {
  completeIdpSignIn,
  enrolledPasscode,
  isEnrolled,
  rememberPassword,
  signInFromHome,
} from './support/idp';
import { waitForMail } from './support/mailbox';

test.describe.configure({ mode: 'serial' });

const VENDOR = { username: 'jdoe', email: 'jane.doe@acme-imaging.example' };
const run = Date.now().toString(36);
const passwords = [`Passcode-Route-${run}-7!`, `Mailed-Link-${run}-8!`, `Push-Approve-${run}-9!`];

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/** Step 0 with the vendor's username and email, then on to step 2. */
async function identify(page: Page) {
  await page.goto('/home');
  await page.getByRole('link', { name: 'Forgot Password' }).click();
  await expect(page.getByRole('heading', { name: 'Identify Yourself' })).toBeVisible();
  await page.getByLabel('Username').fill(VENDOR.username);
  await page.getByLabel('Email').fill(VENDOR.email);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Select a verification method' })).toBeVisible();
}

/** Step 3: the new password, then Congratulations! and a sign-in with it. */
async function setPasswordAndSignIn(page: Page, password: string) {
  await expect(page.getByRole('heading', { name: 'Set New Password' })).toBeVisible();
  const set = page.getByRole('button', { name: 'Set Password' });
  await expect(set).toBeDisabled();
  await page.getByLabel('New Password').fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await expect(set).toBeEnabled();
  await expectAccessible(page, 'Set New Password');
  await set.click();
  await expect(page.getByRole('heading', { name: 'Congratulations!' })).toBeVisible();
  await expect(page.getByText('Successfully changed password')).toBeVisible();
  rememberPassword(new URL(page.url()).origin, VENDOR.username, password);
  await expectAccessible(page, 'Congratulations!');
  await page.getByRole('link', { name: 'Login' }).click();
  await completeIdpSignIn(page, VENDOR.username, password);
  await expect(page).toHaveURL(/\/welcome$/);
  await logOut(page);
}

test.beforeAll(async ({ browser }) => {
  // The vendor needs an enrolled authenticator (its secret known to this run) for the passcode.
  const page = await browser.newPage();
  const origin = new URL(test.info().project.use.baseURL!).origin;
  if (!isEnrolled(origin, VENDOR.username)) {
    await signInFromHome(page, VENDOR.username);
    await logOut(page);
  }
  await page.close();
});

test('by passcode: the vendor sets a new password and signs in with it', async ({ page }) => {
  await page.goto('/forgot-password');
  await expect(page.getByRole('heading', { name: 'Identify Yourself' })).toBeVisible();
  await expectAccessible(page, 'Identify Yourself');

  // A wrong email: the server's reason, as an error and in a warning box.
  await page.getByLabel('Username').fill(VENDOR.username);
  await page.getByLabel('Email').fill('someone.else@acme-imaging.example');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'No active account matches this username and email address' }),
  ).toHaveCount(2);

  await identify(page);
  await expect(page.getByText(VENDOR.email)).toBeVisible();
  await expectAccessible(page, 'Select a verification method');
  const sendCode = page.getByRole('button', { name: 'Send Code' });
  await expect(sendCode).toBeDisabled();
  await page.getByLabel('6-digit passcode from your authenticator').fill('12345');
  await page.getByLabel('6-digit passcode from your authenticator').blur();
  await expect(page.getByText('OTP must be exactly 6 digits')).toBeVisible();

  // A wrong passcode.
  await page.getByLabel('6-digit passcode from your authenticator').fill('000000');
  await sendCode.click();
  await expect(page.getByRole('alert').filter({ hasText: 'PingID code is not valid' }).first()).toBeVisible();

  const origin = new URL(page.url()).origin;
  await page.getByLabel('6-digit passcode from your authenticator').fill(await enrolledPasscode(origin, VENDOR.username));
  await sendCode.click();
  await expect(page.getByText('PingID code verification succeeded')).toBeVisible();
  // Back from Set New Password goes to the verification step (not the link step).
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Select a verification method' })).toBeVisible();
  await page.getByLabel('6-digit passcode from your authenticator').fill(await enrolledPasscode(origin, VENDOR.username));
  await sendCode.click();
  await setPasswordAndSignIn(page, passwords[0]!);
});

test('by reset email: the link verifies, works once, and a used link returns to step 0', async ({ page }) => {
  await identify(page);
  await page.getByRole('button', { name: 'Send Password Reset Email' }).click();
  await expect(page.getByRole('heading', { name: 'Password Reset Email Sent' })).toBeVisible();
  await expect(page.getByText('Password reset email sent.')).toBeVisible();
  await expectAccessible(page, 'Password Reset Email Sent');
  const mail = await waitForMail(page.request, VENDOR.email, /reset your password/);
  const link = /https?:\/\/\S+\/forgot-password\?code=[A-Z0-9-]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  await page.getByRole('button', { name: 'Done' }).or(page.getByRole('link', { name: 'Done' })).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Password Reset Link' })).toBeVisible();
  await expect(page.getByText('Reset code validated.')).toBeVisible();
  await expect(page.getByText(VENDOR.username, { exact: true })).toBeVisible();
  await expectAccessible(page, 'Password Reset Link');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Set New Password' })).toBeVisible();
  // Back from Set New Password goes to the link step when arrived by link.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Password Reset Link' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await setPasswordAndSignIn(page, passwords[1]!);

  // The same link again: used.
  await page.goto(link!);
  await expect(page.getByText('Invalid reset code. The code has already been used.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Identify Yourself' })).toBeVisible();
  // A made-up code.
  await page.goto('/forgot-password?code=AAAA-BBBB-CCCC-DDDD');
  await expect(page.getByText('Invalid reset code. The code is not valid.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Identify Yourself' })).toBeVisible();
  await expectAccessible(page, 'Identify Yourself after an invalid link');
});
