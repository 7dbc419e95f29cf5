import { expect, test, type Page } from '@playwright/test';
import { TEST_CLOCK_PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn, signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';
import { createActiveVendor, logOut, screenshots } from './support/world';

// Time-limited access and Away and Backup in the browser (GOVERNANCE.md §3.9, §5.9), on the portal
// started with the standalone test clock (TEST_CLOCK=1): POST /dev/clock moves the time every
// governance path reads and POST /dev/governance/run sweeps now. The IdP's passcodes and the
// sessions keep the real time.

test.use({ baseURL: `http://localhost:${TEST_CLOCK_PORT}` });
test.describe.configure({ mode: 'serial' });
// Several sign-ins with TOTP (a second one within 30 s waits for a fresh code) and an activation.
test.setTimeout(360_000);

const run = Date.now().toString(36);
const ORG = 'Acme Imaging';
const ROLE = `PRA - Vendor Access - ${ORG} - BR`;
const vendor = {
  firstName: 'Tess',
  lastName: 'Ramirez',
  email: `tess.ramirez.${run}@partners.example`,
  org: ORG,
};
const PASSWORD = 'Harbor-Pebble-58!';
const brm = { username: 'bbrown', email: 'beatrice.brown@hospital.example', name: 'Beatrice Brown' };
const delegate = { username: 'cchen', email: 'carlos.chen@hospital.example', name: 'Carlos Chen' };
let username = '';

interface Role {
  name: string;
  endsOn: string;
  daysLeft: number;
  maxEndsOn: string;
}

/** The signed-in person's calls from the browser's cookie jar, as the web app makes them. */
async function api(page: Page) {
  const { csrfToken } = (await (await page.request.get('/api/csrf')).json()) as { csrfToken: string };
  const headers = { 'x-pra-api-call': 'true', 'x-csrf-token': csrfToken };
  const send = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, data?: unknown) => {
    const response = await page.request.fetch(url, { method, data, headers });
    expect(response.status(), `${method} ${url}: ${await response.text()}`).toBeLessThan(300);
    return response.json() as Promise<unknown>;
  };
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, data: unknown) => send('POST', url, data),
    put: (url: string, data: unknown) => send('PUT', url, data),
    patch: (url: string, data: unknown) => send('PATCH', url, data),
  };
}

async function acmeRole(page: Page): Promise<Role> {
  const roles = (await (await api(page)).get(`/api/vendor/access/current?username=${username}`)) as Role[];
  return roles.find((role) => role.name === ROLE)!;
}

