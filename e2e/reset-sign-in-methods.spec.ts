import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn, signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';
import { createActiveVendor, logOut, screenshots } from './support/world';

// GOVERNANCE.md §7.3 in the browser: an admin resets a vendor's sign-in methods from Manage Users
// (the dialog's words, the identity check, by keyboard), the vendor is mailed (W4) and sets up a
// new factor at the next sign-in; a BRM gets "Ask InfoSec to reset", a mail draft.

test.setTimeout(240_000);

const ORG = 'Acme Imaging';
const PASSWORD = 'Quartz-Heron-Lantern-61!';
const run = Date.now().toString(36);

async function actionsOf(page: Page, email: string) {
  await page.goto('/brm/manage-users');
  await page.getByLabel('Filter by username, email or name').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  return row.getByRole('button', { name: /^Actions for / });
}

test('an admin resets a vendor’s sign-in methods after the identity check; the vendor enrols again; a BRM asks InfoSec', async ({
  page,
  browser,
}) => {
  const email = `rosa.reset.${run}@acme-imaging.example`;
  const vendor = await (await browser.newContext()).newPage();
  await signInFromHome(vendor, 'admin');
  const username = await createActiveVendor(
    vendor,
    { firstName: 'Rosa', lastName: 'Reset', email, org: ORG },
    PASSWORD,
  );
  await logOut(vendor);

  await signInFromHome(page, 'admin');
  // Keyboard only: the Actions menu, the item, the checkbox, the button.
  const actions = await actionsOf(page, email);
  await actions.focus();
  await page.keyboard.press('Enter');
  const item = page.getByRole('button', { name: 'Reset Sign-in Methods' });
  await expect(item).toBeVisible();
  await item.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Reset Sign-in Methods' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    "This removes all of Rosa Reset's security keys and authenticator apps. They will set new ones at their next sign-in.",
  );
  const check = dialog.getByRole('checkbox', { name: "I verified Rosa Reset's identity" });
  await expectAccessible(page, 'Reset Sign-in Methods dialog');
  await screenshots(page, 'manage-users-reset-sign-in-methods');
  await check.focus();
  await page.keyboard.press('Space');
  await expect(check).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Sign-in methods of ${username} reset`)).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const mail = await waitForMail(page.request, email, /Your sign-in methods were reset/);
  expect(mail.text).toContain('You will set up a new sign-in method at your next sign-in.');

  // The vendor's next sign-in sets up a factor again.
  await vendor.goto('/home');
  await vendor.getByRole('link', { name: 'Login', exact: true }).click();
  expect(await completeIdpSignIn(vendor, username, PASSWORD)).toBe('enrolled');
  await expect(vendor).toHaveURL(/\/welcome$/);
  await vendor.context().close();
  await logOut(page);

  // A BRM of the organization drafts a mail to InfoSec instead.
  await signInFromHome(page, 'bbrown');
  await (await actionsOf(page, email)).click();
  await expect(page.getByRole('button', { name: 'Reset Sign-in Methods' })).toHaveCount(0);
  const ask = page.getByText('Ask InfoSec to reset');
  await expect(ask).toBeVisible();
  const href = decodeURIComponent((await ask.getAttribute('href')) ?? '');
  expect(href).toMatch(new RegExp(`^mailto:[^?]+\\?subject=Reset sign-in methods of ${username}&body=`));
  expect(href).toContain(`Rosa Reset (username ${username}, ${email})`);
  await expectAccessible(page, 'Manage Users actions of a BRM');
});
