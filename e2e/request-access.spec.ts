import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn, signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';
import { createActiveVendor, logOut, screenshots } from './support/world';

test.describe.configure({ mode: 'serial' });
// Six sign-ins with TOTP (a second one within 30 s waits for a fresh code) and an activation.
test.setTimeout(300_000);

const run = Date.now().toString(36);
// The demo organizations all own partners.example: Globex is the vendor's first organization,
// Acme (BRM bbrown) approves its request, Initech (BRM cchen) denies it.
const orgs = { home: 'Globex Health IT', approved: 'Acme Imaging', denied: 'Initech Devices' };
const brmOne = { username: 'bbrown', email: 'beatrice.brown@hospital.example' };
const brmTwo = { username: 'cchen', email: 'carlos.chen@hospital.example' };
const vendor = {
  firstName: 'Vik',
  lastName: 'Olsen',
  email: `vik.olsen.${run}@partners.example`,
  org: orgs.home,
};
const PASSWORD = 'Harbor-Pebble-58!';

async function openManageAccess(page: Page) {
  await page
    .getByRole('main')
    .getByRole('link', { name: /Manage Access/ })
    .click();
  await expect(page).toHaveURL(/\/vendor\/request-access$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Access' })).toBeVisible();
}

async function decide(page: Page, org: string, type: string, decision: 'Approve' | 'Reject', comment = '') {
  await page.goto('/brm/pending-approvals');
  const row = page.getByRole('row').filter({ hasText: vendor.email }).filter({ hasText: org });
  await expect(row).toContainText(type);
  await row.getByRole('button', { name: decision }).click();
  const dialog = page.getByRole('dialog');
  if (comment)
    await dialog.getByLabel(decision === 'Reject' ? 'Justification' : 'Comment (optional)').fill(comment);
  await dialog.getByRole('button', { name: decision }).click();
  await expect(
    page.getByText(`Request has been successfully ${decision === 'Approve' ? 'approved' : 'denied'}`),
  ).toBeVisible();
}

test('a vendor requests two roles, the BRMs approve one and deny the other, then it removes and cancels', async ({
  page,
}) => {
  await signInFromHome(page, 'admin');
  const username = await createActiveVendor(page, vendor, PASSWORD);

  // The vendor asks for the two other organizations.
  await openManageAccess(page);
  await expect(page.getByRole('button', { name: /Current Access/ })).toContainText('1');
  await expect(page.getByRole('button', { name: /Pending Access/ })).toContainText('0');
  await expectAccessible(page, '/vendor/request-access');
  await page.getByLabel('Filter by name').fill('e');
  await page.getByRole('button', { name: `Add ${orgs.approved}` }).click();
  await page.getByRole('button', { name: `Add ${orgs.denied}` }).click();
  await expect(page.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await page.getByLabel('Justification').fill('Support contract for both sites');
  await screenshots(page, 'request-access');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Role request has been submitted')).toBeVisible();
  await expect(page.getByRole('button', { name: /Pending Access/ })).toContainText('2');
  await page.getByRole('button', { name: /Pending Access/ }).click();
  const pendingDialog = page.getByRole('dialog', { name: 'Pending Access Requests' });
  await expect(pendingDialog).toContainText(orgs.approved);
  await expect(pendingDialog).toContainText(orgs.denied);
  await expectAccessible(page, 'Pending Access Requests modal');
  await screenshots(page, 'pending-access-modal');
  await pendingDialog.getByRole('button', { name: 'Close' }).last().click();
  await waitForMail(page.request, brmOne.email, /Add Access request awaiting your decision/, orgs.approved);
  await waitForMail(page.request, brmTwo.email, /Add Access request awaiting your decision/, orgs.denied);
  await logOut(page);

  // Each organization's BRM decides its item.
  await signInFromHome(page, brmOne.username);
  await decide(page, orgs.approved, 'Add Access', 'Approve');
  await logOut(page);
  await signInFromHome(page, brmTwo.username);
  await decide(page, orgs.denied, 'Add Access', 'Reject', 'No contract with Initech');
  await logOut(page);
  await waitForMail(page.request, vendor.email, /Add Access request approved/, orgs.approved);
  const denial = await waitForMail(page.request, vendor.email, /Add Access request denied/, orgs.denied);
  expect(denial.text).toContain('No contract with Initech');

  // The vendor sees the result, asks to give up one role, asks again for the denied one and withdraws it.
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await completeIdpSignIn(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/welcome$/);
  await openManageAccess(page);
  await expect(page.getByRole('button', { name: /Current Access/ })).toContainText('2');
  await expect(page.getByRole('button', { name: /Pending Access/ })).toContainText('0');
  await page.getByRole('button', { name: /Current Access/ }).click();
  const current = page.getByRole('dialog', { name: 'Current Access' });
  await expect(current).toContainText(orgs.home);
  await expect(current).toContainText(orgs.approved);
  await expect(current).not.toContainText(orgs.denied);
  await expectAccessible(page, 'Current Access modal');
  await screenshots(page, 'current-access-modal');
  await current.getByRole('button', { name: `Remove ${orgs.approved}` }).click();
  await current.getByLabel('Reason').fill('Project at Acme finished');
  await expectAccessible(page, 'Current Access modal: reason');
  await current.getByRole('button', { name: 'Remove Role' }).click();
  await expect(page.getByText('Remove role request submitted')).toBeVisible();

  // With that removal pending, giving up the home organization would leave none: refused.
  await current.getByRole('button', { name: `Remove ${orgs.home}` }).click();
  await current.getByLabel('Reason').fill('Leaving');
  await current.getByRole('button', { name: 'Remove Role' }).click();
  await expect(page.getByText(/You cannot remove your access to your last organization/)).toBeVisible();
  await current.getByRole('button', { name: 'Back' }).click();
  await current.getByRole('button', { name: 'Close' }).last().click();

  await page.getByRole('button', { name: `Add ${orgs.denied}` }).click();
  await page.getByLabel('Justification').fill('New contract signed with Initech');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Role request has been submitted')).toBeVisible();
  await page.getByRole('button', { name: /Pending Access/ }).click();
  const pending = page.getByRole('dialog', { name: 'Pending Access Requests' });
  await pending.getByRole('button', { name: `Cancel request Add ${orgs.denied}` }).click();
  await pending.getByLabel('Reason').fill('Contract not signed after all');
  await expectAccessible(page, 'Pending Access Requests modal: reason');
  await pending.getByRole('button', { name: 'Cancel Request' }).click();
  await expect(page.getByText('Cancelled request to add/remove role')).toBeVisible();
  await expect(pending).not.toContainText(orgs.denied);
  await pending.getByRole('button', { name: 'Close' }).last().click();
  await logOut(page);

  // The BRM approves the removal; the vendor is told.
  await signInFromHome(page, brmOne.username);
  await decide(page, orgs.approved, 'Remove Access', 'Approve');
  await expectAccessible(page, '/brm/pending-approvals');
  await waitForMail(page.request, vendor.email, /Remove Access request approved/, orgs.approved);
  // BRMs never reach the vendor's own Manage Access.
  await page.goto('/vendor/request-access');
  await expect(page).toHaveURL(/\/welcome$/);
});
