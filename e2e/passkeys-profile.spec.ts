import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { waitForMail } from './support/mailbox';
import { activate, registerOnBehalf } from './support/vendors';
import { logOut, screenshots } from './support/world';

const PASSWORD = 'Passkey-Profile-2025!';
const NEW_PASSWORD = 'Passkey-Reset-2025!x';

/** A platform authenticator (CDP virtual authenticator) with resident keys and user verification. */
async function addAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return authenticatorId;
}

async function passwordStep(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('a vendor adds a second key in the profile (keyboard only), renames and removes one, then resets the password with the key', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const person = {
    first: 'Kim',
    last: 'Twokeys',
    email: `kim.twokeys.${Date.now() % 100000}@acme-imaging.example`,
  };
  const link = await registerOnBehalf(page, 'bbrown', person, 'Acme Imaging');
  const vendor = await (await browser.newContext()).newPage();
  const username = await activate(vendor, link, PASSWORD);
  const cdp = await vendor.context().newCDPSession(vendor);
  await cdp.send('WebAuthn.enable');
  const laptop = await addAuthenticator(cdp);

  // First sign-in: the first key, enrolled at the IdP. Its WebAuthn script arrives late here, as on
  // a slow link or a busy machine (where CI once clicked before it ran, and the form went without
  // a credential): the button waits for it.
  await vendor.route('**/idp/assets/webauthn.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await passwordStep(vendor, username, PASSWORD);
  await vendor.getByLabel('Nickname', { exact: true }).fill('Laptop passkey');
  await vendor.getByRole('button', { name: 'Add Security Key or Passkey' }).click();
  await expect(vendor.getByRole('heading', { level: 1, name: 'Security key added' })).toBeVisible();
  await vendor.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(vendor).toHaveURL(/\/welcome$/);

  await vendor.goto('/vendor/profile');
  const card = vendor.getByRole('heading', { level: 2, name: 'Sign-in methods' });
  await expect(card).toBeVisible();
  const keys = vendor.getByRole('table', { name: 'Security keys and passkeys' });
  await expect(keys.getByRole('row')).toHaveCount(2);
  await expect(keys.getByRole('cell', { name: 'Laptop passkey', exact: true })).toBeVisible();
  await expect(keys.getByRole('cell', { name: 'This device', exact: true })).toBeVisible();
  await expect(
    vendor.getByText('Add a second security key or passkey so you can still sign in if you lose this one.'),
  ).toBeVisible();
  await expect(vendor.getByText('Authenticator app: None')).toBeVisible();
  await expectAccessible(vendor, 'profile: sign-in methods');
  await screenshots(vendor, 'profile-sign-in-methods');

  // The second key lives on another authenticator (a USB key, say); the laptop is put away.
  await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: laptop });
  await addAuthenticator(cdp);

  // Keyboard only: the Add button, the dialog's nickname and password, Enter submits.
  const add = vendor.getByRole('button', { name: 'Add Security Key or Passkey' });
  await add.focus();
  await vendor.keyboard.press('Enter');
  const dialog = vendor.getByRole('dialog', { name: 'Add Security Key or Passkey' });
  await expect(dialog).toBeVisible();
  const nickname = dialog.getByLabel('Nickname', { exact: true });
  await expect(nickname).toHaveValue(/^Security key added /);
  await nickname.focus();
  await vendor.keyboard.press('ControlOrMeta+a');
  await vendor.keyboard.type('Desk key');
  await vendor.keyboard.press('Tab');
  await expect(dialog.getByLabel('Current Password')).toBeFocused();
  await vendor.keyboard.type(PASSWORD);
  await expectAccessible(vendor, 'profile: add a security key');
  await screenshots(vendor, 'profile-add-key-dialog');
  const since = Date.now() - 1000;
  await vendor.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(vendor.getByText('"Desk key" can now sign you in.')).toBeVisible();
  await expect(keys.getByRole('row')).toHaveCount(3);
  await expect(keys.getByRole('cell', { name: 'Desk key', exact: true })).toBeVisible();
  const added = await waitForMail(
    vendor.request,
    person.email,
    /security key or passkey was added/,
    'Desk key',
    since,
  );
  expect(added.text).toContain('If this was not you');

  // A wrong current password changes nothing.
  await vendor.getByRole('button', { name: 'Remove Laptop passkey' }).click();
  const remove = vendor.getByRole('dialog', { name: 'Remove Laptop passkey' });
  await remove.getByLabel('Current Password').fill('not-my-password');
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(remove.getByRole('alert')).toHaveText('Current password is incorrect');
  await expectAccessible(vendor, 'profile: remove a security key');
  await screenshots(vendor, 'profile-remove-key-dialog');
  await remove.getByLabel('Current Password').fill(PASSWORD);
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(remove).toHaveCount(0);
  await expect(keys.getByRole('row')).toHaveCount(2);
  await expect(keys.getByRole('cell', { name: 'Laptop passkey', exact: true })).toHaveCount(0);

  await vendor.getByRole('button', { name: 'Rename Desk key' }).click();
  const rename = vendor.getByRole('dialog', { name: 'Rename Desk key' });
  await rename.getByLabel('Nickname', { exact: true }).fill('Desk key (USB)');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename).toHaveCount(0);
  await expect(keys.getByRole('cell', { name: 'Desk key (USB)', exact: true })).toBeVisible();

  // Forgot Password: the key proves who the vendor is.
  await logOut(vendor);
  await vendor.getByRole('link', { name: 'Forgot Password' }).click();
  await vendor.getByLabel('Username').fill(username);
  await vendor.getByLabel('Email').fill(person.email);
  await vendor.getByRole('button', { name: 'Next' }).click();
  await expect(vendor.getByRole('heading', { name: 'Select a verification method' })).toBeVisible();
  await expect(vendor.getByRole('heading', { level: 3, name: 'Security key or passkey' })).toBeVisible();
  await expectAccessible(vendor, 'forgot password: security key panel');
  await screenshots(vendor, 'forgot-password-security-key');
  await vendor.getByRole('button', { name: 'Verify with Security Key' }).click();
  await expect(vendor.getByRole('heading', { name: 'Set New Password' })).toBeVisible();
  await vendor.getByLabel('New Password').fill(NEW_PASSWORD);
  await vendor.getByLabel('Confirm Password').fill(NEW_PASSWORD);
  await vendor.getByRole('button', { name: 'Set Password' }).click();
  await expect(vendor.getByRole('heading', { name: 'Congratulations!' })).toBeVisible();

  // The new password and the key sign in.
  await passwordStep(vendor, username, NEW_PASSWORD);
  await vendor.getByRole('button', { name: 'Use Security Key or Passkey' }).click();
  await expect(vendor).toHaveURL(/\/welcome$/);
  await vendor.context().close();
});
