import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import {
  completeIdpSignIn,
  currentPassword,
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

/**
 * Types a passcode as a person would: once the waiting dialog of the previous attempt has closed
 * (it holds the focus while it is up), checking the field kept it.
 */
async function typePasscode(page: Page, code: string) {
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const field = page.getByLabel('6-digit passcode from your authenticator');
  await field.fill(code);
  await expect(field).toHaveValue(code);
}

test('by passcode: the vendor sets a new password and signs in with it', async ({ page }) => {
  // Up to four passcodes of one authenticator: each may wait for a fresh 30-second step.
  test.setTimeout(180_000);
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
  // An authenticator app but no paired phone: nothing could receive a push, so none is offered.
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await expect(page.getByLabel('6-digit passcode from your authenticator')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send Push' })).toHaveCount(0);
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
  await typePasscode(page, await enrolledPasscode(origin, VENDOR.username));
  await sendCode.click();
  await expect(page.getByText('PingID code verification succeeded')).toBeVisible();
  // Back from Set New Password goes to the verification step (not the link step).
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Select a verification method' })).toBeVisible();
  await typePasscode(page, await enrolledPasscode(origin, VENDOR.username));
  await sendCode.click();
  await setPasswordAndSignIn(page, passwords[0]!);
});

test('by reset email: the link verifies, works once, and a used link returns to step 0', async ({ page }) => {
  test.setTimeout(180_000);
  await identify(page);
  await page.getByRole('button', { name: 'Send Password Reset Email' }).click();
  await expect(page.getByRole('heading', { name: 'Password Reset Email Sent' })).toBeVisible();
  await expect(page.getByText('Password reset email sent.')).toBeVisible();
  await expectAccessible(page, 'Password Reset Email Sent');
  const mail = await waitForMail(page.request, VENDOR.email, /reset your password/);
  const link = /https?:\/\/\S+\/forgot-password\?code=[A-Z0-9-]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  await page
    .getByRole('button', { name: 'Done' })
    .or(page.getByRole('link', { name: 'Done' }))
    .click();
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

  // The same link again: used. The page itself says why (the toast goes after a few seconds).
  await page.goto(link!);
  const main = page.getByRole('main');
  await expect(main.getByText('Invalid reset code. The code has already been used.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Identify Yourself' })).toBeVisible();
  await expectAccessible(page, 'Identify Yourself after a used link');
  // A made-up code.
  await page.goto('/forgot-password?code=AAAA-BBBB-CCCC-DDDD');
  await expect(main.getByText('Invalid reset code. The code is not valid.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Identify Yourself' })).toBeVisible();
  await expectAccessible(page, 'Identify Yourself after an invalid link');
});

