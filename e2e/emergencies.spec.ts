import { expect, test, type Page } from '@playwright/test';
import { EMERGENCY_CLOCK_PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';
import { logOut, screenshots } from './support/world';

// GOVERNANCE.md §10 on a test-clock portal of its own: an admin grants a vendor emergency access
// from Manage Users → Manage Access; the organization's BRM acknowledges it by keyboard in
// Approvals; the grant ends by itself once /dev/clock passes its hours. A vendor reports that a
// colleague left; the BRM confirms the departure in Approvals.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: `http://localhost:${EMERGENCY_CLOCK_PORT}` });
test.setTimeout(240_000);

/** Presses Tab until the focused element's accessible text is `name` (a keyboard-only path). */
async function tabTo(page: Page, name: string) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const text = await page.evaluate(
      () =>
        document.activeElement?.getAttribute('aria-label') ??
        document.activeElement?.textContent?.trim() ??
        '',
    );
    if (text === name) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

async function dev(page: Page, url: string, data: unknown) {
  const response = await page.request.post(url, { data, headers: { 'x-pra-api-call': 'true' } });
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
}

test('an emergency grant is acknowledged by keyboard and ends by itself under /dev/clock', async ({
  page,
}) => {
  await signInFromHome(page, 'admin');
  await page.goto('/brm/manage-users');
  await page.getByLabel('Filter by username, email or name').fill('msmith');
  const row = page.getByRole('row').filter({ hasText: 'msmith' });
  await row.getByRole('button', { name: 'Actions for msmith' }).click();
  await page.getByRole('button', { name: 'Manage Access' }).click();
  const modal = page.getByRole('dialog', { name: 'Manage Access for msmith' });
  await modal.getByRole('button', { name: 'Grant emergency access' }).click();
  const dialog = page.getByRole('dialog', { name: 'Grant emergency access' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Organization').selectOption({ label: 'Acme Imaging' });
  await dialog.getByLabel('Hours').fill('73');
  await dialog.getByLabel('Ticket number').fill('INC-2042');
  await dialog.getByRole('button', { name: 'Grant Emergency Access' }).click();
  await expect(dialog.getByText('Hours must be a whole number from 1 to 72')).toBeVisible();
  await dialog.getByLabel('Hours').fill('4');
  await dialog.getByLabel('Reason').fill('Infusion-pump gateway down at 2 a.m.');
  await expectAccessible(page, 'Grant emergency access');
  await screenshots(page, 'emergency-grant');
  await dialog.getByRole('button', { name: 'Grant Emergency Access' }).click();
  await expect(page.getByText(/^Emergency access to Acme Imaging granted until /)).toBeVisible();
  await expect(dialog).toBeHidden();
  await waitForMail(page.request, 'mark.smith@globex.example', /^Emergency access to Acme Imaging until /);
  await modal.getByRole('button', { name: 'Close' }).first().click();
  await expect(modal).toBeHidden();
  await logOut(page);

  // The Acme BRM acknowledges it, keyboard only.
  await signInFromHome(page, 'bbrown');
  await page.goto('/brm/pending-approvals');
  const item = page.getByRole('row').filter({ hasText: 'Emergency Access' });
  await expect(item).toHaveCount(1);
  await expectAccessible(page, 'Approvals with an Emergency Access item');
  await screenshots(page, 'emergency-approvals');
  await item.getByRole('button', { name: 'Acknowledge' }).focus();
  await page.keyboard.press('Enter');
  const ack = page.getByRole('dialog', { name: 'Acknowledge Emergency Access' });
  await expect(ack).toBeVisible();
  // Tab into the Note field (the dialog opens with the focus on itself), then type.
  for (let i = 0; i < 10; i++) {
    if (await page.evaluate(() => document.activeElement?.tagName === 'TEXTAREA')) break;
    await page.keyboard.press('Tab');
  }
  await page.keyboard.type('Checked the ticket with the vendor');
  await expectAccessible(page, 'Acknowledge Emergency Access');
  await tabTo(page, 'Acknowledge');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Emergency access has been acknowledged')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Emergency Access' })).toHaveCount(0);
  await logOut(page);

  // Five hours later the sweep ends it: the vendor, the BRM and InfoSec are told.
  await dev(page, '/dev/clock', { advance: 'PT5H' });
  await dev(page, '/dev/governance/run', {});
  await waitForMail(
    page.request,
    'mark.smith@globex.example',
    /^Emergency access of Mark Smith to Acme Imaging has ended$/,
  );
  await waitForMail(
    page.request,
    'beatrice.brown@hospital.example',
    /^Emergency access of Mark Smith to Acme Imaging has ended$/,
  );
  await signInFromHome(page, 'admin');
  await page.goto('/brm/manage-users');
  await page.getByLabel('Filter by username, email or name').fill('msmith');
  await row.getByRole('button', { name: 'Actions for msmith' }).click();
  await page.getByRole('button', { name: 'Manage Access' }).click();
  await modal.getByRole('button', { name: /^Current Access/ }).click();
  const current = page.getByRole('dialog', { name: /Current Access/ });
  await expect(current).toContainText('Globex Health IT');
  await expect(current).not.toContainText('Acme Imaging');
});

test('a vendor reports a colleague who left; the BRM confirms the departure', async ({ page }) => {
  await signInFromHome(page, 'jdoe');
  await page.goto('/vendor/request-access');
  await page.getByRole('button', { name: 'Report a colleague who left Acme Imaging' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report a colleague who left Acme Imaging' });
  await dialog.getByLabel("Colleague's email or username").fill('dana.reyes@initech.example');
  await dialog.getByLabel('Note').fill('Dana moved to another company last week');
  await expectAccessible(page, 'Report a colleague who left');
  await screenshots(page, 'departure-report');
  await dialog.getByRole('button', { name: 'Send Report' }).click();
  await expect(page.getByText("Thank you. Acme Imaging's sponsor has been told.")).toBeVisible();
  await expect(dialog).toBeHidden();
  await logOut(page);

  await waitForMail(
    page.request,
    'beatrice.brown@hospital.example',
    /^Action required: confirm or dismiss the reported departure of Dana Reyes/,
  );
  await signInFromHome(page, 'bbrown');
  await page.goto('/brm/pending-approvals');
  const item = page.getByRole('row').filter({ hasText: 'Departure Reported' });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Dana');
  await expectAccessible(page, 'Approvals with a Departure Reported item');
  await screenshots(page, 'departure-approvals');
  await item.getByRole('button', { name: 'Confirm Departure' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Departure' });
  await expectAccessible(page, 'Confirm Departure');
  await confirm.getByRole('button', { name: 'Confirm Departure' }).click();
  await expect(page.getByText('Departure has been confirmed')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Departure Reported' })).toHaveCount(0);
});
