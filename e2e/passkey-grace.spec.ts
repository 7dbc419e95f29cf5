import { expect, test, type Page } from '@playwright/test';
import { TEST_CLOCK_PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn, signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';
import { createActiveVendor, logOut, screenshots } from './support/world';

// GOVERNANCE.md §7.3/§7.4 in the browser, on the portal with the standalone test clock: an admin
// raises an organization's tier, the vendor sees "Add One Now" after the passcode and adds a
// passkey (CDP virtual authenticator); past the 30-day grace the passcode is gone and the key signs in.

test.use({ baseURL: `http://localhost:${TEST_CLOCK_PORT}` });
test.setTimeout(300_000);

const ORG = 'Acme Imaging';
const PASSWORD = 'Harbor-Lantern-Quill-83!';
const run = Date.now().toString(36);

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

async function setTier(page: Page, tier: 'standard' | 'high') {
  await page.goto('/admin/organizations');
  await page.getByLabel('Filter by name or domain').fill(ORG);
  const terms = page.getByRole('form', { name: `Risk tier and contract of ${ORG}` });
  await terms.getByLabel(`Risk tier of ${ORG}`).selectOption(tier);
  await terms.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Risk tier and contract end of ${ORG} saved.`)).toBeVisible();
}

async function moveClock(page: Page, advance: string) {
  const { csrfToken } = (await (await page.request.get('/api/csrf')).json()) as { csrfToken: string };
  const res = await page.request.post('/dev/clock', {
    data: { advance },
    headers: { 'x-pra-api-call': 'true', 'x-csrf-token': csrfToken },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

test('an admin raises a tier: the vendor gets the Add One Now interstitial, adds a passkey; after the grace only the key signs in', async ({
  page,
  browser,
}) => {
  // The admin makes an active vendor of Acme Imaging (it enrols an authenticator app).
  await signInFromHome(page, 'admin');
  const vendor = await (await browser.newContext()).newPage();
  await signInFromHome(vendor, 'admin');
  const email = `greta.grace.${run}@acme-imaging.example`;
  const username = await createActiveVendor(
    vendor,
    { firstName: 'Greta', lastName: 'Grace', email, org: ORG },
    PASSWORD,
  );
  await logOut(vendor);

  await setTier(page, 'high');
  try {
    // GOVERNANCE.md §7.4: the raise starts the grace (W3 at once), before the vendor signs in.
    const w3 = await waitForMail(
      page.request,
      email,
      new RegExp(`^${ORG} requires a security key or passkey from `),
    );
    const until = /from (\d{4}-\d{2}-\d{2})/.exec(w3.subject)?.[1];
    // The passcode passes, then the interstitial names the organization and the grace's end.
    await vendor.goto('/home');
    await vendor.getByRole('link', { name: 'Login', exact: true }).click();
    await completeIdpSignIn(vendor, username, PASSWORD);
    await expect(
      vendor.getByRole('heading', { level: 1, name: 'Add a security key or passkey' }),
    ).toBeVisible();
    await expect(vendor.locator('#grace-notice')).toHaveText(
      `${ORG} requires a security key or passkey from ${until}.`,
    );
    await expectAccessible(vendor, 'grace interstitial');
    await screenshots(vendor, 'idp-grace-interstitial');

    // Keyboard only: Add One Now, then the key's ceremony.
    await addVirtualAuthenticator(vendor);
    await vendor.getByRole('button', { name: 'Add One Now' }).focus();
    await vendor.keyboard.press('Enter');
    await expect(vendor.getByRole('button', { name: 'Add Security Key or Passkey' })).toBeVisible();
    await expectAccessible(vendor, 'grace interstitial: add a key');
    await screenshots(vendor, 'idp-grace-add');
    // Enabled once the page's WebAuthn script drives the form.
    await expect(vendor.getByRole('button', { name: 'Add Security Key or Passkey' })).toBeEnabled();
    await vendor.getByRole('button', { name: 'Add Security Key or Passkey' }).focus();
    await vendor.keyboard.press('Enter');
    await expect(vendor.getByRole('heading', { level: 1, name: 'Security key added' })).toBeVisible();
    await vendor.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(vendor).toHaveURL(/\/welcome$/);
    await logOut(vendor);

    // Past the grace: the passcode panel is gone, the key signs in.
    await moveClock(page, 'P31D');
    await vendor.goto('/home');
    await vendor.getByRole('link', { name: 'Login', exact: true }).click();
    await vendor.getByLabel('Username').fill(username);
    await vendor.getByLabel('Password').fill(PASSWORD);
    await vendor.getByRole('button', { name: 'Sign In' }).click();
    await expect(vendor.getByRole('button', { name: 'Use Security Key or Passkey' })).toBeVisible();
    await expect(vendor.getByLabel('Passcode')).toHaveCount(0);
    await expectAccessible(vendor, 'key-only sign-in after the grace');
    await vendor.getByRole('button', { name: 'Use Security Key or Passkey' }).click();
    await expect(vendor).toHaveURL(/\/welcome$/);
  } finally {
    await setTier(page, 'standard');
    await vendor.context().close();
  }
});