test.describe('by push', () => {
  let phone: Page;

  test.beforeAll(async ({ browser }) => {
    // Two passcodes (sign-in, then the pairing's confirmation), each may wait for a fresh step.
    test.setTimeout(120_000);
    // The computer signs in and pairs; a second context, the size of a phone, plays the phone.
    const computerContext = await browser.newContext();
    const computer = await computerContext.newPage();
    await signInFromHome(computer, VENDOR.username);
    await computer.goto('/authenticator');
    // Pairing needs the owner: the password and a passcode of the enrolled authenticator.
    const origin = new URL(computer.url()).origin;
    await computer.getByLabel('Phone nickname').fill('Jane’s phone');
    await computer.getByLabel('Your password').fill(currentPassword(origin, VENDOR.username));
    await computer
      .getByLabel('Passcode from your authenticator app')
      .fill(await enrolledPasscode(origin, VENDOR.username));
    await computer.getByRole('button', { name: 'Pair Phone' }).click();
    await expect(computer.getByRole('img', { name: /QR code that pairs your phone/ })).toBeVisible();
    await expectAccessible(computer, 'pairing QR code');
    await computer.getByText('Cannot scan the code?').click();
    const pairingUrl = await computer
      .getByRole('link', { name: /\/authenticator#key=/ })
      .getAttribute('href');
    await logOut(computer);
    await computerContext.close();

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    phone = await context.newPage();
    await phone.goto(pairingUrl!);
    await expect(phone.getByText(/Paired as Jane’s phone for jdoe/)).toBeVisible();
    // The key left the address bar; the phone keeps it in its storage.
    expect(phone.url()).not.toContain('#key=');
    await expect(phone.getByText('No requests are waiting.', { exact: false })).toBeVisible();
    // A phone paired today is shown no passcode (it could approve a reset with it).
    await expect(phone.getByText(/Passcodes show here from/)).toBeVisible();
    await expectAccessible(phone, '/authenticator on a phone');
  });

  test.afterAll(async () => phone?.context().close());

  async function sendPush(page: Page) {
    await identify(page);
    // The phone is paired now: the push panel is offered beside the passcode.
    await page.getByRole('button', { name: 'Send Push' }).click();
    const dialog = page.getByRole('dialog', { name: 'Waiting for approval' });
    await expect(dialog).toBeVisible();
    return dialog;
  }

  test('denied on the phone: PingID app verification was declined', async ({ page }) => {
    const dialog = await sendPush(page);
    await expectAccessible(page, 'waiting dialog');
    await expect(phone.getByRole('heading', { name: 'Password reset request' })).toBeVisible();
    await expectAccessible(phone, 'pending request on the phone');
    await phone.getByRole('button', { name: 'Deny' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(
      page.getByRole('alert').filter({ hasText: 'PingID app verification was declined' }).first(),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Select a verification method' })).toBeVisible();
  });

  test('Cancel in the waiting dialog aborts the push request', async ({ page }) => {
    const dialog = await sendPush(page);
    await expect(phone.getByRole('heading', { name: 'Password reset request' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    // The request ended: the phone no longer offers it, and the page shows no failure.
    await expect(phone.getByRole('heading', { name: 'Password reset request' })).toHaveCount(0);
    await expect(page.getByText('PingID timed-out waiting for verification')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Select a verification method' })).toBeVisible();
  });

  test('the IdP offers Send Push beside the passcode; the phone approves the sign-in', async ({ page }) => {
    await page.goto('/home');
    await page.getByRole('link', { name: 'Login', exact: true }).click();
    await page.getByLabel('Username').fill(VENDOR.username);
    await page.getByLabel('Password').fill(currentPassword(new URL(page.url()).origin, VENDOR.username));
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByLabel('Passcode')).toBeVisible();
    await expectAccessible(page, 'IdP passcode page with push');
    const signingIn = page.getByRole('button', { name: 'Send Push' }).click();
    await expect(phone.getByRole('heading', { name: 'Sign-in request' })).toBeVisible();
    await phone.getByRole('button', { name: 'Approve' }).click();
    await signingIn;
    await expect(page).toHaveURL(/\/welcome$/);
    await logOut(page);
  });

  test('approved on a phone paired today: the page asks for the emailed link too, which completes the reset', async ({
    page,
  }) => {
    await sendPush(page);
    await phone.getByRole('button', { name: 'Approve' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'paired less than 24 hours ago' }).first(),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Select a verification method' })).toBeVisible();
    await expect(page.getByText('PingID push verification succeeded')).toHaveCount(0);
    await expectAccessible(page, 'push approved by a phone paired today');
    // A second reset mail of this run: wait for the new one, not the earlier test's.
    const since = Date.now() - 1000;
    await page.getByRole('button', { name: 'Send Password Reset Email' }).click();
    await expect(page.getByRole('heading', { name: 'Password Reset Email Sent' })).toBeVisible();
    const mail = await waitForMail(page.request, VENDOR.email, /reset your password/, '', since);
    const link = /https?:\/\/\S+\/forgot-password\?code=[A-Z0-9-]+/.exec(mail.text)?.[0];
    await page.goto(link!);
    await expect(page.getByText('Reset code validated.')).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await setPasswordAndSignIn(page, passwords[2]!);
  });
});
