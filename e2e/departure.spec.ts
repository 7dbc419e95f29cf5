import { expect, test, type Page } from '@playwright/test';
import { DEPARTURE_CLOCK_PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';
import { apiAs, logOut, screenshots } from './support/world';

// GOVERNANCE.md §6 on the test-clock portal: an admin marks a BRM leaving and transfers their
// responsibilities with the preview, the successor sees the moved approval; then the clock passes
// 90 days and Manage Users shows the vendor disabled for inactivity, with the reason and the last
// sign-in, and asks before re-enabling.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: `http://localhost:${DEPARTURE_CLOCK_PORT}` });
test.setTimeout(240_000);

/** Presses Tab until the focused element's text is `name` (a keyboard-only path). */
async function tabTo(page: Page, name: string) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const text = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (text === name) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

async function dev(page: Page, url: string, data: unknown) {
  const response = await page.request.post(url, { data, headers: { 'x-pra-api-call': 'true' } });
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
}

test('an admin transfers a leaving BRM’s responsibilities with the preview; the successor sees the moved approval', async ({
  page,
}) => {
  // A person registers for Globex (Carlos Chen's organization): a pending approval.
  const run = Date.now().toString(36);
  await page.goto('/home');
  await (
    await apiAs(page)
  ).post('/api/user/new/submit', {
    firstName: 'Gil',
    lastName: `Newman${run}`,
    email: `gil.${run}@globex.example`,
    org: 'Globex Health IT',
  });

  await signInFromHome(page, 'admin');
  await page.goto('/admin/people');
  await expect(page.getByRole('heading', { level: 2, name: 'People' })).toBeVisible();
  await expectAccessible(page, 'People with Transfer Responsibilities');

  // Keyboard only: open the dialog and walk its steps.
  await page.getByRole('button', { name: 'Transfer Responsibilities of cchen' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Transfer Responsibilities of Carlos Chen' });
  await expect(dialog).toBeVisible();
  // A date ahead (today would let the sweep transfer automatically while the admin looks).
  const leavingOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await dialog.getByLabel('Leaving on').fill(leavingOn);
  await expectAccessible(page, 'Transfer Responsibilities, step 1');
  await tabTo(page, 'Next');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Step 2 of 3')).toBeVisible();
  await dialog
    .getByRole('group', { name: 'Globex Health IT' })
    .getByLabel('Successor', { exact: true })
    .selectOption({ label: 'Beatrice Brown' });
  await expectAccessible(page, 'Transfer Responsibilities, step 2');
  await tabTo(page, 'Preview');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('status')).toContainText(
    /^[1-9]\d* pending approvals?, 0 open review items, \d+ extension requests? and 0 delegations will move; \d+ vendors? will get a new sponsor\.$/,
  );
  await expect(dialog.getByText('Globex Health IT: Beatrice Brown')).toBeVisible();
  await expectAccessible(page, 'Transfer Responsibilities, preview');
  await screenshots(page, 'transfer-preview');
  await tabTo(page, 'Transfer');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Responsibilities of Carlos Chen transferred')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Leaving on ${leavingOn}`)).toBeVisible();
  await logOut(page);

  // The successor sees the moved approval.
  await signInFromHome(page, 'bbrown');
  await page.goto('/brm/pending-approvals');
  await expect(page.getByRole('main')).toContainText(`Newman${run}`);
  await logOut(page);
});

test('after 90 days without sign-in Manage Users shows the vendor disabled for inactivity and asks before re-enabling', async ({
  page,
}) => {
  await page.goto('/home');
  // 80 days on: jdoe is warned, and Manage Users says by when to sign in.
  await dev(page, '/dev/clock', { advance: 'P80D' });
  await dev(page, '/dev/governance/run', {});
  await signInFromHome(page, 'bbrown');
  await page.goto('/brm/manage-users');
  await page.getByLabel('Filter by username, email or name').fill('jdoe');
  const row = page.getByRole('row').filter({ hasText: 'jdoe' });
  await expect(row.getByText(/^Sign-in due by \d{4}-\d{2}-\d{2}$/)).toBeVisible();
  await expectAccessible(page, 'Manage Users with a dormant warning');
  await screenshots(page, 'manage-users-warning');
  await logOut(page);
  // 91 days on: disabled for inactivity.
  await dev(page, '/dev/clock', { advance: 'P11D' });
  await dev(page, '/dev/governance/run', {});
  await signInFromHome(page, 'bbrown');
  await page.goto('/brm/manage-users');
  await page.getByLabel('Filter by username, email or name').fill('jdoe');
  const status = row.getByText('Disabled', { exact: true });
  await expect(status).toBeVisible();
  await expect(status).toHaveAttribute('title', /^inactive since \d{4}-\d{2}-\d{2}$/);
  await row.getByRole('button', { name: 'Actions for jdoe' }).click();
  await page.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog');
  await expect(details).toContainText(/Disabled \(inactive since \d{4}-\d{2}-\d{2}\)/);
  await expect(details).toContainText('Last sign-in');
  await expectAccessible(page, 'View Details');
  await screenshots(page, 'user-details');
  await details.getByRole('button', { name: 'Close' }).first().click();
  await row.getByRole('button', { name: 'Actions for jdoe' }).click();
  await page.getByRole('button', { name: 'Enable User' }).click();
  const ask = page.getByRole('dialog', { name: 'Enable User' });
  await expect(ask).toContainText(
    /^Re-enable John Doe\? They must sign in within 90 days or the account is disabled again\.$|Re-enable .+\? They must sign in within 90 days or the account is disabled again\./,
  );
  await expectAccessible(page, 'Re-enable');
  await ask.getByRole('button', { name: 'Enable User' }).click();
  await expect(row.getByText('Enabled', { exact: true })).toBeVisible();
});

test('the Sponsorship report lists grants without a current sponsor and assigns one in bulk, by keyboard', async ({
  page,
}) => {
  await signInFromHome(page, 'admin');
  await page.goto('/admin/reports/sponsorship');
  await expect(page.getByRole('heading', { level: 2, name: 'Sponsorship' })).toBeVisible();
  const globex = page.getByRole('row').filter({ hasText: 'Globex Health IT' });
  await expect(globex.first()).toBeVisible();
  const before = await globex.count();
  const vendor = (await globex.first().getByRole('cell').nth(1).innerText()).split('\n')[0]!;
  await expectAccessible(page, 'Sponsorship report');
  await screenshots(page, 'sponsorship-report');

  // Keyboard only: choose the grant, the sponsor (Beatrice now manages Globex), assign.
  await globex.first().getByRole('checkbox').focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('1 chosen.', { exact: false })).toBeVisible();
  await page.getByLabel('Sponsor', { exact: true }).focus();
  await page.getByLabel('Sponsor', { exact: true }).selectOption({ label: 'Beatrice Brown' });
  await tabTo(page, 'Assign sponsor');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Sponsor assigned to 1 grant')).toBeVisible();
  await expect(globex).toHaveCount(before - 1);
  await expect(
    page.getByRole('row').filter({ hasText: vendor }).filter({ hasText: 'Globex Health IT' }),
  ).toHaveCount(0);
  await expectAccessible(page, 'Sponsorship report after assigning');
});
