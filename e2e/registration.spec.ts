import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn, signInFromHome, welcomeCards } from './support/idp';
import { activationLink, waitForMail } from './support/mailbox';

test.describe.configure({ mode: 'serial' });
// Register, two mails, a BRM's sign-in and decision, activation and the vendor's sign-in.
test.setTimeout(180_000);

const run = Date.now().toString(36);
const vendor = { first: 'Priya', last: 'Quinn', email: `priya.quinn.${run}@initech.example` };
const rejected = { first: 'Rory', last: 'Vance', email: `rory.vance.${run}@initech.example` };
const onBehalf = { first: 'Omar', last: 'Bishop', email: `omar.bishop.${run}@initech.example` };
const NEW_PASSWORD = 'Lantern-Harbor-72!';

async function fillRegistration(page: Page, person: { first: string; last: string; email: string }) {
  await page.getByLabel('First Name').fill(person.first);
  await page.getByLabel('Last Name').fill(person.last);
  await page.getByLabel('Email').fill(person.email);
  const organization = page.getByLabel('Organization');
  await expect(organization.locator('option', { hasText: 'Initech Devices' })).toHaveCount(1);
  await organization.selectOption({ label: 'Initech Devices' });
}

async function selfRegister(page: Page, person: { first: string; last: string; email: string }) {
  await page.goto('/new-user');
  await expect(page.getByRole('heading', { level: 1, name: 'New User Registration' })).toBeVisible();
  await fillRegistration(page, person);
  const register = page.getByRole('button', { name: 'Register' });
  await expect(register).toBeDisabled();
  await readPolicy(page);
  await page.getByLabel('I agree to the Acceptable Use Policy').check();
  await expect(register).toBeEnabled();
  await expectAccessible(page, '/new-user');
  await register.click();
  await expect(page.getByRole('heading', { name: 'Registration Successful' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Home' })).toBeVisible();
}

/** Opens the policy dialog, scrolls its text by keyboard, checks it with axe and closes it. */
async function readPolicy(page: Page) {
  await page.getByRole('button', { name: 'Read the Acceptable Use Policy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Acceptable Use Policy' });
  await expect(dialog).toBeVisible();
  const text = dialog.getByRole('region', { name: 'Acceptable Use Policy text' });
  await text.focus();
  await expect(text).toBeFocused();
  const before = await text.evaluate((el) => el.scrollTop);
  await page.keyboard.press('PageDown');
  await expect.poll(() => text.evaluate((el) => el.scrollTop)).toBeGreaterThan(before);
  await expectAccessible(page, 'Acceptable Use Policy dialog');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toHaveCount(0);
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/home$/);
}

async function decide(page: Page, email: string, action: 'Approve' | 'Reject', justification?: string) {
  await page.goto('/brm/pending-approvals');
  await expect(page.getByRole('heading', { level: 1, name: 'Approvals and Provisioning' })).toBeVisible();
  await page.getByLabel('Filter by name, email or organization').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expectAccessible(page, '/brm/pending-approvals');
  await row.getByRole('button', { name: action }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const confirm = dialog.getByRole('button', { name: action });
  if (justification !== undefined) {
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Justification').fill(justification);
  }
  await confirm.click();
  const word = action === 'Approve' ? 'approved' : 'denied';
  await expect(page.getByText(`Request has been successfully ${word}`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(0);
}

test('a new vendor registers, is approved by the BRM, activates the account and signs in', async ({
  page,
}) => {
  await selfRegister(page, vendor);
  await waitForMail(page.request, vendor.email, /registration received/);
  await waitForMail(page.request, 'carlos.chen@hospital.example', /awaits your decision/, vendor.email);

  await signInFromHome(page, 'cchen');
  const approvalsCard = page
    .getByRole('main')
    .getByRole('heading', { level: 2 })
    .filter({ hasText: 'Approvals' });
  await expect(approvalsCard).toContainText(/[1-9]/);
  await decide(page, vendor.email, 'Approve');
  await logOut(page);

  const mail = await waitForMail(page.request, vendor.email, /activate your account/);
  await page.goto(activationLink(mail));
  await expect(page.getByRole('heading', { level: 1, name: 'Account Activation' })).toBeVisible();
  const username = await page.getByLabel('Username').inputValue();
  expect(username).toMatch(/^pquinn\d*$/);
  await expect(page.getByLabel('Email')).toHaveValue(vendor.email);
  await expectAccessible(page, 'activation: confirm details');
  await page.getByRole('button', { name: 'Next' }).click();
  const activate = page.getByRole('button', { name: 'Activate Account' });
  await page.getByLabel('New Password').fill('short');
  await expect(page.getByText('Min length: 12')).toBeVisible();
  await expect(activate).toBeDisabled();
  await page.getByLabel('New Password').fill(NEW_PASSWORD);
  await page.getByLabel('Confirm Password').fill(NEW_PASSWORD);
  await expect(activate).toBeEnabled();
  await expectAccessible(page, 'activation: set password');
  await activate.click();
  await expect(page.getByRole('heading', { name: 'Congratulations!' })).toBeVisible();
  await expect(page.getByText(/multi-factor authentication/)).toBeVisible();
  await waitForMail(page.request, vendor.email, /your account is active/);

  await page.getByRole('link', { name: 'Login' }).click();
  await completeIdpSignIn(page, username, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/welcome$/);
  await expect
    .poll(() => welcomeCards(page))
    .toEqual(['Credential Vault', 'Manage Access', 'Profile', 'User Guides']);
});

test('a rejection with its justification reaches the registrant', async ({ page }) => {
  await selfRegister(page, rejected);
  await signInFromHome(page, 'cchen');
  await decide(page, rejected.email, 'Reject', 'No current contract with this engineer.');
  const mail = await waitForMail(page.request, rejected.email, /not approved/);
  expect(mail.text).toContain('No current contract with this engineer.');
});

test('a BRM registers a vendor on their behalf, approved at once', async ({ page }) => {
  await signInFromHome(page, 'cchen');
  await page.getByRole('main').getByRole('link', { name: 'New User' }).click();
  await expect(page).toHaveURL(/\/new-user$/);
  await fillRegistration(page, onBehalf);
  await expect(page.getByLabel('I agree to the Acceptable Use Policy')).toHaveCount(0);
  // A BRM of Acme Imaging is offered only its own organizations.
  await expect(
    page.getByLabel('Organization').locator('option', { hasText: 'Globex Health IT' }),
  ).toHaveCount(0);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Registration Successful' })).toBeVisible();
  const home = page.getByRole('link', { name: 'Home' });
  await home.click();
  await expect(page).toHaveURL(/\/welcome$/);
  const mail = await waitForMail(page.request, onBehalf.email, /activate your account/);
  expect(activationLink(mail)).toContain('/activate-account?code=');
});

test('an email already in use warns with a readable Login with Existing Account', async ({ page }) => {
  await page.goto('/new-user');
  await page.getByLabel('First Name').fill('Jane');
  await page.getByLabel('Last Name').fill('Doe');
  await page.getByLabel('Email').fill('jane.doe@acme-imaging.example');
  const login = page.getByRole('link', { name: 'Login with Existing Account' });
  await expect(login).toBeVisible();
  await expect(page.getByRole('button', { name: 'Register' })).toBeDisabled();
  await expectAccessible(page, 'email-in-use warning');
});
