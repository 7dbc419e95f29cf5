import { expect, test, type Page } from '@playwright/test';
import { ACTIVITY_CLOCK_PORT } from './playwright.config';
import { expectAccessible } from './support/axe';
import { completeIdpSignIn } from './support/idp';
import { screenshots } from './support/world';

// GOVERNANCE.md §9 on a test-clock portal of its own: a vendor's failed sign-in this week; the
// clock moves to next Monday 07:00 or 08:00 in New York (12:00 UTC) and the sweep generates this
// week's digest; the admin opens Administration → Activity Review, finds the failed sign-in with its
// link into the audit trail, and marks the week reviewed with a note, by keyboard only.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: `http://localhost:${ACTIVITY_CLOCK_PORT}` });
test.setTimeout(360_000);

async function dev(page: Page, url: string, data: unknown) {
  const response = await page.request.post(url, { data, headers: { 'x-pra-api-call': 'true' } });
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
}

/** Presses Tab until the focused element's text or label is `name` (a keyboard-only path). */
async function tabTo(page: Page, name: string) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return [
        el?.textContent?.trim() ?? '',
        el?.id ? (document.querySelector(`label[for="${el.id}"]`)?.textContent ?? '') : '',
      ];
    });
    if (focused.includes(name)) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

/** This week's Monday and the next one's noon (UTC) in the portal's zone (America/New_York). */
function weekInNewYork(now = new Date()) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(now);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  const back = (weekday + 6) % 7;
  const monday = new Date(Date.UTC(y, m - 1, d - back)).toISOString().slice(0, 10);
  const sunday = new Date(Date.UTC(y, m - 1, d - back + 6)).toISOString().slice(0, 10);
  const nextMondayNoon = new Date(Date.UTC(y, m - 1, d - back + 7, 12)).toISOString();
  return { monday, sunday, nextMondayNoon };
}

test('an admin opens Activity Review and marks the week reviewed with a note, by keyboard', async ({
  page,
}) => {
  const week = weekInNewYork();
  // A vendor's failed sign-in: an event of this week's digest.
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await page.getByLabel('Username').fill('jdoe');
  await page.getByLabel('Password').fill('Not-the-password-1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(
    page.getByText('The username or password is incorrect, or the account cannot sign in.'),
  ).toBeVisible();

  // Next Monday after 06:00 in New York: the sweep generates this week's digest.
  await page.goto('/home');
  await dev(page, '/dev/clock', { set: week.nextMondayNoon });
  await dev(page, '/dev/governance/run', {});

  // Signed in as signInFromHome does, with more patience: this portal's first TOTP enrolment is slow on a busy host.
  await page.goto('/home');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await completeIdpSignIn(page, 'admin');
  await expect(page).toHaveURL(/\/welcome$/, { timeout: 30_000 });
  await page.goto('/admin/reports/activity');
  await expect(page.getByRole('heading', { level: 2, name: 'Activity Review' })).toBeVisible();
  const period = `${week.monday} to ${week.sunday}`;
  const row = page.getByRole('row').filter({ hasText: period });
  await expect(row).toContainText('Not reviewed yet');
  await expectAccessible(page, 'Activity Review, the weeks');
  await screenshots(page, 'activity-review-list');

  // Keyboard only from here: open the week, try without a note, then with one.
  await page.getByRole('link', { name: period }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 3, name: `Week ${period}` })).toBeVisible();
  const failed = page.getByRole('region', { name: /^Failed sign-ins and lockouts \(\d+\)$/ });
  const jdoe = failed.getByRole('link', { name: 'jdoe' });
  await expect(jdoe).toHaveAttribute(
    'href',
    /^\/admin\/audit\?action=signin&outcome=failure&target=jdoe&from=.+&to=.+$/,
  );
  await expectAccessible(page, 'Activity Review, one week');
  await tabTo(page, 'Mark Reviewed');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Enter a note about the review')).toBeVisible();
  await expectAccessible(page, 'Activity Review, the note missing');
  await tabTo(page, 'Note');
  await page.keyboard.type('Checked the failed sign-ins of jdoe with the vendor; nothing else stood out.');
  await tabTo(page, 'Mark Reviewed');
  await page.keyboard.press('Enter');
  await expect(page.getByText(`The week ${period} is marked reviewed`)).toBeVisible();
  const signedOff = page.getByText(/^Reviewed by .+ on \d{4}-\d{2}-\d{2}$/);
  await expect(signedOff).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark Reviewed' })).toHaveCount(0);
  await expectAccessible(page, 'Activity Review, reviewed');
  await screenshots(page, 'activity-review-week');

  // The list says so too, and the vendor's link opens the audit trail filtered.
  await page.getByRole('link', { name: 'All weeks' }).click();
  await expect(row).toContainText(/Reviewed by .+ on \d{4}-\d{2}-\d{2}/);
  await page.getByRole('link', { name: period }).click();
  await jdoe.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Audit trail' })).toBeVisible();
  await expect(page.getByLabel('Target')).toHaveValue('jdoe');
  await expect(page.getByRole('row').filter({ hasText: 'signin.password' }).first()).toContainText('jdoe');
});
