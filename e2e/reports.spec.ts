import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInFromHome } from './support/idp';
import { apiAs, logOut, screenshots } from './support/world';

// Reports for auditors (GOVERNANCE.md §9.2, §9.3, §9.5): the admin closes an access review; the
// demo auditor (aquinn: neither admin nor BRM) signs in, finds Administration with its Reports and
// Audit trail only, opens Reports → Review Evidence by keyboard and downloads evidence.csv and
// evidence.json, whose SHA-256 matches the CSV; each page axe-clean; a look at phone size.

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

const run = Date.now().toString(36);
const cycleName = `Evidence journey ${run}`;

/** Presses Tab until `target` has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('the admin closes an access review of one organization', async ({ page }) => {
  await signInFromHome(page, 'admin');
  const api = await apiAs(page);
  const headers = { 'x-pra-api-call': 'true' };
  const orgs = (await (await page.request.get('/api/admin/reports/organizations', { headers })).json()) as {
    organizations: { id: string; name: string }[];
  };
  const initech = orgs.organizations.find((o) => o.name === 'Initech Devices')!;
  await api.post('/api/admin/reviews', {
    name: cycleName,
    organizationIds: [initech.id],
    defaultAction: 'keep',
    vendorConfirmation: false,
  });
  const reviews = (await (await page.request.get('/api/admin/reviews', { headers })).json()) as {
    campaigns: { id: string; cycle: string; status: string }[];
  };
  const campaign = reviews.campaigns.find((c) => c.cycle === cycleName)!;
  await api.post(`/api/admin/reviews/${campaign.id}/close`, {});
  await expect
    .poll(async () => {
      const now = (await (
        await page.request.get('/api/admin/reviews', { headers })
      ).json()) as typeof reviews;
      return now.campaigns.find((c) => c.id === campaign.id)?.status;
    })
    .toBe('closed');
  await logOut(page);
});

test('an auditor who is not an admin opens Reports → Review Evidence by keyboard and downloads it', async ({
  page,
}) => {
  await signInFromHome(page, 'aquinn');
  await page.getByRole('link', { name: 'Administration' }).first().click();
  await expect(page).toHaveURL(/\/admin\/reports$/);
  const sections = page.getByRole('navigation', { name: 'Administration sections' });
  await expect(sections.getByRole('link')).toHaveText(['Reports', 'Audit trail']);
  await expect(page.getByRole('heading', { level: 2, name: 'Reports' })).toBeVisible();
  for (const report of [
    'Vendor Access',
    'Access Ending',
    'Dormant and Disabled',
    'Sponsorship',
    'Acceptable Use Policy',
    'Sign-in Strength',
    'Review Evidence',
    'Activity Review',
  ])
    await expect(page.getByRole('main').getByRole('link', { name: report, exact: true })).toBeVisible();
  await expectAccessible(page, '/admin/reports (auditor)');

  // By keyboard: Tab to Review Evidence and press Enter.
  const evidenceLink = page.getByRole('main').getByRole('link', { name: 'Review Evidence', exact: true });
  await tabTo(page, evidenceLink);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/reports\/review-evidence$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Review Evidence' })).toBeVisible();
  await page.getByLabel('Filter by organization or review cycle').fill(cycleName);
  const row = page.getByRole('row', { name: new RegExp(cycleName) });
  await expect(row).toBeVisible();
  await expectAccessible(page, '/admin/reports/review-evidence');

  const csvLink = row.getByRole('link', { name: /^evidence\.csv of Initech Devices/ });
  await tabTo(page, csvLink);
  const [csvFile] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const [jsonFile] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /^evidence\.json of Initech Devices/ }).click(),
  ]);
  const csv = readFileSync(await csvFile.path(), 'utf8');
  const manifest = JSON.parse(readFileSync(await jsonFile.path(), 'utf8')) as {
    cycle: string;
    files: { name: string; sha256: string }[];
  };
  expect(csv.split('\r\n')[0]).toContain('review_id,series,resource');
  expect(manifest.cycle).toBe(cycleName);
  expect(manifest.files).toEqual([
    { name: 'evidence.csv', sha256: createHash('sha256').update(csv, 'utf8').digest('hex') },
  ]);
  await screenshots(page, 'reports-review-evidence');

  // The other reports open for the auditor too; the admin-only sections send them to Welcome.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/reports/vendor-access');
  await expect(page.getByRole('heading', { level: 2, name: 'Vendor Access' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /grants?$/ })).toBeVisible();
  await expectAccessible(page, '/admin/reports/vendor-access');
  await screenshots(page, 'reports-vendor-access');

  // Acceptable Use Policy and Activity Review are reports too: read-only for the auditor.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page
    .getByRole('navigation', { name: 'Administration sections' })
    .getByRole('link', { name: 'Reports' })
    .click();
  await page.getByRole('main').getByRole('link', { name: 'Acceptable Use Policy', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/reports\/acceptable-use$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Acceptable Use Policy' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /vendors?$/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
    'href',
    '/api/admin/reports/aup.csv',
  );
  await expect(page.getByRole('button', { name: 'Publish New Version' })).toHaveCount(0);
  await expectAccessible(page, '/admin/reports/acceptable-use (auditor)');
  await screenshots(page, 'reports-acceptable-use');
  await page.goto('/admin/reports/activity');
  await expect(page.getByRole('heading', { level: 2, name: 'Activity Review' })).toBeVisible();
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
  const weekLink = page.getByRole('main').getByRole('table').getByRole('link').first();
  if ((await weekLink.count()) > 0) {
    await weekLink.click();
    await expect(page).toHaveURL(/\/admin\/reports\/activity\?week=\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
  }
  await expect(page.getByRole('button', { name: 'Mark Reviewed' })).toHaveCount(0);
  await expectAccessible(page, '/admin/reports/activity (auditor)');
  await screenshots(page, 'reports-activity');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/people');
  await expect(page).toHaveURL(/\/welcome$/);
});
