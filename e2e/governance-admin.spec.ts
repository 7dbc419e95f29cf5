import { mkdirSync, readFileSync } from 'node:fs';
import { KEEP_PICTURES } from './support/chromium';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';
import { waitForMail } from './support/mailbox';
import { logOut } from './support/world';
import { TEST_CLOCK_PORT } from './playwright.config';

// Governance's admin screens (GOVERNANCE.md §2.3, §3.2, §5.2): an organization's risk tier and
// contract end, the tier policies (edited by keyboard only), Primary/Backup BRMs and the
// organizations without a reachable approver, the auditor flag, the Access ending report and its
// CSV; then, on the test-clock portal, a registration that expires unanswered and is made again.

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

const run = Date.now().toString(36);
const org = `Orbit Care ${run}`;
const domain = `orbit-${run}.example`;
const brm = { username: `orb${run}`, given: 'Omar', family: 'Rahal', email: `orb.${run}@hospital.example` };
const vendor = { first: 'Vik', last: 'Ending', email: `vik.ending@${domain}` };
const shots = join(process.env.PRA_E2E_DIR ?? '.', 'screenshots');
mkdirSync(shots, { recursive: true });

/** Today, or `days` from today, as the hospital's calendar date (PORTAL_TIME_ZONE's default). */
function hospitalDate(days = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** A screenshot at desktop and at phone size (390x844), the page itself never scrolling sideways. */
async function screenshots(page: Page, name: string) {
  if (KEEP_PICTURES) await page.screenshot({ path: join(shots, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  if (KEEP_PICTURES) await page.screenshot({ path: join(shots, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** Presses Tab (at most `max` times) until the element has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

async function openSection(page: Page, name: string, path: string) {
  await page.getByRole('navigation', { name: 'Administration sections' }).getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
}

test('an admin sets an organization’s tier and contract end, edits a tier’s policy by keyboard, routes approvers, and reads what access ends', async ({
  page,
  browser,
  baseURL,
}) => {
  const contractEnd = hospitalDate(10);
  await signInFromHome(page, 'admin');
  await page.goto('/admin/organizations');

  // A new organization, high risk, whose contract ends in ten days.
  await page.getByLabel('New organization name').fill(org);
  await page.getByLabel('Email domains (separated by spaces)').fill(domain);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(`Organization ${org} created.`)).toBeVisible();
  // The list is paged by the server: the filter finds the new one on any page.
  await page.getByLabel('Filter by name or domain').fill(domain);
  const terms = page.getByRole('form', { name: `Risk tier and contract of ${org}` });
  await terms.getByLabel(`Risk tier of ${org}`).selectOption('high');
  await terms.getByLabel('Contract ends on').fill(contractEnd);
  await terms.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Risk tier and contract end of ${org} saved.`)).toBeVisible();
  await expect(terms.getByLabel(`Risk tier of ${org}`)).toHaveValue('high');
  await expect(terms.getByLabel('Contract ends on')).toHaveValue(contractEnd);
  await expectAccessible(page, '/admin/organizations with risk tiers');
  await screenshots(page, 'organizations');

  // People: the new organization has no approver yet, and is listed as such.
  await openSection(page, 'People', '/admin/people');
  const unreachable = page
    .getByRole('alert')
    .filter({ hasText: 'Organizations without a reachable approver' });
  await expect(unreachable).toContainText(org);
  await expectAccessible(page, '/admin/people with unreachable organizations');
  const form = page.getByRole('form', { name: 'Add a person' });
  await form.getByLabel('Username (as at the IdP)').fill(brm.username);
  await form.getByLabel('Given name').fill(brm.given);
  await form.getByLabel('Family name').fill(brm.family);
  await form.getByLabel('Email').fill(brm.email);
  await form.getByLabel('BRM', { exact: true }).check();
  await form.getByLabel('Admin', { exact: true }).check();
  await form.getByLabel(org).check();
  await form.getByRole('button', { name: 'Add person' }).click();
  await expect(page.getByText(`${brm.username} added.`)).toBeVisible();
  await expect(page.getByText('Organizations without a reachable approver')).toBeHidden();
  await page.getByLabel('Filter by username, name or email').fill(brm.username);
  // Made a backup, the organization has no primary approver again; made primary, it has.
  const kind = page.getByLabel(`Approver for ${org}: ${brm.username}`);
  await expect(kind).toHaveValue('primary');
  await kind.selectOption('backup');
  await expect(page.getByText(`${brm.username} is now backup BRM of ${org}.`)).toBeVisible();
  await expect(unreachable).toContainText(org);
  await screenshots(page, 'people');
  await kind.selectOption('primary');
  await expect(page.getByText(`${brm.username} is now primary BRM of ${org}.`)).toBeVisible();
  await expect(page.getByText('Organizations without a reachable approver')).toBeHidden();
  // The auditor flag asks first, saying what it does.
  const row = page.getByRole('row').filter({ hasText: brm.email });
  await row.getByLabel('Auditor (read-only)').click();
  const confirm = page.getByRole('dialog', { name: `Make ${brm.username} an auditor?` });
  await expect(confirm).toContainText('change nothing');
  await expectAccessible(page, 'auditor confirmation');
  await confirm.getByRole('button', { name: 'Make auditor' }).click();
  await expect(page.getByText(`${brm.username} changed.`)).toBeVisible();
  await expect(row.getByLabel('Auditor (read-only)')).toBeChecked();

  // Governance policies, by keyboard only: Edit, a refused value beside its field, then saved.
  await openSection(page, 'Governance policies', '/admin/governance');
  const table = page.getByRole('table', { name: 'Governance policy per risk tier' });
  const accessRow = table.getByRole('row', { name: /^Access granted for/ });
  await expect(accessRow).toContainText('180 days');
  await expect(accessRow).toContainText('90 days');
  await expectAccessible(page, '/admin/governance');
  await screenshots(page, 'policies');
  await tabTo(page, page.getByRole('button', { name: 'Edit the high tier' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Edit the high tier’s policy' });
  await expect(dialog).toBeVisible();
  const field = dialog.getByLabel(/^Access granted for/);
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('400');
  await page.keyboard.press('Enter');
  await expect(
    dialog.getByText('Access granted for cannot be longer than the latest end date'),
  ).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'policy dialog with an error');
  await screenshots(page, 'policy-dialog');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('60');
  await page.keyboard.press('Enter');
  await expect(page.getByText('The high tier’s policy has been saved.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(accessRow).toContainText('60 days');
  await expect(table.getByRole('row', { name: /^Last changed/ })).toContainText('by admin');

  // A vendor of the organization registers; the admin approves; the contract caps the end.
  const anonymous = await browser.newContext({ baseURL });
  const visitor = await anonymous.newPage();
  await visitor.goto('/new-user');
  await visitor.getByLabel('First Name').fill(vendor.first);
  await visitor.getByLabel('Last Name').fill(vendor.last);
  await visitor.getByLabel('Email').fill(vendor.email);
  await visitor.getByLabel('Organization').selectOption({ label: org });
  await visitor.getByLabel('I agree to the Acceptable Use Policy').check();
  await visitor.getByRole('button', { name: 'Register' }).click();
  await expect(visitor.getByRole('heading', { name: 'Registration Successful' })).toBeVisible();
  await anonymous.close();
  await page.goto('/brm/pending-approvals');
  const pending = page.getByRole('row').filter({ hasText: vendor.email });
  await pending.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Request has been successfully approved')).toBeVisible();

  // Access ending: the grant, ending on the contract's end, filtered by organization; its CSV.
  await page.goto('/admin/organizations');
  // Access Ending now sits in Administration → Reports (GOVERNANCE.md §9.2).
  await openSection(page, 'Reports', '/admin/reports');
  await page.getByRole('link', { name: 'Access Ending' }).click();
  await expect(page).toHaveURL(/\/admin\/reports\/ending$/);
  await page.getByLabel('Organization', { exact: true }).selectOption({ label: org });
  const report = page.getByRole('table', { name: 'Access ending' });
  const line = report.getByRole('row').filter({ hasText: vendor.email });
  await expect(line).toContainText(contractEnd);
  await expect(line).toContainText('10 days');
  await expect(line).toContainText(`${vendor.first} ${vendor.last}`);
  await expect(line).toContainText('Alex Morgan');
  await page.getByLabel('Ending within').selectOption('7');
  await expect(report).toContainText('No access ends in this period.');
  await page.getByLabel('Ending within').selectOption('30');
  await expect(line).toBeVisible();
  await expectAccessible(page, '/admin/reports/ending');
  await screenshots(page, 'access-ending');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
  expect(csv[0]).toBe('Organization,Username,Vendor,Email,Access ends,Days left,Sponsor,Extension pending');
  expect(csv.filter((l) => l.includes(vendor.email))).toEqual([
    expect.stringMatching(
      new RegExp(`^${org},[^,]+,${vendor.first} ${vendor.last},${vendor.email},${contractEnd},10,`),
    ),
  ]);
  await logOut(page);

  // The auditor sees the policies and organizations, and is offered no change.
  await signInFromHome(page, brm.username);
  await page.goto('/admin/governance');
  await expect(
    page.getByText('You can read them; only admins who are not auditors can change them.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Edit the/ })).toHaveCount(0);
  await expectAccessible(page, '/admin/governance as an auditor');
  await page.goto('/admin/organizations');
  await page.getByLabel('Filter by name or domain').fill(domain);
  await expect(page.getByLabel(`Risk tier of ${org}`)).toBeDisabled();
  await logOut(page);
});

test.describe('on the test-clock portal', () => {
  test.use({ baseURL: `http://localhost:${TEST_CLOCK_PORT}` });

  test('a registration nobody decides expires, the registrant is told, and can register again', async ({
    page,
  }) => {
    const email = `late.${run}@acme-imaging.example`;
    const register = async () => {
      await page.goto('/new-user');
      await page.getByLabel('First Name').fill('Lee');
      await page.getByLabel('Last Name').fill('Late');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Organization').selectOption({ label: 'Acme Imaging' });
      await page.getByLabel('I agree to the Acceptable Use Policy').check();
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByRole('heading', { name: 'Registration Successful' })).toBeVisible();
    };
    const dev = (path: string, data: unknown) =>
      page.request.post(path, { data, headers: { 'x-pra-api-call': 'true' } });

    await register();
    await expect(
      page.getByText(/If it is not decided by .+ it will expire and you can register again\./),
    ).toBeVisible();
    // While it waits, the address is taken.
    await page.goto('/new-user');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First Name').click();
    await expect(
      page.getByText('There is already a new user registration pending approval for this email address.'),
    ).toBeVisible();

    // Fifteen days later (standard tier: 14 days to decide), the sweeper expires it.
    const since = Date.now();
    expect((await dev('/dev/clock', { advance: 'P15D' })).status()).toBe(200);
    try {
      expect((await dev('/dev/governance/run', {})).status()).toBe(200);
      await waitForMail(page.request, email, /has expired/, 'register again', since);
      await register();
    } finally {
      // The portal's other journeys run at today's date.
      expect((await dev('/dev/clock', { set: new Date().toISOString() })).status()).toBe(200);
    }
  });
});
