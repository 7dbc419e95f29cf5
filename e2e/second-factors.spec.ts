import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { currentPassword, enrolledPasscode, signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';
import { logOut } from './support/world';

// Sign-in with TOTP and three confirmations, each with a passcode of a fresh 30-second step.
test.setTimeout(240_000);

const VENDOR = { username: 'dreyes', email: 'dana.reyes@initech.example' };

/** Fills the owner's confirmation (password and a fresh passcode) inside `scope`. */
async function confirmAsOwner(page: Page, scope: Locator) {
  const origin = new URL(page.url()).origin;
  await scope.getByLabel('Your password').fill(currentPassword(origin, VENDOR.username));
  await scope
    .getByLabel('Passcode from your authenticator app')
    .fill(await enrolledPasscode(origin, VENDOR.username));
}

/** Pairs a phone from Manage Profile and checks the owner's mail about it. */
async function pairPhone(page: Page, nickname: string) {
  const form = page.getByRole('form', { name: 'Pair a phone' });
  await form.getByLabel('Phone nickname').fill(nickname);
  await confirmAsOwner(page, form);
  const since = Date.now() - 1000;
  await form.getByRole('button', { name: 'Pair Phone' }).click();
  await expect(page.getByRole('img', { name: /QR code that pairs your phone/ })).toBeVisible();
  const mail = await waitForMail(
    page.request,
    VENDOR.email,
    /new phone added to your account/,
    nickname,
    since,
  );
  expect(mail.text).toContain('If this wasn’t you');
  expect(mail.text).toContain('remove the phone under Manage Profile, change your password');
}

test('pairing a phone needs the password and a passcode, mails the owner, keeps the first phone; removing one is confirmed', async ({
  page,
  browser,
}) => {
  await signInFromHome(page, VENDOR.username);

  // The takeover's first step: the signed-in session alone cannot pair a phone.
  const csrf = (await (await page.request.get('/api/csrf')).json()) as { csrfToken: string };
  const bare = await page.request.post('/api/user/authenticator/pair', {
    data: { nickname: 'Intruder' },
    headers: { 'x-pra-api-call': 'true', 'x-csrf-token': csrf.csrfToken },
  });
  expect(bare.status()).toBe(403);
  expect(await bare.text()).toContain('Confirm your password and passcode first');

  await page.goto('/vendor/profile');
  await expect(page.getByText('No phone is paired with your account.')).toBeVisible();
  const form = page.getByRole('form', { name: 'Pair a phone' });
  const pair = form.getByRole('button', { name: 'Pair Phone' });
  await form.getByLabel('Phone nickname').fill('Work phone');
  await expect(pair).toBeDisabled();
  // A wrong password: refused on the page, nothing paired.
  await form.getByLabel('Your password').fill('Not-My-Password-1!');
  await form.getByLabel('Passcode from your authenticator app').fill('000000');
  await expect(pair).toBeEnabled();
  await expectAccessible(page, 'pairing a phone with the owner’s confirmation');
  await pair.click();
  await expect(form.getByRole('alert')).toHaveText('Current password is incorrect');

  await pairPhone(page, 'Work phone');
  await expectAccessible(page, 'pairing QR code');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Work phone', { exact: false })).toBeVisible();

  // A second phone is added beside the first; a phone-sized page opens its pairing link.
  await pairPhone(page, 'Spare phone');
  await page.getByText('Cannot scan the code?').click();
  const pairingUrl = await page.getByRole('link', { name: /\/authenticator#key=/ }).getAttribute('href');
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const phone = await phoneContext.newPage();
  await phone.goto(pairingUrl!);
  await expect(phone.getByText(/Paired as Spare phone for dreyes/)).toBeVisible();
  await expect(phone.getByText(/Passcodes show here from/)).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: 'Remove Work phone', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Spare phone', exact: true })).toBeVisible();
  await expect(page.getByText(/cannot approve a password reset by itself yet/).first()).toBeVisible();

  // Removing one is its own confirmed action: the password, and this time a push the spare phone approves.
  await page.getByRole('button', { name: 'Remove Work phone', exact: true }).click();
  const removeForm = page.getByRole('form', { name: 'Remove Work phone' });
  await expect(removeForm.getByRole('button', { name: 'Remove Phone' })).toBeDisabled();
  await removeForm
    .getByLabel('Your password')
    .fill(currentPassword(new URL(page.url()).origin, VENDOR.username));
  await removeForm.getByLabel('By approving a request on a paired phone').check();
  await expectAccessible(page, 'removing a phone with the owner’s confirmation');
  const since = Date.now() - 1000;
  await removeForm.getByRole('button', { name: 'Remove Phone' }).click();
  await expect(phone.getByRole('heading', { name: 'Phone pairing or removal request' })).toBeVisible();
  await phone.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Phone removed. We emailed you about it.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Work phone', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove Spare phone', exact: true })).toBeVisible();
  await waitForMail(page.request, VENDOR.email, /phone removed from your account/, 'Work phone', since);
  await phoneContext.close();
  await logOut(page);
});