/** A calendar date moved by whole days. */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Presses Tab until the focused element is `target` (a keyboard-only path), at most 40 times. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>) {
  for (let i = 0; i < 40; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('the keyboard never reached the element');
}

async function signInVendor(page: Page) {
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await completeIdpSignIn(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/welcome$/);
}

test('a vendor’s access nears its end, the vendor asks for more time, the BRM approves a date', async ({
  page,
}) => {
  await signInFromHome(page, 'admin');
  username = await createActiveVendor(page, vendor, PASSWORD);
  const first = await acmeRole(page);
  expect(first.daysLeft).toBeGreaterThan(20);
  // The admin moves the end to 20 days from today (a vendor idle for the default's half year would
  // be disabled for inactivity first, GOVERNANCE.md §6), in a browser context of its own.
  const adminContext = await page
    .context()
    .browser()!
    .newContext({ baseURL: `http://localhost:${TEST_CLOCK_PORT}` });
  const adminPage = await adminContext.newPage();
  await signInFromHome(adminPage, 'admin');
  const today = addDays(first.endsOn, -first.daysLeft);
  await (
    await api(adminPage)
  ).post('/api/brm/users/set-access-end', {
    targetUsername: username,
    name: ROLE,
    accessEndsOn: addDays(today, 20),
  });
  await adminContext.close();
  const granted = await acmeRole(page);
  expect(granted.daysLeft).toBeGreaterThan(13);

  // Time passes until about 13 days are left; the sweep sends the expiry notice.
  const dev = await api(page);
  await dev.post('/dev/clock', { advance: `P${granted.daysLeft - 13}D` });
  await dev.post('/dev/governance/run', {});
  const endsOn = granted.endsOn;
  // Whole days of 24 h: across a change of daylight saving time the local day count may differ by one.
  const nearing = await acmeRole(page);
  const left = nearing.daysLeft;
  expect(left).toBeGreaterThanOrEqual(12);
  expect(left).toBeLessThanOrEqual(14);
  const leftText = `${left} days`;
  await page.reload();
  const alert = page.getByRole('main').locator('.access-ending-alert');
  await expect(alert).toContainText(`Your access to ${ORG} ends on ${endsOn} (${leftText} left).`);
  await expectAccessible(page, '/welcome with the access-ending alert');
  await screenshots(page, 'welcome-access-ending');
  await waitForMail(page.request, vendor.email, new RegExp(`^Your access to ${ORG} ends on ${endsOn}$`));

  // Keyboard only: from the alert's link to the extension dialog, and through it.
  const link = alert.getByRole('link', { name: `Request extension for ${ORG}` });
  await page.locator('body').focus();
  await tabTo(page, link);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/vendor\/request-access\?extend=/);
  const dialog = page.getByRole('dialog', { name: `Request extension for ${ORG}` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Current end: ${endsOn}`);
  await expect(dialog).toContainText(`No later than ${nearing.maxEndsOn}`);
  const asked = await dialog.getByLabel('New end date').inputValue();
  expect(asked > endsOn).toBe(true);
  await expectAccessible(page, 'Request extension dialog');
  await screenshots(page, 'extension-dialog');
  await tabTo(page, dialog.getByLabel('Justification'));
  await page.keyboard.type('Phase two of the PACS upgrade');
  await tabTo(page, dialog.getByRole('button', { name: 'Request Extension' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Extension request has been submitted')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Current Access shows the end, the sponsor and the pending extension; Pending Access the item.
  await page.getByRole('button', { name: /Current Access/ }).click();
  const current = page.getByRole('dialog', { name: 'Current Access' });
  await expect(current.locator('dd', { hasText: `${endsOn} (${leftText})` })).toBeVisible();
  await expect(current.locator('dd', { hasText: 'Alex Morgan' })).toBeVisible();
  await expect(current).toContainText('Extension pending');
  await expectAccessible(page, 'Current Access modal with end dates');
  await screenshots(page, 'current-access-ending');
  await current.getByRole('button', { name: 'Close' }).last().click();
  await page.getByRole('button', { name: /Pending Access/ }).click();
  const pending = page.getByRole('dialog', { name: 'Pending Access Requests' });
  await expect(pending).toContainText(`${ORG}: extend until ${asked}`);
  await expect(pending).toContainText(/Submitted \d{4}-\d\d-\d\d · expires \d{4}-\d\d-\d\d/);
  await expectAccessible(page, 'Pending Access Requests with an extension');
  await screenshots(page, 'pending-extension');
  await pending.getByRole('button', { name: 'Close' }).last().click();
  await waitForMail(
    page.request,
    brm.email,
    new RegExp(`^Action required: extension requested by Tess Ramirez for ${ORG} until ${asked}$`),
  );
  await logOut(page);

  // The BRM approves with a date of its own.
  await signInFromHome(page, brm.username);
  await page.goto('/brm/pending-approvals');
  const row = page.getByRole('row').filter({ hasText: vendor.email }).filter({ hasText: 'Extend Access' });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /^Details for/ }).click();
  await expect(page.getByText('Requested until')).toBeVisible();
  await expect(page.getByRole('main')).toContainText(asked);
  await expectAccessible(page, 'Approvals with an Extend Access row expanded');
  await screenshots(page, 'approvals-extend-access');
  await row.getByRole('button', { name: 'Approve' }).click();
  const approve = page.getByRole('dialog', { name: 'Approve Request' });
  const endsField = approve.getByLabel('Access ends on');
  await expect(endsField).toHaveValue(asked);
  await expect(approve).toContainText(`Policy for ${ORG}: up to 180 days`);
  const chosen = addDays(endsOn, 45);
  await endsField.fill(chosen);
  await expectAccessible(page, 'Approve dialog with Access ends on');
  await screenshots(page, 'approve-access-ends-on');
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Request has been successfully approved')).toBeVisible();
  await waitForMail(
    page.request,
    vendor.email,
    new RegExp(`^Your extension for ${ORG} was approved until ${chosen}$`),
  );
  await logOut(page);

  // The vendor sees the new date; the alert is gone.
  await signInVendor(page);
  await expect(page.getByRole('main').locator('.access-ending-alert')).toHaveCount(0);
  await page.goto('/vendor/request-access');
  await page.getByRole('button', { name: /Current Access/ }).click();
  await expect(
    page.getByRole('dialog', { name: 'Current Access' }).locator('dd', { hasText: chosen }),
  ).toBeVisible();
  expect((await acmeRole(page)).endsOn).toBe(chosen);
  await page
    .getByRole('dialog', { name: 'Current Access' })
    .getByRole('button', { name: 'Close' })
    .last()
    .click();
  await logOut(page);
});

test('a BRM sets Away and Backup, a request arrives, the delegate decides on the BRM’s behalf', async ({
  page,
}) => {
  // The admin makes Carlos Chen a backup BRM of Acme Imaging (People).
  await signInFromHome(page, 'admin');
  const admin = await api(page);
  const { people } = (await admin.get('/api/admin/people')) as {
    people: { id: string; username: string; organizations: string[] }[];
  };
  const carlos = people.find((p) => p.username === delegate.username)!;
  await admin.patch(`/api/admin/people/${carlos.id}`, { organizations: [...carlos.organizations, ORG] });
  const { organizations } = (await admin.get('/api/admin/organizations')) as {
    organizations: { id: string; name: string }[];
  };
  const acme = organizations.find((o) => o.name === ORG)!;
  await admin.put(`/api/admin/people/${carlos.id}/organizations/${acme.id}`, { kind: 'backup' });
  await logOut(page);

  // Beatrice goes away: her approvals go to Carlos.
  await signInFromHome(page, brm.username);
  await page
    .getByRole('main')
    .getByRole('link', { name: /Away and Backup/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Away and Backup' })).toBeVisible();
  await page.getByLabel(/While I am away/).selectOption({ label: delegate.name });
  await expectAccessible(page, '/brm/away');
  await screenshots(page, 'away-and-backup');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `${delegate.name} handles your approvals until` }),
  ).toBeVisible();
  await logOut(page);

  // The vendor asks for more time on Acme: the request reaches Beatrice and Carlos.
  await signInVendor(page);
  const role = await acmeRole(page);
  const until = addDays(role.endsOn, 30) <= role.maxEndsOn ? addDays(role.endsOn, 30) : role.maxEndsOn;
  await (
    await api(page)
  ).post('/api/vendor/access/extend', {
    name: ROLE,
    requestedUntil: until,
    justification: 'Acceptance tests run late',
  });
  const subject = new RegExp(
    `^Action required: extension requested by Tess Ramirez for ${ORG} until ${until}$`,
  );
  await waitForMail(page.request, delegate.email, subject);
  await logOut(page);

  // Carlos decides it, marked as for Beatrice; the vendor's mail says on whose behalf.
  await signInFromHome(page, delegate.username);
  await page.goto('/brm/pending-approvals');
  const row = page.getByRole('row').filter({ hasText: vendor.email }).filter({ hasText: 'Extend Access' });
  await expect(row).toContainText(`For ${brm.name}`);
  await row.getByRole('button', { name: 'Approve' }).click();
  const approve = page.getByRole('dialog', { name: 'Approve Request' });
  await expect(approve.getByLabel('Access ends on')).toHaveValue(until);
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Request has been successfully approved')).toBeVisible();
  const mail = await waitForMail(
    page.request,
    vendor.email,
    new RegExp(`^Your extension for ${ORG} was approved until ${until}$`),
    `by ${delegate.name} on behalf of ${brm.name}`,
  );
  expect(mail.text).toContain(`approved until ${until} by ${delegate.name} on behalf of ${brm.name}`);

  // As a BRM of Acme (its backup), Carlos changes the end date from Manage Users.
  await page.goto('/brm/manage-users');
  await page.getByLabel('Filter by username, email or name').fill(vendor.email);
  const userRow = page.getByRole('row').filter({ hasText: vendor.email });
  await expect(userRow).toHaveCount(1);
  await userRow.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('button', { name: 'Manage Access' }).click();
  const manage = page.getByRole('dialog', { name: `Manage Access for ${username}` });
  await manage.getByRole('button', { name: /Current Access/ }).click();
  await page
    .getByRole('dialog', { name: 'Current Access' })
    .getByRole('button', { name: `Change end date of ${ORG}` })
    .click();
  const change = page.getByRole('dialog', { name: `Change end date for ${ORG}` });
  await expect(change.getByLabel('New end date')).toHaveValue(until);
  const shorter = addDays(until, -10);
  await change.getByLabel('New end date').fill(shorter);
  await expectAccessible(page, 'Change end date dialog');
  await screenshots(page, 'change-end-date');
  await change.getByRole('button', { name: 'Change End Date' }).click();
  await expect(page.getByText('End date has been changed')).toBeVisible();
  const current = page.getByRole('dialog', { name: 'Current Access' });
  await expect(current.locator('dd', { hasText: shorter })).toBeVisible();
  await expect(current.locator('dd', { hasText: delegate.name })).toBeVisible();
  await waitForMail(page.request, vendor.email, new RegExp(`^Your access to ${ORG} now ends on ${shorter}$`));
  await current.getByRole('button', { name: 'Close' }).last().click();
  await manage.getByRole('button', { name: 'Close' }).first().click();
  await logOut(page);
});
