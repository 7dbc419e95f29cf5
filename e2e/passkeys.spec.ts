import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { waitForMail } from './support/mailbox';
import { activate, registerOnBehalf } from './support/vendors';
import { logOut, screenshots } from './support/world';

const PASSWORD = 'Passkey-Journey-2025!';

/**
 * A platform authenticator in the browser (Chrome DevTools Protocol's virtual authenticator):
 * resident keys and user verification, as a laptop's fingerprint reader or a phone's passkeys.
 */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

async function passwordStep(page: Page, username: string): Promise<void> {
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('a vendor enrols a passkey at first sign-in (keyboard only), is mailed, signs out and in again with it alone', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const person = {
    first: 'Pat',
    last: 'Keyholder',
    email: `pat.keyholder.${Date.now() % 100000}@acme-imaging.example`,
  };
  const link = await registerOnBehalf(page, 'bbrown', person, 'Acme Imaging');
  const vendor = await (await browser.newContext()).newPage();
  const username = await activate(vendor, link, PASSWORD);
  await addVirtualAuthenticator(vendor);

  await passwordStep(vendor, username);
  await expect(
    vendor.getByRole('heading', { level: 1, name: 'Set up your authenticator app' }),
  ).toBeVisible();
  await expect(
    vendor.getByRole('heading', { level: 2, name: 'Use a security key or passkey' }),
  ).toBeVisible();
  await expectAccessible(vendor, 'first sign-in: security key or authenticator app');
  await screenshots(vendor, 'idp-enrol-choice');

  // Keyboard only: the nickname field, then Tab to the button (enabled once the page's WebAuthn
  // script drives the form) and Enter.
  await expect(vendor.getByRole('button', { name: 'Add Security Key or Passkey' })).toBeEnabled();
  const nickname = vendor.getByLabel('Nickname', { exact: true });
  await nickname.focus();
  await vendor.keyboard.press('ControlOrMeta+a');
  await vendor.keyboard.type('Laptop passkey');
  await vendor.keyboard.press('Tab');
  await expect(vendor.getByRole('button', { name: 'Add Security Key or Passkey' })).toBeFocused();
  const since = Date.now() - 1000;
  await vendor.keyboard.press('Enter');
  await expect(vendor.getByRole('heading', { level: 1, name: 'Security key added' })).toBeVisible();
  await expect(vendor.getByText('"Laptop passkey" can now sign you in.')).toBeVisible();
  await expect(vendor.getByText('Add a second security key or passkey')).toBeVisible();
  await expectAccessible(vendor, 'security key added');
  await screenshots(vendor, 'idp-key-added');
  await vendor.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(vendor).toHaveURL(/\/welcome$/);
  const mail = await waitForMail(
    vendor.request,
    person.email,
    /security key or passkey was added/,
    'Laptop passkey',
    since,
  );
  expect(mail.text).toContain('If this was not you');

  await logOut(vendor);
  await passwordStep(vendor, username);
  await expect(vendor.getByRole('heading', { level: 1, name: 'Verify your identity' })).toBeVisible();
  // No authenticator app: the key alone, no passcode field.
  await expect(vendor.getByLabel('Passcode')).toHaveCount(0);
  await expectAccessible(vendor, 'sign-in with a security key');
  await screenshots(vendor, 'idp-key-sign-in');
  await vendor.getByRole('button', { name: 'Use Security Key or Passkey' }).click();
  await expect(vendor).toHaveURL(/\/welcome$/);
  await vendor.context().close();
});
