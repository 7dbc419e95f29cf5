import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';

test.describe.configure({ mode: 'serial' });
// Three sign-ins with TOTP (a second one within 30 s waits for a fresh code) and a registration.
test.setTimeout(180_000);

const run = Date.now().toString(36);
const org = `Zenith Labs ${run}`;
const domain = `zenith-${run}.example`;
const brm = { username: `zbrm${run}`, given: 'Zoe', family: 'Brm', email: `zbrm.${run}@hospital.example` };
const vendor = { first: 'Vera', last: 'Nguyen', email: `vera.nguyen@${domain}` };

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/home$/);
}

async function openSection(page: Page, name: string, path: string) {
  await page.getByRole('navigation', { name: 'Administration sections' }).getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
}

test('an admin sets up an organization and its new BRM, who approves a vendor; the audit trail shows it all', async ({
  page,
}) => {
  // The admin: organization with a domain, then a new employee as its BRM.
  await signInFromHome(page, 'admin');
  await page
    .getByRole('main')
    .getByRole('link', { name: /Administration/ })
    .click();
  await expect(page).toHaveURL(/\/admin\/organizations$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
  await page.getByLabel('New organization name').fill(org);
  await page.getByLabel('Email domains (separated by spaces)').fill(domain);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(`Organization ${org} created.`)).toBeVisible();
  // The list is paged by the server: the filter finds the new one on any page.
  await page.getByLabel('Filter by name or domain').fill(domain);
  const row = page.getByRole('row').filter({ hasText: domain });
  await expect(row).toContainText(`PRA - Vendor Access - ${org} - BR`);
  await expect(row).toContainText('No BRM');
  await expectAccessible(page, '/admin/organizations');

  await openSection(page, 'People', '/admin/people');
  const form = page.getByRole('form', { name: 'Add a person' });
  await form.getByLabel('Username (as at the IdP)').fill(brm.username);
  await form.getByLabel('Given name').fill(brm.given);
  await form.getByLabel('Family name').fill(brm.family);
  await form.getByLabel('Email').fill(brm.email);
  await form.getByLabel('BRM', { exact: true }).check();
  await form.getByLabel(org).check();
  await expectAccessible(page, '/admin/people');
  await form.getByRole('button', { name: 'Add person' }).click();
  await expect(page.getByText(`${brm.username} added.`)).toBeVisible();
  await page.getByLabel('Filter by username, name or email').fill(brm.username);
  await expect(page.getByRole('row').filter({ hasText: brm.username })).toContainText(org);

  for (const [name, path] of [
    ['System message', '/admin/system-message'],
    ['Maintenance', '/admin/maintenance'],
    ['Audit trail', '/admin/audit'],
  ] as const) {
    await openSection(page, name, path);
    await expectAccessible(page, path);
  }
  await page
    .getByRole('navigation', { name: 'Administration sections' })
    .getByRole('link', { name: 'Mail' })
    .click();
  await expect(page.getByRole('heading', { level: 2, name: 'Undelivered mail' })).toBeVisible();
  await expectAccessible(page, '/admin/mail');
  await logOut(page);

  // A vendor registers with the new domain.
  await page.goto('/new-user');
  await page.getByLabel('First Name').fill(vendor.first);
  await page.getByLabel('Last Name').fill(vendor.last);
  await page.getByLabel('Email').fill(vendor.email);
  const choice = page.getByLabel('Organization');
  await expect(choice.locator('option', { hasText: org })).toHaveCount(1);
  await choice.selectOption({ label: org });
  await page.getByLabel('I agree to the Acceptable Use Policy').check();
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Registration Successful' })).toBeVisible();
  await waitForMail(page.request, brm.email, /awaits your decision/, vendor.email);

  // The new BRM signs in and approves it.
  await signInFromHome(page, brm.username);
  await page.goto('/brm/pending-approvals');
  const pending = page.getByRole('row').filter({ hasText: vendor.email });
  await expect(pending).toHaveCount(1);
  await pending.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Request has been successfully approved')).toBeVisible();
  await logOut(page);

  // The admin finds every step by the vendor, and downloads them.
  await signInFromHome(page, 'admin');
  await page.goto('/admin/audit');
  await page.getByLabel('Person (username or email)').fill(vendor.email);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const events = page.getByRole('row');
  for (const action of ['registration.submit', 'request.approve', 'account.create', 'role.grant']) {
    await expect(events.filter({ hasText: action }).first()).toBeVisible();
  }
  await expect(events.filter({ hasText: 'request.approve' })).toContainText(brm.username);
  // Usable on a phone: the page itself never scrolls sideways (wide tables scroll in their box).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(events.filter({ hasText: 'request.approve' }).first()).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 720 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe(
    'occurredAt,action,outcome,actor,target,organization,clientAddress,details',
  );
  for (const action of ['registration.submit', 'request.approve', 'account.create', 'role.grant']) {
    expect(csv).toContain(`,${action},success,`);
  }
});
