import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { REVIEWS_CLOCK_PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';
import { registerOnBehalf, screenshots } from './support/vendors';
import { apiAs, logOut } from './support/world';

// Access reviews (GOVERNANCE.md §4.9) on the test-clock portal: the admin previews and starts a
// cycle for Acme Imaging; the BRM keeps one vendor and removes another with a reason, keyboard only;
// a vendor confirms; the clock reaches the due date; the undecided vendor's access is gone and the
// mailbox holds the notice; the admin downloads the evidence and its manifest verifies.

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: `http://localhost:${REVIEWS_CLOCK_PORT}` });

const run = Date.now().toString(36);
const leaving = { first: 'Rita', last: 'Vance', email: `rita.vance.${run}@acme-imaging.example` };

/** Presses Tab (Shift+Tab going back) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, back = false) {
  for (let i = 0; i < 60; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error('never reached the element with the keyboard');
}

async function devCall(page: Page, path: string, data?: unknown) {
  const response = await page.request.post(path, { data: data ?? {}, headers: { 'x-pra-api-call': 'true' } });
  expect(response.status(), await response.text()).toBeLessThan(300);
}

let due = '';

test('the admin previews a review cycle for Acme Imaging, then starts it', async ({ page }) => {
  // A third Acme vendor, registered by the BRM (its account and role exist at once).
  await registerOnBehalf(page, 'bbrown', leaving, 'Acme Imaging');
  await logOut(page);
  await signInFromHome(page, 'admin');
  // An organization with no BRM is listed on the admin's Reviews page (§4.8).
  const orphan = `Sterile Supply ${run}`;
  await (await apiAs(page)).post('/api/admin/organizations', { name: orphan });
  await page.goto('/admin/reviews');
  await expect(page.getByRole('heading', { name: 'Reviews' })).toBeVisible();
  const noBrm = page.getByRole('region', { name: 'Organizations with no BRM' });
  await expect(noBrm.getByRole('listitem').filter({ hasText: orphan })).toBeVisible();
  await expect(noBrm).not.toContainText('Acme Imaging');
  await expectAccessible(page, 'Administration → Reviews');
  await screenshots(page, 'admin-reviews-no-brm');
  await page.getByRole('button', { name: 'Start Review Cycle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start Review Cycle' });
  await dialog.getByLabel('Organizations').selectOption({ label: 'Acme Imaging' });
  await expect(dialog.getByLabel('If no decision')).toHaveValue('remove');
  await expect(dialog.getByRole('button', { name: 'Start Cycle' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const acme = dialog.getByRole('row', { name: /Acme Imaging/ });
  // jdoe, dreyes and the new vendor; jdoe and the new vendor have no other access.
  await expect(acme.getByRole('cell')).toHaveText(['3', '0', '3', '2', '0']);
  await expect(dialog.getByRole('link', { name: 'Download list' })).toBeVisible();
  await expectAccessible(page, 'the Start Review Cycle dialog with its preview');
  await screenshots(page, 'admin-reviews-preview');
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole('button', { name: 'Start Cycle' }).click();
  const row = page.getByRole('row', { name: /Acme Imaging/ });
  await expect(row.getByRole('cell').first()).toHaveText('open');
  due = (await row.getByRole('cell').nth(2).innerText()).trim();
  expect(due).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await waitForMail(
    page.request,
    'beatrice.brown@hospital.example',
    /^Action required: review vendor access for Acme Imaging/,
  );
  await waitForMail(
    page.request,
    'dana.reyes@initech.example',
    /^Please confirm you still need access to Acme Imaging/,
  );
});

test('the BRM keeps one vendor and removes another with a reason, with the keyboard alone', async ({
  page,
}) => {
  await signInFromHome(page, 'bbrown');
  const card = page.getByRole('main').getByRole('link', { name: /Access Reviews/ });
  await expect(card).toContainText('3');
  await page.goto('/brm/access-reviews');
  await expect(page.getByRole('heading', { level: 1, name: 'Access Reviews' })).toBeVisible();
  await expect(
    page.getByText(`If no decision is made by ${due}, access will be removed automatically.`),
  ).toBeVisible();
  await expect(page.getByText('0 of 3 decided').first()).toBeVisible();
  await expectAccessible(page, 'Access Reviews');
  await screenshots(page, 'access-reviews');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Keep Jane Doe: Tab to her decision, ArrowDown to "Keep".
  const jane = page.getByRole('combobox', { name: 'Decision for Jane Doe' });
  await page.locator('body').focus();
  await tabTo(page, jane);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByText('Decisions saved for 1')).toBeVisible();
  await expect(page.getByText('1 of 3 decided').first()).toBeVisible();

  // Remove Rita Vance: tick her row (Space), back to Remove Selected (Enter), a reason, Enter.
  const rita = page.getByRole('checkbox', { name: `Select ${leaving.first} ${leaving.last}` });
  await tabTo(page, rita);
  await page.keyboard.press('Space');
  await expect(rita).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Remove Selected' }), true);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(`${leaving.first} ${leaving.last} has no other access.`)).toBeVisible();
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await expectAccessible(page, 'the Remove dialog');
  await screenshots(page, 'access-reviews-remove');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Enter');
  await expect(dialog.locator('#decision-error')).toHaveText('Enter a reason');
  await page.keyboard.type('Contract ended in March');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('2 of 3 decided').first()).toBeVisible();
  await expect(
    page.getByRole('combobox', { name: `Decision for ${leaving.first} ${leaving.last}` }),
  ).toHaveValue('remove');
});

test('a vendor answers "Do you still need access?"', async ({ page }) => {
  await signInFromHome(page, 'dreyes');
  await expect(page.getByText('Your access to Acme Imaging is being reviewed.')).toBeVisible();
  await page.getByRole('link', { name: 'Confirm your access' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your access' })).toBeVisible();
  await expectAccessible(page, 'Confirm your access');
  await screenshots(page, 'confirm-access');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page
    .getByRole('group', { name: 'Do you still need access to Acme Imaging?' })
    .getByLabel('Yes, I still need it')
    .check();
  await page.getByLabel('Comment (optional)').fill('Servicing the MRI until June');
  await page.getByRole('button', { name: 'Send Answer' }).click();
  await expect(page.getByText('Thank you, your answer was sent to your sponsor')).toBeVisible();
});

test('at the due date the undecided vendor loses access, the mailbox holds the notice, and the evidence verifies', async ({
  page,
}) => {
  const next = new Date(`${due}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  await page.goto('/home');
  await devCall(page, '/dev/clock', { set: next.toISOString() });
  await devCall(page, '/dev/governance/run');
  // Dana Reyes (said she still needs it, nobody decided): Acme removed by default; Rita removed with the reason.
  const notice = await waitForMail(
    page.request,
    'dana.reyes@initech.example',
    /^Your access to Acme Imaging was removed after an access review$/,
  );
  expect(notice.text).toContain('no confirmation was received');
  const removed = await waitForMail(
    page.request,
    leaving.email,
    /^Your access to Acme Imaging was removed after an access review$/,
  );
  expect(removed.text).toContain('Contract ended in March');
  await waitForMail(
    page.request,
    'beatrice.brown@hospital.example',
    /^Access review for Acme Imaging completed: 1 kept, 1 removed, 1 removed by default$/,
  );

  await signInFromHome(page, 'dreyes');
  await page.goto('/vendor/request-access');
  // Dana held Acme Imaging and Initech Devices; only Initech's access is current now.
  await expect(page.getByRole('main')).toContainText('Current Access 1');
  await logOut(page);

  await signInFromHome(page, 'admin');
  await page.goto('/admin/reviews');
  const row = page.getByRole('row', { name: /Acme Imaging/ });
  await expect(row.getByRole('cell').first()).toHaveText('closed');
  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /Download Evidence/ }).click(),
  ]);
  const [jsonDownload] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /Manifest/ }).click(),
  ]);
  const csv = readFileSync(await csvDownload.path());
  const manifest = JSON.parse(readFileSync(await jsonDownload.path(), 'utf8')) as {
    files: { name: string; sha256: string }[];
    counts: Record<string, number>;
  };
  expect(manifest.files[0]!.sha256).toBe(createHash('sha256').update(csv).digest('hex'));
  expect(manifest.counts).toMatchObject({ items: 3, kept: 1, removed: 1, removedByDefault: 1 });
  expect(csv.toString('utf8')).toContain('Contract ended in March');
  await expectAccessible(page, 'Reviews with a closed campaign');
  await screenshots(page, 'admin-reviews-closed');
});
