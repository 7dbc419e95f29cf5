import { expect, test, type Page } from '@playwright/test';
import { AUP_CLOCK_PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn, signInFromHome } from './support/idp';
import { logOut, screenshots } from './support/world';

// GOVERNANCE.md §8 on a test-clock portal of its own: an admin publishes version 2 of the
// Acceptable Use Policy with a preview; 32 days after it took effect (its grace over) a vendor
// signs in, is taken to the policy, cannot go elsewhere, accepts it by keyboard and lands on
// Welcome.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: `http://localhost:${AUP_CLOCK_PORT}` });
test.setTimeout(180_000);

/** Today in the hospital's zone (the portal's default, America/New_York). */
const hospitalToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());

async function dev(page: Page, url: string, data: unknown) {
  const response = await page.request.post(url, { data, headers: { 'x-pra-api-call': 'true' } });
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
}

test('an admin publishes version 2 with a preview', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.goto('/admin/aup');
  await expect(page.getByRole('heading', { level: 2, name: 'Acceptable Use Policy' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Who has not accepted' })).toBeVisible();
  await expectAccessible(page, 'Administration → Acceptable Use Policy');

  // Keyboard: the button opens the dialog.
  await page.getByRole('button', { name: 'Publish New Version' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Publish New Version' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Title').fill('Acceptable Use Policy 2027');
  await dialog
    .getByLabel('Policy text (Markdown)')
    .fill(
      '## Authorized use only\n\n- Use your access only for approved work.\n- <b>Never</b> share your account.',
    );
  // The preview renders the Markdown and shows HTML as text.
  const preview = dialog.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: 'Authorized use only' })).toBeVisible();
  await expect(preview).toContainText('<b>Never</b> share your account.');
  // A date in the past is refused with the spec's message.
  await dialog.getByLabel('Effective date').fill('2020-01-01');
  await dialog.getByRole('button', { name: 'Publish New Version' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The effective date cannot be in the past.');
  await dialog.getByLabel('Effective date').fill(hospitalToday());
  await expectAccessible(page, 'Publish New Version');
  await dialog.getByRole('button', { name: 'Publish New Version' }).click();
  await expect(page.getByText('Version 2 was published.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: 'Acceptable Use Policy 2027' })).toBeVisible();
  // Every vendor is asked now: the table lists jdoe as due.
  await page.getByLabel('Filter by vendor, email or organization').fill('jdoe');
  await expect(page.getByRole('row').filter({ hasText: 'jdoe' }).getByText('Due')).toBeVisible();
  await screenshots(page, 'aup-admin');
  await logOut(page);
});

test('past the grace a vendor signs in, is taken to the policy, accepts it by keyboard and lands on Welcome', async ({
  page,
}) => {
  await page.goto('/home');
  await dev(page, '/dev/clock', { advance: 'P32D' });
  await dev(page, '/dev/governance/run', {});
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await completeIdpSignIn(page, 'jdoe');
  await expect(page).toHaveURL(/\/attest$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Acceptable Use Policy' })).toBeVisible();
  await expect(page.getByText(new RegExp(`^Version 2, effective ${hospitalToday()}$`))).toBeVisible();
  const region = page.getByRole('region', { name: 'Acceptable Use Policy text' });
  await expect(region.getByRole('heading', { name: 'Authorized use only' })).toBeVisible();
  const accept = page.getByRole('button', { name: 'Accept and Continue' });
  await expect(accept).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Log Out' })).toBeVisible();
  await expectAccessible(page, 'Acceptable Use Policy (attest)');
  await screenshots(page, 'aup-attest');

  // Elsewhere is closed: the router brings the vendor back, the API answers 403.
  await page.goto('/vendor/profile');
  await expect(page).toHaveURL(/\/attest$/);
  const refused = await page.request.get('/api/vendor/access/current?username=jdoe', {
    headers: { 'x-pra-api-call': 'true' },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ errors: ['Accept the Acceptable Use Policy to continue'] });

  // Keyboard only: the scroll region takes focus, then the checkbox, then the button.
  await expect(region).toBeVisible();
  await region.focus();
  await expect(region).toBeFocused();
  await page.keyboard.press('PageDown');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('I have read and agree to the Acceptable Use Policy')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(accept).toBeEnabled();
  await page.keyboard.press('Tab');
  await expect(accept).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Thank you. Your acceptance was recorded.')).toBeVisible();
  await expect(page).toHaveURL(/\/welcome$/);
  await expectAccessible(page, 'Welcome after accepting');

  // The Profile says what was accepted.
  await page.goto('/vendor/profile');
  await expect(
    page.getByText(
      /^Acceptable Use Policy: version 2 accepted on \d{4}-\d{2}-\d{2}; next review due \d{4}-\d{2}-\d{2}\.$/,
    ),
  ).toBeVisible();
  await expectAccessible(page, 'Profile with the policy card');
  await screenshots(page, 'aup-profile');
  await logOut(page);
});
