import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';
import { createActiveVendor } from './support/world';

test.describe.configure({ mode: 'serial' });
// An admin sign-in, an activation and the vendor's first sign-in (TOTP enrolment).
test.setTimeout(180_000);

const run = Date.now().toString(36);
const vendor = {
  firstName: 'Kai',
  lastName: 'Board',
  email: `kai.board.${run}@partners.example`,
  org: 'Globex Health IT',
};
const PASSWORD = 'Harbor-Lantern-64!';

/** The focused element's accessible name, as far as these controls need it. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return '';
    const label =
      element.getAttribute('aria-label') ??
      (element as HTMLInputElement).labels?.[0]?.textContent ??
      element.textContent ??
      '';
    return label.trim();
  });
}

/** Presses Tab (only the keyboard) until the control named `name` has the focus. */
async function tabTo(page: Page, name: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if ((await focusedName(page)) === name) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

test('Manage Access with the keyboard alone: focus stays on the next row, the result and the modal', async ({
  page,
}) => {
  await signInFromHome(page, 'admin');
  await createActiveVendor(page, vendor, PASSWORD);
  await page.goto('/vendor/request-access');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Access' })).toBeVisible();
  const addButtons = page.getByRole('button', { name: /^Add / });
  await expect(addButtons.first()).toBeVisible();
  const [first, second] = (await addButtons.evaluateAll((buttons) =>
    buttons.map((button) => button.getAttribute('aria-label') ?? ''),
  )) as [string, string];
  expect(second).toBeTruthy();

  // Add: the next row's Add takes the focus (the pressed button is gone with its row).
  await tabTo(page, first);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: second })).toBeFocused();
  await expectAccessible(page, 'Manage Access after Add');

  // Submit: the focus goes to the count that shows the result.
  await tabTo(page, 'Justification');
  await page.keyboard.type('Keyboard only, please');
  await tabTo(page, 'Submit');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Role request has been submitted')).toBeVisible();
  const pendingButton = page.getByRole('button', { name: /Pending Access/ });
  await expect(pendingButton).toBeFocused();
  await expect(pendingButton).toContainText('1');

  // Cancel Request in the modal: into the reason, then back to the modal, never the page body.
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Pending Access Requests' });
  await expect(dialog).toBeVisible();
  const organization = first.replace(/^Add /, '');
  await tabTo(page, `Cancel request Add ${organization}`);
  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await page.keyboard.type('Asked by mistake');
  await tabTo(page, 'Cancel Request');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Cancelled request to add/remove role')).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Pending Access Requests' })).toBeFocused();
  await expect(dialog).not.toContainText(organization);
  await expectAccessible(page, 'Pending Access Requests after Cancel Request');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(pendingButton).toBeFocused();
});

test('Manage Access at phone size: the selection is one step from the roles table, nothing overflows', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await context.newPage();
  await signInFromHome(page, 'admin');
  await page.goto('/brm/manage-users');
  await page.getByLabel('Filter by username, email or name').fill(vendor.email);
  const row = page.getByRole('row').filter({ hasText: vendor.email });
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('button', { name: 'Manage Access' }).click();
  const dialog = page.getByRole('dialog', { name: /Manage Access for/ });
  const add = dialog.getByRole('button', { name: /^Add / }).first();
  await add.click();
  const goToSelection = dialog.getByRole('button', { name: /Go to Selected Roles \(1\)/ });
  await expect(goToSelection).toBeVisible();
  await goToSelection.click();
  await expect(dialog.getByRole('heading', { name: 'Selected Roles' })).toBeFocused();
  await expect(dialog.getByRole('heading', { name: 'Selected Roles' })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: '/tmp/web-manage-access-phone.png', fullPage: false });
  await expectAccessible(page, 'Manage Access modal at phone size');
  await context.close();
});
